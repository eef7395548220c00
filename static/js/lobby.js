/* The lobby's table list stays live: the server says "tables changed" on a websocket and the
   page fetches the fresh list; a slow poll covers a lost connection. */
import { LiveSocket } from "./net.js";
import { wireTurnPresets } from "./turn-presets.js";

const box = document.getElementById("tables");
if (box) {
  let pending = null;
  const refresh = () => {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      const response = await fetch(box.dataset.refresh, { credentials: "same-origin" });
      if (response.ok) box.innerHTML = await response.text();  // the site's own template
    }, 150);
  };
  new LiveSocket("/ws/lobby/", { onMessage: refresh, onStatus: (up) => up && refresh() });
  setInterval(refresh, 30000);
}

wireTurnPresets();
