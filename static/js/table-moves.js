/* The table's socket and the player's moves. As on lichess's round, the page that holds a
   socket sends its moves over it (API.md "WebSocket"): each with a client id, which the server
   echoes on the first `state` that includes the move, or on the `error` that refuses it. REST
   is the way only while the socket is down. One move at a time: a second click sends nothing.

   Pushes arrive at most once, so no move waits for its echo for ever: a `sync` is asked after
   a few seconds, and any view past the move's seq settles it. A move whose answer never came
   (the socket closed first, the network failed, a server restarting said 502-504) is sent
   again, with the same seq, once the socket or REST is back: if the first try did arrive the
   game is past that seq and the copy is refused as stale_state, silently; never applied twice. */
import { gettext } from "./i18n.js";
import { fetchJSON, LiveSocket } from "./net.js";

// A REST answer with one of these statuses never came from the game (a proxy, a server down
// or restarting, PostgreSQL unreachable: 503 `unavailable`): the move is sent again.
const RETRY_STATUSES = [502, 503, 504];
// What refuses a copy whose first try arrived (or a turn the timer made meanwhile).
const OVERTAKEN = ["stale_state", "not_your_turn"];
const ECHO_WAIT_MS = 3000;     // then a sync is asked; as long again, and the move goes over REST
const SYNC_EVERY_MS = 20000;

/* `receive(view, events)` takes each view (events null: a REST answer); `onOther(message)` the
   socket's other messages (chat). */
export function startMoves(table, { receive, render, notices, onOther }) {
  let lastId = 0;
  let lastMove = null;           // the move settled last: a refusal of it may still come
  const nextId = (kind) => kind + String(++lastId);
  const socket = new LiveSocket(table.root.dataset.ws, {
    onMessage,
    onStatus(up) {
      notices.setConnection(up);
      if (up) resend();
      else lose();
    },
    onStop: notices.showStopped,
    poll,
  });
  setInterval(() => { if (socket.isOpen) sync(); }, SYNC_EVERY_MS);

  /* A move of the player (a REST move body), chosen in the view they see. */
  function send(body) {
    if (table.move) return;  // one move at a time: a second click must not send a second move
    table.move = {
      body: { ...body, seq: table.view.seq },
      ids: [],                 // the ids it went over the socket with
      tries: 0,
      onSocket: false,         // a try on the socket awaits its echo
      posting: false,          // a try over REST awaits its answer
      lost: false,             // a try's answer never came: it is sent again
      syncId: null,            // the sync asked when no echo came
      timer: null,
    };
    notices.showError("");
    render();
    if (socket.isOpen) viaSocket(table.move);
    else viaRest(table.move);
  }

  function viaSocket(move) {
    const id = nextId("m");
    move.ids.push(id);
    move.tries += 1;
    move.onSocket = true;
    move.lost = false;
    move.syncId = null;
    socket.send({ ...move.body, id });
    awaitEcho(move);
  }

  function awaitEcho(move) {
    clearTimeout(move.timer);
    move.timer = setTimeout(() => noEcho(move), ECHO_WAIT_MS);
  }

  /* No echo yet: ask for the view; if that does not come either, the socket is as good as
     lost and the move goes over REST. */
  function noEcho(move) {
    if (table.move !== move || !move.onSocket) return;
    if (move.syncId === null) {
      move.syncId = sync();
      awaitEcho(move);
      return;
    }
    viaRest(move);
  }

  async function viaRest(move) {
    clearTimeout(move.timer);
    move.onSocket = false;
    move.posting = true;
    move.tries += 1;
    let answer = null;
    try {
      answer = await fetchJSON(table.api + "moves/", { method: "POST", body: move.body });
    } catch (error) { /* no answer: below */ }
    move.posting = false;
    if (table.move !== move) {  // settled meanwhile (an echo, or a refusal of its socket try)
      if (answer && answer.ok) receive(answer.data, null);
      return;
    }
    if (answer === null || RETRY_STATUSES.includes(answer.status)) {
      move.lost = true;
      notices.showError(gettext("Connection problem: your move will be sent again when the connection is back."));
      render();
      return;
    }
    const { ok, data } = answer;
    if (ok) {
      // The push with the events comes with the answer or just after; the answer covers a lost one.
      receive(data, null);
      settle(move);
      notices.showError("");
      render();
      return;
    }
    settle(move);
    refused(move, data.error ? data.error.code : "invalid", data.error && data.error.message);
  }

  function settle(move) {
    clearTimeout(move.timer);
    if (table.move === move) table.move = null;
    lastMove = move;
  }

  /* A refusal: said (but not of a copy whose first try arrived), and the page asks for the
     view the server has, so that it shows what the move was refused against. */
  function refused(move, code, message) {
    const overtaken = move.tries > 1 && OVERTAKEN.includes(code);
    notices.showError(overtaken ? "" : notices.errorText(code, message));
    sync();
    render();
  }

  function onMessage(message) {
    if (message.type === "state") {
      receive(message.state, message.events || []);
      const move = table.move;
      if (move && move.onSocket && echoes(move, message)) { settle(move); render(); }
    } else if (message.type === "error") {
      const move = [table.move, lastMove].find((m) => m && message.id !== undefined && m.ids.includes(message.id));
      if (!move) { notices.showError(notices.errorText(message.error.code, message.error.message)); return; }
      settle(move);
      refused(move, message.error.code, message.error.message);
    } else {
      onOther(message);
    }
  }

  /* A state settles the move on the socket when it carries its id, when it is past the move's
     seq (its echo was lost; a refusal, if any, still says so), or when it answers the sync asked
     after the move (the socket takes messages in order: the move was dealt with before it). */
  function echoes(move, message) {
    const id = message.id;
    return (id !== undefined && (move.ids.includes(id) || id === move.syncId))
      || (message.state && message.state.seq > move.body.seq);
  }

  /* The socket closed with a move's echo still to come: it is sent again once it is back. */
  function lose() {
    const move = table.move;
    if (!move || !move.onSocket) return;
    clearTimeout(move.timer);
    move.onSocket = false;
    move.lost = true;
    notices.showError(gettext("Connection problem: your move will be sent again when the connection is back."));
    render();
  }

  function resend() {
    const move = table.move;
    if (!move || !move.lost || move.posting) return;
    if (socket.isOpen) viaSocket(move);
    else viaRest(move);
  }

  /* While the socket is down: the view over REST (its events follow from /events/). */
  function poll() {
    resend();
    fetchJSON(table.api).then(({ ok, data }) => ok && receive(data, null)).catch(() => {});
  }

  /* The server's view of the game, over the socket (its id, which the answer carries), else
     over REST (null). */
  function sync() {
    const id = nextId("s");
    if (socket.send({ type: "sync", id })) return id;
    fetchJSON(table.api).then(({ ok, data }) => ok && receive(data, null)).catch(() => {});
    return null;
  }

  return { send, sync, isOpen: () => socket.isOpen };
}
