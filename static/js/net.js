/* What every page script shares: the CSRF token, JSON requests to this site's API, and a
   websocket that reconnects by itself. Nothing here talks to another host. */

export function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/* A same-origin JSON request; resolves to {ok, status, data} (data {} when the body is not JSON)
   and rejects only when the network fails. */
export async function fetchJSON(url, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, data };
}

/* Every item of a paginated list, following its `next` links (API.md "Lists are paginated"). */
export async function fetchAll(url) {
  const items = [];
  let next = url;
  while (next) {
    const { ok, data } = await fetchJSON(next);
    if (!ok) throw new Error("request failed: " + next);
    items.push(...data.results);
    next = data.next;
  }
  return items;
}

/* A websocket on this host that reconnects with back-off. `onMessage(parsed JSON)`,
   `onStatus(up: boolean)`; the server sends the current state on every connect. */
export class LiveSocket {
  constructor(path, { onMessage, onStatus } = {}) {
    this.path = path;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.delay = 1000;
    this.socket = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + this.path);
    this.socket = socket;
    socket.addEventListener("open", () => { this.delay = 1000; this.onStatus(true); });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      this.onMessage(message);
    });
    socket.addEventListener("close", () => {
      this.onStatus(false);
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 10000);
    });
  }

  get isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  /* Sends a message when connected; false when it could not. */
  send(message) {
    if (!this.isOpen) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }
}
