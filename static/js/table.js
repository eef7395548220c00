/* The live table. The server pushes the player's own view and the event rows each change
   appended (API.md "WebSocket"); the page plays those events out one by one and then shows the
   latest view, and sends the player's moves over the same socket. The page never holds a card
   its player may not see: the server sends only this player's share.

   This module wires the table's parts, each handed the one table state (table-state.js):
   table-moves.js     the socket and the player's moves
   table-queue.js     the views received and the queue of their events
   table-events.js    each event played out (table-motion.js: its motion)
   table-scene.js     the layout and the countdown, drawn by table-view.js (the ring),
                      table-panels.js (the controls, the hand), table-results.js (the scores)
   table-controls.js  the turn's choices and buttons
   table-notices.js   what the table says: the live region, notices, errors, the connection
   table-settings.js  the pace, large cards and sound */
import { gettext } from "./i18n.js";
import { fetchJSON } from "./net.js";
import { startChat } from "./chat.js";
import { renderSpecialCards } from "./table-view.js";
import { layoutHand } from "./table-panels.js";
import { startResign } from "./resign.js";
import { startGuide } from "./guide.js";
import { createTable, idle, moving } from "./table-state.js";
import { startNotices } from "./table-notices.js";
import { startEvents } from "./table-events.js";
import { startQueue } from "./table-queue.js";
import { startScene } from "./table-scene.js";
import { startControls } from "./table-controls.js";
import { startMoves } from "./table-moves.js";
import { startSettings } from "./table-settings.js";

const root = document.getElementById("table");
const $ = (id) => document.getElementById(id);

if (root) startTable();

function startTable() {
  const table = createTable(root);
  const notices = startNotices(table);
  // The parts call each other only once the page runs, so each may name one made after it.
  const render = () => scene.render();
  const receive = (view, events) => queue.receive(view, events);
  const controls = startControls(table, {
    send: (move) => moves.send(move), render, receive: (view) => receive(view, null), notices,
  });
  const scene = startScene(table, { controls, notices, guide: startGuide(), sync: () => moves.sync() });
  const events = startEvents(table, { render, notices });
  const queue = startQueue(table, {
    render, playOut: events.playOut, showSections: scene.showSections, notices,
    socketOpen: () => moves.isOpen(), sync: () => moves.sync(),
  });
  let chat = null;
  const moves = startMoves(table, { receive, render, notices, onOther: (message) => chat && chat.handle(message) });
  startSettings(table, { render });
  startResign({
    api: table.api,
    onDone(data) { receive(data, null); },
    onError(code, message) { notices.showError(notices.errorText(code, message)); },
  });
  startPageLinks(table, notices);

  chat = startChat(notices.announce);
  renderSpecialCards($("special-cards"), table.view.special_cards);
  scene.showSections();
  render();
  scene.followPresence();
  setInterval(scene.tick, 250);

  // For scripts and tests: the view, the scene, and where the page is with them.
  window.WizardTable = {
    get view() { return table.view; },
    get scene() { return table.scene; },
    get busy() { return !idle(table) || moving(table); },
    get progress() {
      const move = table.move;
      return {
        running: table.running, queued: table.queue.map((e) => e.seq + ":" + e.type), fetching: table.fetching,
        sending: move !== null && !move.lost, unsent: move && move.lost ? move.body : null,
        move: move && { ...move.body, ids: [...move.ids] }, known: table.known, shown: table.scene.seq,
      };
    },
    sendMove: (body) => moves.send(body),
  };
}

/* The page's links and forms around the table: the invitation's copy and share buttons, the
   rematch, and forms that leave the page. */
function startPageLinks(table, notices) {
  document.querySelectorAll("[data-copy]").forEach((button) => button.addEventListener("click", () => {
    const input = $(button.dataset.copy);
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    button.textContent = gettext("Copied");
  }));
  // The phone's own share sheet, where the browser offers one.
  document.querySelectorAll("[data-share]").forEach((button) => {
    if (!navigator.share) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.share({ title: document.title, url: $(button.dataset.share).value }).catch(() => {});
    });
  });
  window.addEventListener("resize", () => layoutHand());
  document.addEventListener("submit", (event) => {
    if (event.target.method === "post" && event.target.id !== "chat-form") table.leaving = true;
  });
  const header = document.querySelector("header.site");
  const measure = () => document.documentElement.style.setProperty("--header-h", header.offsetHeight + "px");
  if (header) { measure(); new ResizeObserver(measure).observe(header); }

  // "Join the rematch": a player of this game takes a seat at once and opens it; a refusal
  // (a block, the table full) says why under the button.
  $("rematch-link").addEventListener("click", async (event) => {
    const view = table.view;
    if (view.you === null || !view.rematch) return;  // a spectator just opens the table
    event.preventDefault();
    const { ok, data } = await fetchJSON(`/api/v1/games/${view.rematch}/join/`, { method: "POST", body: {} });
    if (ok) { table.leaving = true; window.location.assign(`/games/${view.rematch}/`); return; }
    const box = $("rematch-joined");
    box.textContent = notices.errorText(data.error && data.error.code, data.error && data.error.message);
    box.hidden = false;
  });
}
