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

/* Close codes after which reconnecting cannot help (API.md "WebSocket"): signed out,
   suspended, no such game, and 4429: the user opened too many sockets and this, their oldest,
   made room (reconnecting would only close the next oldest). Any other close (a restart, 1011,
   4503 "try again later") is retried. */
export const FINAL_CLOSE_CODES = [4401, 4403, 4404, 4429];

const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 15000;

/* The wait before reconnect attempt `attempt` (0, 1, …): exponential, capped, and jittered
   (between half and all of it) so that the clients of a restarted server do not all come
   back in the same instant. */
export function backoffMs(attempt, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/* A websocket on this host that reconnects with back-off and jitter. `onMessage(parsed JSON)`,
   `onStatus(up: boolean)`, `onStop(code)` when the server closed with one of
   FINAL_CLOSE_CODES (no more attempts); `poll()` is called every `pollMs` while the socket is
   down, so the page stays in step over REST. The server sends the current state on every
   connect. */
export class LiveSocket {
  constructor(path, { onMessage, onStatus, onStop, poll, pollMs = 3000 } = {}) {
    this.path = path;
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.onStop = onStop || (() => {});
    this.poll = poll || null;
    this.pollMs = pollMs;
    this.attempt = 0;
    this.socket = null;
    this.polling = null;
    this.stopped = false;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + this.path);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.stopPolling();
      this.onStatus(true);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      this.onMessage(message);
    });
    socket.addEventListener("close", (event) => {
      this.onStatus(false);
      if (FINAL_CLOSE_CODES.includes(event.code)) {
        this.stopped = true;
        this.stopPolling();
        this.onStop(event.code);
        return;
      }
      this.startPolling();
      setTimeout(() => this.connect(), backoffMs(this.attempt));
      this.attempt += 1;
    });
  }

  /* poll() now, then about every pollMs (jittered, so the clients of a lost server spread out). */
  startPolling() {
    if (!this.poll || this.polling !== null) return;
    const later = () => {
      this.polling = setTimeout(() => { this.poll(); later(); }, this.pollMs * (0.75 + Math.random() / 2));
    };
    this.poll();
    later();
  }

  stopPolling() {
    if (this.polling !== null) clearTimeout(this.polling);
    this.polling = null;
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
