/* The player's controls: the turn's choices (bids, trump, a card to play or pass, a Cloud's
   change), what a Juggler, Cloud or Shapeshifter plays as, "I'm back" and "Sit out", the keys
   that move between them, and what your turn does to the page (its title, the focus, a chime). */
import { gettext, ngettext, fmt } from "./i18n.js";
import { fetchJSON } from "./net.js";
import { NAMES_A_SUIT, SHAPESHIFTER, suitText } from "./cards.js";
import * as sound from "./sound.js";
import { drawnAlready, statusText } from "./table-view.js";
import { adjustPanel, bidPanel, declarePanel, passPanel, trumpPanel } from "./table-panels.js";
import { isMyTurn, moving } from "./table-state.js";

const $ = (id) => document.getElementById(id);
// Keyboard play (the rules page lists these keys): the arrow keys move between the cards of
// your hand or the bid buttons, Home and End to the first and the last; Enter or Space plays.
const STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

/* `send(move)` sends a move body; `receive(view)` takes a REST answer's view. */
export function startControls(table, { send, render, receive, notices }) {
  let turnShown = null;          // the seq at which your turn was last announced
  let turnFocused = null;        // the seq at which its controls last got the focus

  function renderControls(calm) {
    const view = table.view;
    const controls = $("controls");
    const myTurn = isMyTurn(table, calm);
    $("status-line").textContent = calm ? statusText(table.scene, view) : "";
    const banner = $("your-turn");
    banner.hidden = !myTurn;
    if (myTurn) banner.textContent = gettext("Your turn");
    const me = view.players.find((p) => p.seat === view.you);
    const resign = $("resign");
    if (resign) resign.hidden = !(view.status === "active" && me && !me.resigned);
    const seated = calm && view.status === "active" && me && !me.resigned;
    const away = seated && me.away;
    const choosing = myTurn && !moving(table);
    if (drawnAlready(controls, [choosing, seated, away, view.seq, table.scene.seq, table.declaring])) return;
    controls.replaceChildren();
    // R18: say you are back (first: it is what an away player came for), or sit out (last:
    // after your turn's choices, never the one your turn focuses).
    if (away) controls.append(standingButton("back", gettext("I'm back"), ""));
    if (choosing) renderChoices(controls);
    if (seated && !away) controls.append(standingButton("sit-out", gettext("Sit out"), "secondary"));
  }

  function renderChoices(controls) {
    const { legal, round, you } = table.view;
    if (legal.bids) controls.append(bidPanel(round, legal.bids, (bid) => send({ type: "bid", bid })));
    if (legal.suits) controls.append(trumpPanel(legal.suits, (suit) => send({ type: "trump", suit })));
    if (legal.cards && table.declaring && legal.cards.includes(table.declaring)) {
      controls.append(declarePanel(table.declaring, round, declare, cancelDeclare));
    }
    if (legal.passes) controls.append(passPanel(table.scene));
    if (legal.adjust) controls.append(adjustPanel(round, you, legal.adjust, (delta) => send({ type: "adjust", delta })));
  }

  /* "I'm back" or "Sit out" (R18): over REST, so it works while the socket reconnects; the
     answer is the new view. */
  function standingButton(action, label, className) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = action + "-button";
    button.className = className;
    button.dataset.testid = action;
    button.textContent = label;
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const { ok, data } = await fetchJSON(table.api + action + "/", { method: "POST" });
        if (ok && action === "back") notices.hideAutoNotice();  // no longer true
        if (ok) receive(data);
        else notices.showError(notices.errorText(data.error ? data.error.code : "invalid", data.error && data.error.message));
      } catch (error) {
        notices.showError(gettext("Connection problem: try again."));
      }
      button.disabled = false;
    });
    return button;
  }

  /* A card of your hand clicked: passed after a Juggler's trick (R24); a Juggler, Cloud or
     Shapeshifter first asks what it plays as (R24, R25); any other card is played. */
  function chooseCard(card) {
    if (table.view.legal && table.view.legal.passes) { table.declaring = null; send({ type: "pass", card }); return; }
    if (NAMES_A_SUIT.includes(card) || card === SHAPESHIFTER) {
      table.declaring = card;
      render();
      const first = document.querySelector("#controls [data-declare]");
      if (first) first.focus({ preventScroll: true });
      return;
    }
    table.declaring = null;
    send({ type: "play", card });
  }

  function declare(choice) {
    const card = table.declaring;
    table.declaring = null;
    if (!card) return;
    send(card === SHAPESHIFTER ? { type: "play", card, as: choice } : { type: "play", card, suit: choice });
  }

  function cancelDeclare() {
    const card = table.declaring;
    table.declaring = null;
    render();
    const again = card && document.querySelector('#hand [data-card="' + card + '"]');
    if (again) again.focus({ preventScroll: true });
  }

  /* ---- your turn ------------------------------------------------------------------------ */
  function turnEffects(calm) {
    const view = table.view;
    const myTurn = isMyTurn(table, calm);
    document.title = myTurn ? "● " + gettext("Your turn") + " · " + table.baseTitle : table.baseTitle;
    table.root.classList.toggle("my-turn", myTurn);
    if (!myTurn) { turnShown = turnFocused = null; return; }
    // Each decision of yours is a new turn, also one right after your own move (a bid, then
    // the lead): its seq tells them apart.
    if (turnShown !== view.seq) {
      turnShown = view.seq;
      notices.announce(yourTurnText(view.legal));
      sound.yourTurnChime();
      bringTableIntoView();
    }
    // The controls come once your previous move's answer is in: the focus waits for them.
    if (turnFocused !== view.seq && !moving(table) && focusFirstControl()) turnFocused = view.seq;
  }

  /* What a screen reader says when your turn starts: what you may do now. */
  function yourTurnText(legal) {
    if (legal.bids) return fmt(gettext("Your turn: bid %(bids)s."), { bids: legal.bids.join(", ") });
    if (legal.suits) return fmt(gettext("Your turn: choose trump: %(suits)s."), { suits: legal.suits.map(suitText).join(", ") });
    if (legal.passes) return gettext("Your turn: choose a card to pass.");
    if (legal.adjust) {
      return fmt(gettext("Your turn: change your bid by %(deltas)s."), {
        deltas: legal.adjust.map((d) => (d > 0 ? "+" : "−") + Math.abs(d)).join(", "),
      });
    }
    const n = legal.cards ? legal.cards.length : 0;
    return fmt(ngettext("Your turn: play a card; %(n)s card may be played.", "Your turn: play a card; %(n)s cards may be played.", n), { n });
  }

  /* Your turn: the whole table comes back on screen if the page was scrolled away from it. */
  function bringTableIntoView() {
    const box = $("arena").getBoundingClientRect();
    if (box.top < -1 || box.bottom > window.innerHeight + 1) window.scrollTo({ top: 0, behavior: "instant" });
  }

  /* The first choice of your turn gets the focus (not while you type in the chat): true once
     done, or left to you. */
  function focusFirstControl() {
    const active = document.activeElement;
    if (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA" || active.tagName === "SELECT")) return true;
    const target = document.querySelector('#controls button:not([disabled]):not([data-testid="sit-out"]), #hand button.legal');
    if (!target) return false;
    target.focus({ preventScroll: true });
    // Zoomed in (200 %) the hand can sit below the screen: the focused card comes into view.
    const box = target.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) target.scrollIntoView({ block: "nearest", behavior: "instant" });
    return true;
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && table.declaring) { cancelDeclare(); event.preventDefault(); return; }
    const step = STEPS[event.key];
    if (step === undefined && event.key !== "Home" && event.key !== "End") return;
    const row = event.target.closest && event.target.closest("#hand, #controls");
    if (!row) return;
    const buttons = [...row.querySelectorAll("button:not(:disabled)")];
    const at = buttons.indexOf(event.target);
    if (at < 0) return;
    const to = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1
      : (at + step + buttons.length) % buttons.length;
    buttons[to].focus({ preventScroll: true });
    event.preventDefault();
  });

  return { renderControls, chooseCard, turnEffects };
}
