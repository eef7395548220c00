/* Drawing the table from a scene (what the screen shows now: the latest game view, or a step of
   the events being played out): the bar, the seats around the oval, the trick, the status
   line, the waiting room, who watches. table-panels.js draws the player's controls and hand,
   table-results.js the scores and the ends of rounds and games. No rules here: legal moves and
   results come from the server. */
import { gettext, ngettext, fmt } from "./i18n.js";
import { SPECIAL_OPTIONS, cardElement, cardHint, cardKind, kindIcon, specialName, suitBadge } from "./cards.js";

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

export const LEVELS = { easy: gettext("Easy"), medium: gettext("Medium"), hard: gettext("Hard") };

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

export function badge(text, extra) {
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
export function wonBy(scene, winner) {
  return winner === null || winner === undefined ? null : winner;
}

/* A finished trick in a row of small cards, each with its player's name; the winner marked. */
export function trickRow(scene, trick) {
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
