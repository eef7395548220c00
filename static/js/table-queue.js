/* The views the page receives and the queue of the events that led to them, played out one by
   one (table-events.js) before the latest view shows. A view whose events do not follow on
   from what the page has (a push lost on the way: delivery is at most once; a REST answer,
   which carries none) has its missing rows fetched from /events/, since each play must still
   be seen; after a lost push the socket is also asked `sync`. */
import { fetchAll } from "./net.js";
import { renderWaiting } from "./table-view.js";
import { sceneFromView } from "./table-state.js";

// A longer backlog (a tab in the background, a reconnect) is caught up without animation.
const QUICK_BACKLOG = 40;

export function startQueue(table, { render, playOut, showSections, notices, socketOpen, sync }) {
  /* A view and the events that led to it (null: a REST answer). Events that follow on from
     what the page has are queued at once; a gap is filled from /events/ — after a REST answer
     while the socket is open, the push usually brings them a moment later. */
  function receive(next, events) {
    if (table.leaving) return;  // a join, leave or rematch form is on its way: the next page will show it
    const view = table.view;
    if (!next || next.seq < view.seq) return;  // an older view arrived late: keep the newer one
    if (next.you !== table.initialYou) { location.reload(); return; }  // you took or left a seat elsewhere
    const same = JSON.stringify(next) === JSON.stringify(view);
    notices.announceAway(view.players, next.players);
    if (next.seq !== view.seq) table.declaring = null;  // the turn moved on (a timer, a push): ask again
    table.view = next;
    if (view.status !== next.status) showSections();
    if (next.status === "open") { renderWaiting(next); return; }
    // Who sits where is not animated: a player who just took a seat is named at once, also
    // while the events that follow (the deal) still play out.
    // Nor is whether a player has the site open: it shows at once, also during a round's summary.
    next.players.forEach((p) => {
      const shown = table.scene.players.find((q) => q.seat === p.seat);
      if (!shown) table.scene.players.push({ ...p });
      else shown.online = p.online;
    });
    const fresh = (events || []).filter((e) => e.seq > table.known);
    if (fresh.length && fresh[0].seq === table.known + 1) {
      fresh.forEach((e) => { table.queue.push(e); table.known = e.seq; });
    }
    if (table.known >= next.seq) {
      if (table.queue.length) pump();
      else if (!same) render();  // an unchanged view leaves the controls as they are
      return;
    }
    render();  // behind the view: no controls until its events are in
    // A push lost on the way (the API's rule: `sync` on a gap in seq): the socket is asked where
    // the table stands now, while /events/ brings the rows to play out.
    if (events !== null && !table.fetching && socketOpen()) sync();
    if (events === null && socketOpen()) setTimeout(fillGap, 1000);
    else fillGap();
  }

  async function fillGap() {
    if (table.fetching || table.known >= table.view.seq) return;
    table.fetching = true;
    try {
      const rows = await fetchAll(table.api + "events/?page_size=500&after=" + table.known);
      rows.filter((e) => e.seq > table.known).forEach((e) => { table.queue.push(e); table.known = e.seq; });
    } catch (error) {
      /* the view below is still right; only its animation is lost */
    } finally {
      table.known = Math.max(table.known, table.view.seq);
      table.fetching = false;
      pump();
    }
  }

  async function pump() {
    if (table.running) return;
    if (!table.queue.length) { render(); return; }
    table.running = true;
    render();
    try {
      while (table.queue.length) {
        const event = table.queue.shift();
        const quick = document.hidden || table.queue.length > QUICK_BACKLOG;
        table.catchingUp = quick;
        await playOut(event, quick);
      }
    } finally {
      table.running = false;
      table.catchingUp = false;
      table.scene = sceneFromView(table, table.view);
      render();
    }
  }

  return { receive };
}
