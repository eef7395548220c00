/* The player's own socket (ws/me/) on every page: the header's count of games awaiting their
   move, fetched again whenever a turn becomes theirs anywhere or their list of games changes
   (API.md "Your turns everywhere"); a friend's invitation shown as a toast with a join
   button (API.md "Friends, invitations and who may watch"); the header's count of unread
   notices; and a tournament's new table, which takes the player there after a countdown they
   see (or at once with "Go now"), unless they are playing a game on this page. */
import { fetchJSON, LiveSocket } from "./net.js";
import { fmt, gettext, ngettext } from "./i18n.js";

const badge = document.getElementById("my-turns");

async function refresh() {
  const { ok, data } = await fetchJSON("/api/v1/games/?mine=true&my_turn=true&page_size=1");
  if (!ok) return;
  const count = data.count;
  badge.hidden = count === 0;
  // On a phone the header shows the count alone; the sentence stays for screen readers.
  const long = document.createElement("span");
  long.className = "long";
  long.textContent = fmt(ngettext("%(count)s game awaits your move", "%(count)s games await your move", count), { count });
  const short = document.createElement("span");
  short.className = "short";
  short.setAttribute("aria-hidden", "true");
  short.textContent = String(count);
  badge.replaceChildren(long, short);
}

function toasts() {
  let box = document.getElementById("toasts");
  if (!box) {
    box = document.createElement("div");
    box.id = "toasts";
    box.className = "toasts";
    box.setAttribute("aria-live", "polite");
    document.body.append(box);
  }
  return box;
}

function refusal(error) {
  const code = error && error.code;
  if (code === "blocked") return gettext("You cannot join a table where a player you blocked, or who blocked you, sits.");
  if (code === "reliability_too_low") return gettext("This table asks for a higher reliability than yours.");
  if (code === "too_many_open_tables") return gettext("You have many open tables already: start or leave one first.");
  return gettext("Could not join the table.");
}

function showInvite({ game, from }) {
  const box = toasts();
  box.querySelector(`[data-game="${game}"]`)?.remove();  // invited again: one toast a table
  const toast = document.createElement("div");
  toast.className = "toast";
  toast.dataset.game = game;
  toast.dataset.testid = "invite-toast";
  toast.setAttribute("role", "status");
  const text = document.createElement("p");
  text.textContent = fmt(gettext("%(name)s invites you to table %(id)s."), { name: from, id: game });
  const error = document.createElement("p");
  error.className = "small error-line";
  const join = document.createElement("button");
  join.type = "button";
  join.textContent = gettext("Join");
  join.dataset.testid = "invite-toast-join";
  join.addEventListener("click", async () => {
    join.disabled = true;
    const { ok, data } = await fetchJSON(`/api/v1/games/${game}/join/`, { method: "POST", body: {} });
    // A table that started already can still be watched: its page says what is possible.
    if (ok || (data.error && data.error.code === "game_full")) window.location.assign(`/games/${game}/`);
    else { error.textContent = refusal(data.error); join.disabled = false; }
  });
  const dismiss = document.createElement("button");
  dismiss.type = "button";
  dismiss.className = "secondary";
  dismiss.textContent = gettext("Not now");
  dismiss.dataset.testid = "invite-toast-dismiss";
  dismiss.addEventListener("click", () => toast.remove());
  toast.append(text, join, dismiss, error);
  box.append(toast);
}

const NEXT_TABLE_SECONDS = 8;
const FRESH_MS = 10 * 60 * 1000;  // an older table notice is for the notices page only
const noticesCount = document.getElementById("notices-count");
const noticesLink = document.getElementById("notices-link");
let nextTable = null;  // the id of the table notice a toast shows

const markRead = (ids) => fetchJSON("/api/v1/notices/read/", { method: "POST", body: { ids } });

async function refreshNotices() {
  const { ok, data } = await fetchJSON("/api/v1/notices/?unread=true&page_size=20");
  if (!ok || !noticesCount) return;
  noticesCount.hidden = data.count === 0;
  noticesCount.textContent = String(data.count);
  noticesLink.setAttribute("aria-label", data.count
    ? fmt(ngettext("Notices: %(count)s unread", "Notices: %(count)s unread", data.count), { count: data.count })
    : gettext("Notices"));
  const table = data.results.find((n) => n.kind === "tournament_table" && Date.now() - Date.parse(n.created_at) < FRESH_MS);
  if (!table) return;
  if (new URL(table.url, location.href).pathname === location.pathname) {
    await markRead([table.id]);  // already there
    refreshNotices();
  } else if (nextTable !== table.id) showNextTable(table);
}

function showNextTable(notice) {
  nextTable = notice.id;
  const box = toasts();
  box.querySelector('[data-testid="next-table"]')?.remove();
  const toast = document.createElement("div");
  toast.className = "toast next-table";
  toast.dataset.testid = "next-table";
  toast.setAttribute("role", "alert");
  const text = document.createElement("p");
  text.textContent = notice.text;
  const countdown = document.createElement("p");
  countdown.className = "small";
  countdown.dataset.testid = "next-table-countdown";
  const go = async () => {
    clearInterval(timer);
    await markRead([notice.id]);
    window.location.assign(notice.url);
  };
  const goNow = document.createElement("button");
  goNow.type = "button";
  goNow.textContent = gettext("Go now");
  goNow.dataset.testid = "next-table-go";
  goNow.addEventListener("click", go);
  const stay = document.createElement("button");
  stay.type = "button";
  stay.className = "secondary";
  stay.textContent = gettext("Stay here");
  stay.dataset.testid = "next-table-stay";
  stay.addEventListener("click", async () => {
    clearInterval(timer);
    toast.remove();
    await markRead([notice.id]);
    refreshNotices();
  });
  // Playing a running game on this page: nobody is taken away from it; the toast waits.
  const table = window.WizardTable && window.WizardTable.view;
  const playing = Boolean(table && table.status === "active" && table.you !== null);
  let left = NEXT_TABLE_SECONDS;
  const tick = () => {
    countdown.textContent = fmt(ngettext("Taking you there in %(n)s second.", "Taking you there in %(n)s seconds.", left), { n: left });
    if (left-- <= 0) go();
  };
  const timer = playing ? null : setInterval(tick, 1000);
  if (playing) countdown.textContent = gettext("Your game here is still running: go when you are ready.");
  else tick();
  toast.append(text, countdown, goNow, stay);
  box.append(toast);
}

new LiveSocket("/ws/me/", {
  onMessage: (message) => {
    // Other parts of the page listen too (Play now hears "seated"): one socket a page.
    window.dispatchEvent(new CustomEvent("wizard:me", { detail: message }));
    if (message.type === "invite") showInvite(message);
    else if (badge) refresh();
    if (message.type === "games" || message.type === "invite") refreshNotices();
  },
  onStatus: (up) => {
    if (up && badge) refresh();
    if (up) refreshNotices();
  },
});
