/* The header's count of games awaiting the player's move, kept live by their ws/me/ socket:
   it says when a turn becomes theirs anywhere or their list of games changes, and the count is
   fetched again from the API (API.md "Your turns everywhere"). */
import { fetchJSON, LiveSocket } from "./net.js";
import { fmt, ngettext } from "./i18n.js";

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

if (badge) {
  new LiveSocket("/ws/me/", {
    onMessage: refresh,
    onStatus: (up) => { if (up) refresh(); },
  });
}
