/* The lobby's table lists and the home page's games to watch stay live: the server says
   "tables changed" on a websocket and the page fetches each fresh list (every element with
   data-refresh); a slow poll covers a lost connection. */
import { LiveSocket } from "./net.js";
import { wireTurnPresets } from "./turn-presets.js";

const boxes = [...document.querySelectorAll("[data-refresh]")];
if (boxes.length) {
  let pending = null;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(() => boxes.forEach(async (box) => {
      const response = await fetch(box.dataset.refresh, { credentials: "same-origin" });
      if (response.ok) box.innerHTML = await response.text();  // the site's own template
    }), 150);
  };
  new LiveSocket("/ws/lobby/", { onMessage: refresh, onStatus: (up) => up && refresh() });
  setInterval(refresh, 30000);
}

wireTurnPresets();
