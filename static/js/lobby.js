/* The lobby's table list stays live: the server says "tables changed" on a websocket and the
   page fetches the fresh list; a slow poll covers a lost connection. */
"use strict";
(function () {
  const box = document.getElementById("tables");
  if (!box) return;
  let pending = null;
  function refresh() {
    clearTimeout(pending);
    pending = setTimeout(async () => {
      const response = await fetch(box.dataset.refresh, { credentials: "same-origin" });
      if (response.ok) box.innerHTML = await response.text();
    }, 150);
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + "/ws/lobby/");
    socket.addEventListener("message", refresh);
    socket.addEventListener("open", refresh);
    socket.addEventListener("close", () => setTimeout(connect, 3000));
  }
  connect();
  setInterval(refresh, 30000);
})();
