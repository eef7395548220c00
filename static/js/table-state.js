/* The live table's state: one object the table's modules are handed and share. `view` is the
   game as the server sent it last; `scene` is what the screen shows, behind the view while
   the events that led to it play out (`queue`); `known` is the last event shown or queued;
   `move` is the player's move on its way (table-moves.js). Nothing else is shared. */
import { playerName } from "./table-view.js";

const $ = (id) => document.getElementById(id);

/* Animation timings in ms, the player's own choice, remembered in this browser. "instant" moves
   nothing and waits for nothing: a trick won stays on the table until the next card is played,
   and a round's summary until the player continues. */
export const PACES = {
  normal: { play: 420, ownPlay: 260, bid: 380, trump: 500, deal: 450, hold: 1600, sweep: 420, summary: 7000 },
  fast: { play: 100, ownPlay: 60, bid: 80, trump: 120, deal: 100, hold: 600, sweep: 200, summary: 2500 },
  instant: { play: 0, ownPlay: 0, bid: 0, trump: 0, deal: 0, hold: 0, sweep: 0, summary: 0 },
};
export const paceNamed = (name) => (Object.hasOwn(PACES, name) ? name : "normal");

function readPace() {
  try { return paceNamed(localStorage.getItem("wizard.pace")); } catch (e) { return "normal"; }
}

/* The table of this page, from the view and the error texts the page was rendered with. */
export function createTable(root) {
  const view = JSON.parse($("initial-view").textContent);
  const table = {
    root,
    api: root.dataset.api,
    texts: JSON.parse($("error-texts").textContent),
    view,
    initialYou: view.you,
    baseTitle: document.title,
    paceName: readPace(),
    scene: null,
    known: view.seq,          // every event up to this seq is shown or queued
    queue: [],                // events received and not yet played out
    running: false,           // the queue is being played out
    fetching: false,          // missing events are being fetched
    catchingUp: false,        // a backlog shown without animation: not read out either
    move: null,               // the player's move on its way: no other is sent meanwhile
    declaring: null,          // a Juggler, Cloud or Shapeshifter clicked: what it plays as is asked (R24, R25)
    receivedCard: null,       // the card passed to you after a Juggler's trick (R24), marked in your hand
    showingLastTrick: false,
    leaving: false,           // a join, leave or rematch form is on its way: the next page shows it
    get pace() { return PACES[this.paceName]; },
  };
  table.scene = sceneFromView(table, view);
  return table;
}

/* Everything the page knows is played out: the screen shows the view. */
export const idle = (table) => !table.running && table.queue.length === 0 && !table.fetching && table.known >= table.view.seq;
export const moving = (table) => table.move !== null;
export const nameOf = (table, seat) => playerName(table.scene, seat);

/* The player may decide now (on a `calm` page: its events played out). */
export function isMyTurn(table, calm) {
  const view = table.view;
  return calm && view.status === "active" && view.legal !== null && view.to_act === view.you;
}

/* ---- the scene: what the screen shows ------------------------------------------------- */
export function sceneFromView(table, v) {
  const round = v.round;
  const lastTrick = round && round.last_trick ? round.last_trick : null;
  const held = table.paceName === "instant" && round && round.phase === "playing" && !round.trick.cards.length && lastTrick;
  if (held) return { ...sceneOf(v, round, lastTrick), ...heldTrick(lastTrick) };
  return sceneOf(v, round, lastTrick);
}

/* A won trick left on the table (the instant pace): its cards, who took it. */
function heldTrick(last) {
  const bombed = last.winner === null || last.winner === undefined;
  return { trick: last.cards.map((c) => ({ ...c })), trickWinner: bombed ? null : last.winner, trickBombed: bombed };
}

function sceneOf(v, round, lastTrick) {
  return {
    seq: v.seq,
    seats: v.seats,
    roundNumbers: v.round_numbers,
    you: v.you,
    players: v.players.map((p) => ({ ...p })),
    round: round && {
      number: round.number, cards: round.cards, dealer: round.dealer, trump_card: round.trump_card,
      trump: round.trump, phase: round.phase, bids: [...round.bids], tricks_won: [...round.tricks_won],
      werewolf: round.werewolf === undefined ? null : round.werewolf,
    },
    trick: round ? round.trick.cards.map((c) => ({ ...c })) : [],
    trickWinner: null,
    trickBombed: false,
    lastTrick,
    hand: v.hand ? [...v.hand] : null,
    hiddenCount: v.hand === null && round && round.phase !== "done" ? round.cards - round.tricks_won.reduce((a, b) => a + b, 0) : 0,
    visible_hands: v.visible_hands || {},
    to_act: v.status === "active" ? v.to_act : null,
  };
}
