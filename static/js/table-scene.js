/* The table's layout: which sections show (the waiting room, or the table), the scene drawn
   (table-view.js: the bar, the seats, the trick; table-panels.js: the hand; table-results.js:
   the scores and the game's end), the turn's countdown, and what is asked beside the game:
   who joined the rematch, who watches and who is away, the ratings once the league has rated
   the game. */
import { gettext, fmt } from "./i18n.js";
import { fetchJSON } from "./net.js";
import {
  noteOfflineFor, renderBar, renderLastTrick, renderRematch, renderSeats, renderSpectators, renderTrick, renderWaiting,
} from "./table-view.js";
import { renderHand } from "./table-panels.js";
import { renderGameOver, renderScores } from "./table-results.js";
import { renderClock } from "./clock.js";
import { idle, moving, nameOf, sceneFromView } from "./table-state.js";

const $ = (id) => document.getElementById(id);

export function startScene(table, { controls, notices, guide, sync }) {
  const root = table.root;
  let warnedDeadline = null;     // the deadline whose last ten seconds were announced
  let overdueSynced = null;      // the deadline past which the server's move was asked for
  let rematchTimer = null;
  let ratings = null;
  let ratingsAsked = 0;

  /* Redrawing replaces the controls: the focused one gets the focus back (keyboard play). */
  function render() {
    const focused = document.activeElement;
    const key = focused && focused.closest && focused.closest("#controls, #hand")
      ? ["card", "bid", "suit", "declare", "delta"].map((k) => focused.dataset[k] !== undefined ? `[data-${k}="${focused.dataset[k]}"]` : "").join("")
      : "";
    drawScene();
    if (key) {
      const again = document.querySelector("#controls " + key + ", #hand " + key);
      if (again && !again.disabled) again.focus({ preventScroll: true });
    }
    // What the page shows, for scripts and tests: the last event played out, and whether it has
    // played out everything it knows with no move of yours on its way.
    root.dataset.seq = String(table.scene.seq);
    root.dataset.settled = String(idle(table) && !moving(table));
  }

  function drawScene() {
    const view = table.view;
    if (view.status === "open") { renderWaiting(view); return; }
    const calm = idle(table);
    const showing = calm ? sceneFromView(table, view) : table.scene;
    if (calm) table.scene = showing;
    renderBar(showing);
    renderSeats(showing, { showTimer: calm && view.status === "active" && !!view.deadline });
    renderTrick(showing);
    renderLastTrick(showing, table.showingLastTrick);
    controls.renderControls(calm);
    const choosing = calm && !moving(table);
    renderHand(showing, {
      legal: choosing ? view.legal : null, onPlay: controls.chooseCard, chosen: choosing ? table.declaring : null,
      received: table.receivedCard,
    });
    if (calm) {  // results show once the events that led to them have been played out
      renderScores(view);
      renderGameOver(view, ratings);
      $("next-steps").hidden = view.status !== "finished" && view.status !== "aborted";
      root.classList.toggle("finished", view.status === "finished");
      followRematch();
      followRatings();
    }
    tick();
    controls.turnEffects(calm);
    if (calm) guide.update(view);
  }

  function showSections() {
    const view = table.view;
    const open = view.status === "open";
    // The special cards' tag (R20) sits with the options that show: the waiting room's, then the table's facts.
    const specials = $("special-cards");
    const home = $(open ? "waiting-tags" : "facts-tags");
    if (specials && home && specials.parentElement !== home) home.append(specials);
    // The chat is the waiting room's until the game starts, then the table's.
    const chatBox = $("chat");
    const chatHome = open ? $("waiting-chat") : $("chat-home");
    if (chatBox && chatHome && chatBox.parentElement !== chatHome) chatHome.append(chatBox);
    $("waiting-room").hidden = !open;
    $("table-layout").hidden = open;
    if ($("watching")) $("watching").hidden = open;
    if (!open && view.status !== "aborted") $("aborted-note").hidden = true;
    if (view.status === "aborted") $("aborted-note").hidden = false;
  }

  /* ---- the countdown -------------------------------------------------------------------- */
  function tick() {
    const view = table.view;
    renderClock($("turn-clock"), view, (seat) => nameOf(table, seat));
    const timer = $("turn-timer");
    if (!timer || !view.deadline || view.status !== "active") return;
    const leftMs = Math.max(0, Date.parse(view.deadline) - Date.now());
    const left = Math.ceil(leftMs / 1000);
    const fraction = Math.min(1, leftMs / (view.turn_seconds * 1000));
    timer.querySelector(".seconds").textContent = left >= 3600 ? Math.floor(left / 3600) + "h" : left >= 120 ? Math.floor(left / 60) + "m" : String(left);
    timer.querySelector(".left").style.strokeDashoffset = String(100 - fraction * 100);
    timer.classList.toggle("low", left <= 10);
    const mine = view.to_act === view.you && view.legal !== null;
    if (mine && left <= 10 && left > 0 && view.turn_seconds > 10 && warnedDeadline !== view.deadline) {
      warnedDeadline = view.deadline;
      notices.announce(gettext("Ten seconds left."));
    }
    timer.setAttribute("aria-label", fmt(gettext("%(seconds)s s left"), { seconds: left }));
    if (left === 0 && overdueSynced !== view.deadline) {  // the server's move is due: fetch it
      overdueSynced = view.deadline;
      setTimeout(sync, 1500);
    }
  }

  /* ---- beside the game ------------------------------------------------------------------ */
  /* Who has joined the rematch: asked when it appears, then every 10 s while it is open. */
  function followRematch() {
    if (!table.view.rematch || rematchTimer !== null) return;
    const ask = async () => {
      const { ok, data } = await fetchJSON("/api/v1/games/" + table.view.rematch + "/").catch(() => ({}));
      if (ok) renderRematch(data);
      rematchTimer = ok && data.status !== "open" ? -1 : setTimeout(ask, 10000);
    };
    rematchTimer = 0;
    ask();
  }

  /* Whether each person seated has the site open, as the presence poll says; not for your own
     seat, which this page holds open (an answer asked before its socket counted is late). */
  function noteOffline(seats) {
    [table.view.players, table.scene.players].forEach((players) => players.forEach((p) => {
      if (!p.is_bot && p.seat !== table.view.you) p.online = !seats.includes(p.seat);
    }));
  }

  /* How many watch without a seat, and how long offline players have been away: asked now and
     every 15 s while the game has not ended. */
  function followPresence() {
    const box = $("spectators");
    const ask = async () => {
      const view = table.view;
      if (view.status === "finished" || view.status === "aborted") { box.hidden = true; return; }
      const { ok, data } = await fetchJSON(box.dataset.url).catch(() => ({}));
      if (ok) {
        renderSpectators(box, data.spectators);
        noteOfflineFor(data.offline_for);
        noteOffline(data.offline || []);
        if (table.view.status !== "open") {
          const calm = idle(table);
          renderSeats(calm ? sceneFromView(table, table.view) : table.scene,
            { showTimer: calm && table.view.status === "active" && !!table.view.deadline });
          tick();
        }
      }
      setTimeout(ask, 15000);
    };
    ask();
  }

  /* The rating changes, once the league has rated the finished game (a task after its end):
     asked every 2 s until it has, for a minute at most. */
  function followRatings() {
    const view = table.view;
    if (view.status !== "finished" || ratingsAsked) return;
    const ask = async () => {
      ratingsAsked += 1;
      const { ok, data } = await fetchJSON("/games/" + view.id + "/ratings/").catch(() => ({}));
      if (ok && data.rated) {
        ratings = data;
        if (idle(table)) renderGameOver(table.view, ratings);
      } else if (ratingsAsked < 30) {
        setTimeout(ask, 2000);
      }
    };
    ask();
  }

  return { render, showSections, tick, followPresence };
}
