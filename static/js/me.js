/* The player's own socket (ws/me/) on every page: the header's count of games awaiting their
   move, fetched again whenever a turn becomes theirs anywhere or their list of games changes
   (API.md "Your turns everywhere"), and a friend's invitation shown as a toast with a join
   button (API.md "Friends, invitations and who may watch"). */
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

new LiveSocket("/ws/me/", {
  onMessage: (message) => {
    if (message.type === "invite") showInvite(message);
    else if (badge) refresh();
  },
  onStatus: (up) => { if (up && badge) refresh(); },
});
