/* Drawing the table from a scene (what the screen shows now: the latest game view, or a step of
   the events being played out). No rules here: legal moves and results come from the server. */
import { gettext, ngettext, fmt } from "./i18n.js";
import {
  NAMES_A_SUIT, SHAPESHIFTER, SPECIAL_OPTIONS, cardElement, cardHint, cardKind, cardLabel, jesterName, kindIcon,
  noTrumpIcon, specialName, suitBadge, suitIcon, suitLabel, suitText, wizardName,
} from "./cards.js";

const $ = (id) => document.getElementById(id);

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

export function playerName(scene, seat) {
  const player = scene.players.find((p) => p.seat === seat);
  return player ? displayName(player) : fmt(gettext("Seat %(seat)s"), { seat: seat + 1 });
}

const LEVELS = { easy: gettext("Easy"), medium: gettext("Medium"), hard: gettext("Hard") };

/* A player's name as the page shows it: a bot's in the page's language ("Hard Bot 3", as the
   server names it in English). */
export function displayName(player) {
  const level = player.is_bot ? LEVELS[player.difficulty] : null;
  return level ? fmt(gettext("%(level)s Bot %(n)s"), { level, n: player.seat + 1 }) : player.username;
}

/* A name short enough for a column head, distinct from the others: a bot by its seat ("Bot 3"),
   a person's name cut to 8 characters, and a seat number where two cuts would read alike. */
export function shortNames(players) {
  const cut = (p) => p.is_bot ? fmt(gettext("Bot %(n)s"), { n: p.seat + 1 })
    : p.username.length > 8 ? p.username.slice(0, 7) + "…" : p.username;
  const names = players.map(cut);
  return players.map((p, i) => names.filter((n) => n === names[i]).length > 1
    ? names[i] + " (" + (p.seat + 1) + ")" : names[i]);
}

/* Where each seat sits around the oval, as an angle in degrees (0 = right, 90 = bottom): you at
   the bottom, the others clockwise from your left over the top to your right (R3). */
export function seatAngles(scene) {
  const n = scene.seats;
  const me = scene.you === null ? 0 : scene.you;
  const angles = {};
  angles[me] = 90;
  for (let i = 1; i < n; i++) angles[(me + i) % n] = 180 + (180 * (i - 0.5)) / (n - 1);
  return angles;
}

function badge(text, extra) {
  return el("span", "badge" + (extra ? " " + extra : ""), text);
}

/* "bids 3 of 5 — 2 under": how the bids so far compare with the tricks there are. */
export function bidBalance(round) {
  const bids = round.bids.filter((b) => b !== null && b !== undefined);
  if (!bids.length) return "";
  const sum = bids.reduce((a, b) => a + b, 0);
  const head = fmt(gettext("bids %(sum)s of %(cards)s"), { sum, cards: round.cards });
  if (sum === round.cards) return head + " — " + gettext("even");
  const gap = Math.abs(round.cards - sum);
  return head + " — " + (sum < round.cards
    ? fmt(gettext("%(n)s under"), { n: gap })
    : fmt(gettext("%(n)s over"), { n: gap }));
}

/* "Round 7 of 15", or in a shorter format (R19) "Round 7 (4 of 8)": the round dealing 7 cards,
   the fourth the table plays. */
export function roundLabel(number, roundNumbers) {
  const total = roundNumbers.length;
  if (roundNumbers[total - 1] === total) return fmt(gettext("Round %(n)s of %(total)s"), { n: number, total });
  return fmt(gettext("Round %(n)s (%(i)s of %(total)s)"), { n: number, i: roundNumbers.indexOf(number) + 1, total });
}

export function renderBar(scene) {
  const round = scene.round;
  $("round-info").textContent = round ? roundLabel(round.number, scene.roundNumbers) : "";
  $("round-cards").textContent = round
    ? fmt(ngettext("%(cards)s card", "%(cards)s cards", round.cards), { cards: round.cards }) : "";
  const turned = $("turned-card");
  turned.replaceChildren();
  if (round && round.trump_card) turned.append(cardElement(round.trump_card, { small: true }));
  const trump = $("trump");
  trump.replaceChildren();
  if (round) {
    trump.append(round.phase === "choosing_trump" && !round.trump
      ? el("span", null, gettext("being chosen")) : suitBadge(round.trump));
  }
  $("bid-total").textContent = round && round.phase !== "done" ? bidBalance(round) : "";
}

function timerRing() {
  const box = el("span", "turn-timer");
  box.dataset.testid = "turn-timer";
  box.id = "turn-timer";
  box.innerHTML = '<svg viewBox="0 0 36 36" aria-hidden="true" focusable="false">'
    + '<circle class="track" cx="18" cy="18" r="15.5"/>'
    + '<circle class="left" cx="18" cy="18" r="15.5" pathLength="100" transform="rotate(-90 18 18)"/></svg>'
    + '<span class="seconds"></span>';
  box.setAttribute("role", "timer");
  return box;
}

/* Since when each offline player has had no socket of this site open (by seat, this page's
   clock), as the table's presence answer last said; "offline" alone where unknown. */
const offlineSince = new Map();
export function noteOfflineFor(secondsBySeat) {
  offlineSince.clear();
  Object.entries(secondsBySeat || {}).forEach(([seat, seconds]) => offlineSince.set(Number(seat), Date.now() - seconds * 1000));
}

function offlineText(seat) {
  const since = offlineSince.get(seat);
  const minutes = since === undefined ? 0 : Math.floor((Date.now() - since) / 60000);
  if (minutes < 1) return gettext("offline");
  if (minutes < 60) return fmt(gettext("offline %(n)s min"), { n: minutes });
  return fmt(gettext("offline %(n)s h"), { n: Math.floor(minutes / 60) });
}

export function renderSeats(scene, { showTimer }) {
  const box = $("seats");
  box.replaceChildren();
  const angles = seatAngles(scene);
  const round = scene.round;
  for (let seat = 0; seat < scene.seats; seat++) {
    const player = scene.players.find((p) => p.seat === seat);
    const chip = el("div", "seat");
    chip.dataset.testid = "seat-" + seat;
    chip.dataset.seat = seat;
    chip.dataset.active = String(scene.to_act === seat);
    if (scene.you === seat) chip.classList.add("you");
    const angle = angles[seat];
    const rad = (angle * Math.PI) / 180;
    chip.style.left = (50 + 46 * Math.cos(rad)).toFixed(2) + "%";
    chip.style.top = (angle === 90 ? 100 : 50 + 47 * Math.sin(rad)).toFixed(2) + "%";
    chip.dataset.side = angle === 90 ? "bottom" : angle < 225 ? "left" : angle > 315 ? "right" : "top";
    const head = el("div", "who");
    // A bot's full name, or on a narrow screen its seat ("Bot 3") beside its level: no two alike.
    const name = el("span", "name", player ? displayName(player) : "—");
    if (player) name.title = displayName(player);
    if (player && player.is_bot) {
      name.replaceChildren(el("span", "long", displayName(player)),
        el("span", "short", fmt(gettext("Bot %(n)s"), { n: seat + 1 })));
    }
    head.append(name);
    if (player && player.is_bot) head.append(badge(LEVELS[player.difficulty] || gettext("bot"), "bot"));
    if (scene.you === seat) head.append(badge(gettext("you"), "you"));
    if (round && round.dealer === seat) head.append(badge(gettext("dealer"), "dealer"));
    if (player && player.away) head.append(badge(gettext("away"), "away"));
    if (player && !player.is_bot && player.online !== undefined) {  // has this site open (a bot always)
      chip.dataset.online = String(player.online !== false);
      const mark = el("span", "presence");
      mark.dataset.testid = "presence-" + seat;
      const label = player.online === false ? gettext("offline") : gettext("online");
      mark.setAttribute("role", "img");
      mark.setAttribute("aria-label", label);
      mark.title = label;
      name.prepend(mark);
      if (player.online === false) head.append(badge(offlineText(seat), "offline"));
    }
    chip.append(head);
    const stats = el("div", "stats");
    const bid = round ? round.bids[seat] : null;
    const won = round ? round.tricks_won[seat] : 0;
    const bidText = bid === null || bid === undefined ? "–" : String(bid);
    const line = el("span", "bid", fmt(gettext("bid %(bid)s · won %(won)s"), { bid: bidText, won }));
    if (bid !== null && bid !== undefined) {
      line.classList.add(won === bid ? "on-track" : won > bid ? "over" : "under");
    }
    stats.append(line, el("span", "score", fmt(gettext("%(score)s pts"), { score: player ? player.score : 0 })));
    chip.append(stats);
    // A bot's step is paced, not timed by the table's limit: no clock for it.
    if (showTimer && scene.to_act === seat && !(player && player.is_bot)) chip.append(timerRing());
    const visible = scene.visible_hands[String(seat)];
    if (visible && visible.length) {  // R9: in the blind first round you see the others' cards
      const row = el("div", "seen");
      row.setAttribute("role", "group");  // a plain div may not carry a label
      row.setAttribute("aria-label", fmt(gettext("%(name)s holds"), { name: playerName(scene, seat) }));
      visible.forEach((code) => row.append(cardElement(code, { small: true })));
      chip.append(row);
    }
    box.append(chip);
  }
}

/* The trick in the middle, each card pushed towards its player. */
export function renderTrick(scene) {
  const area = $("trick");
  area.replaceChildren();
  const angles = seatAngles(scene);
  scene.trick.forEach((played, order) => {
    const { seat, card } = played;
    const rad = (angles[seat] * Math.PI) / 180;
    const slot = cardElement(card, { testid: "trick-card", declared: declaredOf(played) });
    slot.dataset.seat = seat;
    slot.classList.add("in-trick");
    if (scene.trickWinner === seat) slot.classList.add("winner");
    slot.style.setProperty("--dx", (Math.cos(rad) * 0.62).toFixed(3));
    slot.style.setProperty("--dy", (Math.sin(rad) * 0.42).toFixed(3));
    slot.style.zIndex = String(order + 1);
    area.append(slot);
  });
  const lead = $("trick-lead");
  const round = scene.round;
  lead.textContent = round && round.phase === "playing" && !scene.trick.length && scene.to_act !== null
    ? fmt(gettext("%(name)s leads."), { name: playerName(scene, scene.to_act) }) : "";
  const banner = $("trick-banner");
  if (scene.trickWinner !== null && scene.trickWinner !== undefined) {
    banner.hidden = false;
    banner.textContent = fmt(gettext("%(name)s wins the trick"), { name: playerName(scene, scene.trickWinner) });
    banner.classList.remove("bombed");
  } else if (scene.trickBombed) {  // R22
    banner.hidden = false;
    banner.textContent = gettext("Nobody takes the trick: it holds the Bomb");
    banner.classList.add("bombed");
  } else {
    banner.hidden = true;
    banner.textContent = "";
  }
}

export function renderLastTrick(scene, shown) {
  const box = $("last-trick");
  const toggle = $("last-trick-toggle");
  const last = scene.lastTrick;
  toggle.disabled = !last;
  toggle.setAttribute("aria-expanded", String(shown && !!last));
  toggle.textContent = shown && last ? gettext("Hide last trick") : gettext("Last trick");
  box.replaceChildren();
  box.hidden = !(shown && last);
  if (!box.hidden) {
    box.append(el("p", "note", wonBy(scene, last.winner) === null
      ? gettext("Nobody won it (the Bomb):")
      : fmt(gettext("%(name)s won:"), { name: playerName(scene, last.winner) })));
    box.append(trickRow(scene, last));
  }
}

/* What a trick's card was played as: a Juggler's or Cloud's suit (R24), a Shapeshifter's shape. */
export function declaredOf(played) {
  return played.suit || played.as || null;
}

/* A finished trick's winner, or null when nobody took it (R22). */
function wonBy(scene, winner) {
  return winner === null || winner === undefined ? null : winner;
}

/* A finished trick in a row of small cards, each with its player's name; the winner marked. */
function trickRow(scene, trick) {
  const row = el("div", "row");
  trick.cards.forEach((played) => {
    const cell = el("figure", "played" + (trick.winner !== null && played.seat === trick.winner ? " winner" : ""));
    cell.append(cardElement(played.card, { small: true, declared: declaredOf(played) }),
      el("figcaption", null, playerName(scene, played.seat)));
    row.append(cell);
  });
  return row;
}

export function statusText(scene, view) {
  if (view.status === "finished") return gettext("The game is over.");
  if (view.status === "aborted") return gettext("This game was stopped.");
  const round = scene.round;
  if (!round || scene.to_act === null) return "";
  const mine = scene.to_act === scene.you;
  const name = playerName(scene, scene.to_act);
  if (round.phase === "choosing_trump" && round.werewolf !== null && round.werewolf !== undefined) {  // R23
    return mine ? gettext("You laid the Werewolf: choose trump, or no trump.")
      : fmt(gettext("%(name)s laid the Werewolf and is choosing trump."), { name });
  }
  if (round.phase === "choosing_trump" && round.trump_card === "DR") {  // R20
    return mine ? gettext("The Dragon was turned up: choose the trump suit.") : fmt(gettext("%(name)s is choosing the trump suit."), { name });
  }
  if (round.phase === "choosing_trump") return mine ? gettext("A Wizard was turned up: choose the trump suit.") : fmt(gettext("%(name)s is choosing the trump suit."), { name });
  if (round.phase === "passing") {  // R24
    return mine ? gettext("Your turn: choose a card to pass.") : fmt(gettext("%(name)s is choosing a card to pass."), { name });
  }
  if (round.phase === "adjusting") {  // R24
    return mine ? gettext("You won the Cloud: change your bid by one.")
      : fmt(gettext("%(name)s won the Cloud and is changing their bid."), { name });
  }
  if (round.phase === "bidding") return mine ? gettext("Your bid: how many tricks will you win?") : fmt(gettext("%(name)s is bidding."), { name });
  return mine ? gettext("Your turn: play a card.") : fmt(gettext("%(name)s is playing."), { name });
}

export function bidPanel(round, legalBids, onBid) {
  const panel = el("div", "bid-panel");
  const row = el("div", "bids");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", gettext("Bids"));
  let forbidden = null;
  for (let bid = 0; bid <= round.cards; bid++) {
    const button = el("button", null, String(bid));
    button.type = "button";
    button.dataset.bid = bid;
    button.dataset.testid = "bid-button";
    if (legalBids.includes(bid)) {
      button.addEventListener("click", () => onBid(bid));
    } else {
      forbidden = bid;
      button.disabled = true;
      button.title = gettext("Hook rule: not allowed for the dealer");
    }
    row.append(button);
  }
  const balance = bidBalance(round);
  if (balance) panel.append(el("p", "balance", balance));
  panel.append(row);
  if (forbidden !== null) {  // R8: the only bid a legal list can miss is the dealer's hook bid
    panel.append(el("p", "note hook", fmt(
      gettext("Hook rule: as the dealer you may not bid %(bid)s, because the bids would add up to %(cards)s."),
      { bid: forbidden, cards: round.cards })));
  }
  return panel;
}

export function trumpPanel(suits, onSuit) {
  const row = el("div", "bids trumps");
  suits.forEach((suit) => {
    const button = el("button");
    button.type = "button";
    button.dataset.suit = suit;
    button.dataset.testid = suit === "none" ? "trump-none" : "trump-choice";  // "none": R23's no trump
    button.append(suit === "none" ? noTrumpIcon(20) : suitIcon(suit, 20), document.createTextNode(" " + suitText(suit)));
    button.addEventListener("click", () => onSuit(suit));
    row.append(button);
  });
  return row;
}

/* Playing a Juggler or a Cloud (R24): which suit it plays as; a Shapeshifter (R25): a Wizard or
   a Jester. The lead suit and the trump are marked; "Back" keeps the card in hand. */
export function declarePanel(card, round, onDeclare, onCancel) {
  const panel = el("div", "declare-panel");
  panel.dataset.testid = "declare-panel";
  const prompts = {
    JU: () => gettext("Juggler: name its suit. It plays as a 7½ of that suit."),
    CL: () => gettext("Cloud: name its suit. It plays as a 9¾ of that suit."),
    SH: () => gettext("Shapeshifter: play it as a Wizard or as a Jester?"),
  };
  const prompt = el("p", "prompt", prompts[card] ? prompts[card]() : cardLabel(card));
  prompt.id = "declare-prompt";
  const row = el("div", "bids trumps declare");
  row.setAttribute("role", "group");
  row.setAttribute("aria-labelledby", "declare-prompt");
  const choices = card === SHAPESHIFTER ? ["wizard", "jester"] : NAMES_A_SUIT.includes(card) ? ["red", "green", "blue", "yellow"] : [];
  choices.forEach((choice) => {
    const button = el("button");
    button.type = "button";
    button.dataset.declare = choice;
    const shape = choice === "wizard" || choice === "jester";
    button.dataset.testid = shape ? "declare-as-" + choice : "declare-suit-" + choice;
    const name = choice === "wizard" ? wizardName() : choice === "jester" ? jesterName() : suitLabel(choice);
    button.append(shape ? kindIcon(choice, 20) : suitIcon(choice, 20), document.createTextNode(" " + name));
    const marks = [];
    if (!shape && round && round.trump === choice) marks.push(gettext("trump"));
    if (!shape && round && round.trick && round.trick.lead_suit === choice) marks.push(gettext("led"));
    if (marks.length) button.append(" ", el("span", "mark", marks.join(", ")));
    button.addEventListener("click", () => onDeclare(choice));
    row.append(button);
  });
  const back = el("button", "secondary", gettext("Back"));
  back.type = "button";
  back.dataset.testid = "declare-cancel";
  back.addEventListener("click", onCancel);
  row.append(back);
  panel.append(prompt, row);
  return panel;
}

/* After a Juggler's trick (R24): the hand's cards are the choice; this says where the card goes. */
export function passPanel(scene) {
  const panel = el("div", "pass-panel");
  panel.dataset.testid = "pass-panel";
  const left = (scene.you + 1) % scene.seats;
  const right = (scene.you - 1 + scene.seats) % scene.seats;
  panel.append(el("p", "prompt", fmt(
    gettext("Click a card to pass it to %(left)s. You get one from %(right)s once all have chosen."),
    { left: playerName(scene, left), right: playerName(scene, right) })));
  return panel;
}

/* The Cloud's winner (R24): their bid one higher or one lower; −1 is shown but not offered from
   a bid of 0. */
export function adjustPanel(round, seat, deltas, onAdjust) {
  const panel = el("div", "bid-panel adjust-panel");
  panel.dataset.testid = "adjust-panel";
  const bid = round.bids[seat] || 0;
  const won = round.tricks_won[seat];
  panel.append(el("p", "balance", fmt(gettext("Your bid: %(bid)s, won so far: %(won)s."), { bid, won })));
  const row = el("div", "bids");
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", gettext("Change your bid"));
  [[-1, "adjust-minus", "−1", gettext("Lower your bid to %(bid)s")], [1, "adjust-plus", "+1", gettext("Raise your bid to %(bid)s")]]
    .forEach(([delta, testid, sign, label]) => {
      const button = el("button");
      button.type = "button";
      button.dataset.delta = delta;
      button.dataset.testid = testid;
      button.append(el("strong", null, sign), " ", el("span", "after", fmt(gettext("bid %(bid)s"), { bid: bid + delta })));
      button.setAttribute("aria-label", fmt(label, { bid: bid + delta }));
      if (deltas.includes(delta)) button.addEventListener("click", () => onAdjust(delta));
      else {
        button.disabled = true;
        button.title = gettext("A bid of 0 cannot go lower");
      }
      row.append(button);
    });
  panel.append(row);
  return panel;
}

/* The table's special cards (R20) at a glance: each one's symbol and name, its effect on hover. */
export function renderSpecialCards(box, options) {
  if (!box) return;
  const codes = (options || []).flatMap((option) => SPECIAL_OPTIONS[option] || []);
  box.hidden = !codes.length;
  box.replaceChildren();
  if (!codes.length) return;
  box.append(el("span", "label", gettext("special cards:")));
  codes.forEach((code, i) => {
    const item = el("span", "special-card");
    item.title = cardHint(code);
    item.dataset.card = code;
    item.append(kindIcon(cardKind(code), 14), " " + specialName(cardKind(code)) + (i < codes.length - 1 ? "," : ""));
    box.append(" ", item);
  });
}

/* True when `box` already shows what `key` describes: it is left as it is, so a redraw for
   someone else's change (who is online, a clock) does not take away a button while a key on
   it is down. Otherwise `key` is noted for the redraw that follows. */
export function drawnAlready(box, key) {
  const drawn = JSON.stringify(key);
  if (box.dataset.drawn === drawn) return true;
  box.dataset.drawn = drawn;
  return false;
}

/* Your hand, fanned: each card is a button as wide as the strip of it that shows, so a click
   lands on the card you see. */
export function renderHand(scene, { legal, onPlay, chosen = null, received = null }) {
  const hand = $("hand");
  if (drawnAlready(hand, [scene.you, scene.round && scene.round.phase, scene.hand, scene.hiddenCount, legal, chosen, received])) {
    layoutHand();
    return;
  }
  hand.replaceChildren();
  const note = $("hand-note");
  note.textContent = "";
  if (scene.you === null) { note.textContent = gettext("You are watching this table."); return; }
  if (!scene.round || scene.round.phase === "done" && !scene.hand) return;
  const cards = scene.hand === null ? new Array(scene.hiddenCount).fill(null) : scene.hand;
  if (scene.hand === null && cards.length) {  // R9
    note.textContent = gettext("Blind round: you cannot see your own card, only the others'. Bid on what you see; the trick plays itself.");
  }
  // Cards to play, or after a Juggler's trick to pass (R24): chosen the same way.
  const legalCards = legal && (legal.cards || legal.passes) ? legal.cards || legal.passes : null;
  cards.forEach((code) => {
    let card;
    if (code && legalCards) {
      card = cardElement(code, { onClick: onPlay, testid: "hand-card" });
      const playable = legalCards.includes(code);
      card.dataset.legal = String(playable);
      if (playable) card.classList.add("legal");
      else { card.disabled = true; card.title = cardLabel(code) + " — " + gettext("not playable now"); }
      if (chosen !== null) card.setAttribute("aria-pressed", String(code === chosen));
      if (code === chosen) card.classList.add("chosen");
    } else {
      card = cardElement(code, { testid: "hand-card" });
      card.dataset.legal = "false";
    }
    if (received && code === received) card.classList.add("received");
    hand.append(card);
  });
  layoutHand();
}

const MIN_TARGET = 24;  // CSS px

/* Overlap the cards so the whole hand fits its row; two rows when one would crowd them. */
export function layoutHand() {
  const hand = $("hand");
  const cards = [...hand.children];
  if (!cards.length) return;
  const zone = hand.parentElement;
  const style = getComputedStyle(zone);
  const width = zone.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const cardWidth = cards[0].getBoundingClientRect().width || 60;
  const room = width - cardWidth - 2;  // a little slack: sub-pixel widths must not wrap a card
  let perRow = cards.length;
  let step = perRow > 1 ? room / (perRow - 1) : cardWidth;
  // Two rows also where one would leave a card's strip under 24 px, too small a target (WCAG 2.5.8).
  if ((step < cardWidth * 0.42 || step < MIN_TARGET) && cards.length > 8) {
    perRow = Math.ceil(cards.length / 2);
    step = room / Math.max(1, perRow - 1);
  }
  step = Math.floor(Math.min(step, cardWidth + 6) * 10) / 10;
  hand.classList.toggle("two-rows", perRow < cards.length);
  cards.forEach((card, i) => {
    const last = i === cards.length - 1 || (i + 1) % perRow === 0;
    card.style.setProperty("--strip", last ? cardWidth + "px" : step.toFixed(1) + "px");
  });
  hand.style.setProperty("--row-width", Math.ceil((perRow - 1) * step + cardWidth + 1) + "px");
}

export function renderScores(view) {
  const box = $("scores");
  box.replaceChildren();
  if (!view.scores.length) { box.append(el("p", "note", gettext("No round finished yet."))); return; }
  const table = el("table");
  const caption = el("caption", "note", gettext("Each round: points, total, and bid/won. Green: bid made; red: missed."));
  table.append(caption);
  const head = table.createTHead().insertRow();
  head.append(el("th", null, "#"));
  const short = shortNames(view.players);
  view.players.forEach((p, i) => {
    const cell = el("th", null, short[i]);
    // A bot's level under its seat ("Bot 3" / "Medium"), as its seat at the table shows both.
    if (p.is_bot && LEVELS[p.difficulty]) cell.append(el("small", "level", LEVELS[p.difficulty]));
    cell.scope = "col";
    cell.title = displayName(p);
    head.append(cell);
  });
  const body = table.createTBody();
  view.scores.forEach((record) => {
    const row = body.insertRow();
    const label = el("th", null, String(record.round));
    label.scope = "row";
    row.append(label);
    view.players.forEach((p) => {
      const s = p.seat;
      const cell = row.insertCell();
      const made = record.bids[s] === record.tricks[s];
      cell.className = made ? "made" : "missed";
      const points = record.points[s];
      cell.append(
        el("span", "points", (points > 0 ? "+" : "") + points),
        el("span", "total", String(record.totals[s])),
        el("span", "bidwon", record.bids[s] + "/" + record.tricks[s]),
      );
      cell.title = (made ? gettext("made") : gettext("missed")) + ": "
        + fmt(gettext("bid %(bid)s, won %(won)s"), { bid: record.bids[s], won: record.tricks[s] });
    });
  });
  const last = view.scores[view.scores.length - 1];
  const totals = table.createTFoot().insertRow();
  totals.dataset.testid = "score-totals";
  const label = el("th", null, gettext("Total"));
  label.scope = "row";
  totals.append(label);
  view.players.forEach((p) => totals.append(el("td", "total", String(last.totals[p.seat]))));
  box.append(table);
  box.scrollTop = box.scrollHeight;  // the newest round in sight
}

/* R15: equal totals share a place. */
export function placeOf(players, player) {
  return 1 + players.filter((other) => other.score > player.score).length;
}

/* Each player's exact bids and best round over the finished rounds of `scores` (a best round
   is shown only when it scored). */
export function gameStats(scores, seat) {
  const exact = scores.filter((r) => r.bids[seat] === r.tricks[seat]).length;
  const best = scores.reduce((top, r) => (top === null || r.points[seat] > top.points
    ? { round: r.round, points: r.points[seat] } : top), null);
  return { exact, rounds: scores.length, best };
}

/* The end of the game: places, each player's exact bids and best round, and once the league has
   rated the game (`ratings`, from /games/<id>/ratings/) each player's rating change. */
export function renderGameOver(view, ratings) {
  const box = $("gameover");
  if (view.status !== "finished") { box.hidden = true; return; }
  box.hidden = false;
  const list = $("places");
  list.replaceChildren();
  const ranked = [...view.players].sort((a, b) => b.score - a.score);
  ranked.forEach((player) => {
    const place = placeOf(view.players, player);
    const item = el("li", "place-" + Math.min(place, 4));
    item.value = place;
    item.dataset.testid = "final-place";
    item.textContent = fmt(gettext("%(name)s — %(score)s points"), { name: displayName(player), score: player.score });
    if (place === 1) item.append(" ", badge(gettext("winner"), "winner"));
    const stats = gameStats(view.scores, player.seat);
    const line = fmt(gettext("exact bids: %(exact)s of %(rounds)s"), stats);
    const best = stats.best && stats.best.points > 0 ? " · " + fmt(gettext("best round: %(round)s (%(points)s)"),
      { round: stats.best.round, points: (stats.best.points > 0 ? "+" : "") + stats.best.points }) : "";
    item.append(el("span", "stats", line + best));
    const change = ratings && ratings.league ? ratings.changes.find((c) => c.seat === player.seat) : null;
    if (change) {
      const delta = change.after - change.before;
      const rating = el("span", "rating", fmt(gettext("rating %(before)s → %(after)s (%(delta)s)"), {
        before: change.before.toFixed(1), after: change.after.toFixed(1),
        delta: (delta >= 0 ? "+" : "−") + Math.abs(delta).toFixed(1),
      }));
      rating.dataset.testid = "rating-change";
      item.append(rating);
    }
    list.append(item);
  });
  const note = $("league-note");
  note.hidden = !ratings || !ratings.rated;
  if (ratings && ratings.rated) {
    note.textContent = ratings.league ? gettext("A league game: the ratings above have changed.")
      : gettext("Not a league game (bots at the table, or a player seated twice): no rating changed.");
  }
  const me = view.players.find((p) => p.seat === view.you);
  const yours = $("your-place");
  if (me) {
    const place = placeOf(view.players, me);
    yours.textContent = place === 1 ? gettext("You won!")
      : fmt(gettext("You finished in place %(place)s of %(count)s."), { place, count: view.players.length });
  } else {
    yours.textContent = fmt(gettext("Winners: %(names)s"), {
      names: ranked.filter((p) => placeOf(view.players, p) === 1).map(displayName).join(", "),
    });
  }
  $("seed").textContent = view.shuffle_seed || "";
  const rematch = $("rematch-link");
  const start = $("rematch-button");
  if (view.rematch) {
    rematch.href = "/games/" + view.rematch + "/";
    rematch.hidden = false;
    if (start) start.closest("form").hidden = true;  // one button: the rematch exists
  }
}

/* How many watch the table without a seat (an eye and the number; hidden when none). */
export function renderSpectators(box, count) {
  box.hidden = !count;
  if (!count) return;
  const label = fmt(ngettext("%(count)s spectator", "%(count)s spectators", count), { count });
  box.title = label;
  box.setAttribute("aria-label", label);
  box.innerHTML = '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">'
    + '<path d="M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12z" fill="none" stroke="currentColor" stroke-width="2"/>'
    + '<circle cx="12" cy="12" r="3" fill="currentColor"/></svg>';
  box.append(" " + count);
}

/* Who has taken a seat at the rematch (its public view), under its button. */
export function renderRematch(rematch) {
  const box = $("rematch-joined");
  if (!box || !rematch || !rematch.players) return;
  const names = rematch.players.filter((p) => !p.is_bot).map(displayName);
  box.textContent = fmt(ngettext("Joined so far: %(names)s (%(free)s seat free)", "Joined so far: %(names)s (%(free)s seats free)", rematch.free_seats),
    { names: names.join(", "), free: rematch.free_seats });
  box.hidden = false;
}

export function renderWaiting(view) {
  const list = $("waiting-list");
  if (!list) return;
  list.replaceChildren();
  view.players.forEach((player) => {
    const item = el("li", null, player.username);
    if (player.is_bot) item.append(" ", badge(gettext("bot")));
    if (view.you === player.seat) item.append(" ", badge(gettext("you"), "you"));
    list.append(item);
  });
  const free = view.seats - view.players.length;
  $("free-seats").textContent = fmt(ngettext(
    "%(free)s seat is free. The game starts when every seat is taken.",
    "%(free)s seats are free. The game starts when every seat is taken.", free), { free });
}

/* The round summary: the last trick, and each seat's bid, tricks, points and total. */
export function roundSummary(scene, { round, points, totals, lastTrick, blindCard }) {
  const box = $("round-summary");
  box.replaceChildren();
  const title = el("h2", null, fmt(gettext("Round %(n)s scored"), { n: round.number }));
  title.id = "round-summary-title";
  box.append(title);
  if (blindCard) {
    const reveal = el("p", "reveal");
    reveal.append(el("span", null, gettext("Your card was:") + " "), cardElement(blindCard, { small: true }));
    box.append(reveal);
  }
  if (lastTrick) {
    box.append(el("p", "note", wonBy(scene, lastTrick.winner) === null
      ? gettext("Last trick, won by nobody (the Bomb):")
      : fmt(gettext("Last trick, won by %(name)s:"), { name: playerName(scene, lastTrick.winner) })), trickRow(scene, lastTrick));
  }
  const table = el("table");
  const head = table.createTHead().insertRow();
  [gettext("Player"), gettext("Bid"), gettext("Won"), gettext("Points"), gettext("Total")].forEach((t) => head.append(el("th", null, t)));
  const body = table.createTBody();
  for (let seat = 0; seat < scene.seats; seat++) {
    const row = body.insertRow();
    const made = round.bids[seat] === round.tricks_won[seat];
    row.className = made ? "made" : "missed";
    row.append(el("th", null, playerName(scene, seat)));
    [round.bids[seat], round.tricks_won[seat], (points[seat] > 0 ? "+" : "") + points[seat], totals[seat]]
      .forEach((value) => row.insertCell().textContent = String(value));
  }
  box.append(table);
  const go = el("button", "continue", gettext("Continue"));
  go.type = "button";
  go.id = "summary-continue";
  const left = el("span", "note", "");
  left.id = "summary-left";
  const foot = el("p", "actions");
  foot.append(go, " ", left);
  box.append(foot);
  box.hidden = false;
  return go;
}
