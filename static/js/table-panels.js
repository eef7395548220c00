/* Drawing the player's controls: the bid buttons, the trump choice, what a Juggler, Cloud or
   Shapeshifter plays as, the pass and the Cloud's change, and the hand, fanned to fit its row.
   Each control calls back with the choice; nothing here sends it. */
import { gettext, fmt } from "./i18n.js";
import {
  NAMES_A_SUIT, SHAPESHIFTER, cardElement, cardLabel, jesterName, kindIcon, noTrumpIcon, suitIcon, suitLabel,
  suitText, wizardName,
} from "./cards.js";
import { bidBalance, drawnAlready, el, playerName } from "./table-view.js";

const $ = (id) => document.getElementById(id);

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

