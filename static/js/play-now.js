/* "Play now" (R28): the player says how fast, how many and which cards; the server seats them
   with others who ask for the same. While waiting the panel says how many seek the same and
   offers Cancel; once seated (ws/me/ says "seated", or the seek read again says so) the table
   opens by itself, with a chime and a notice when the page is in the background. The page
   starts with the player's seek, so a reload finds it again. */
import { fetchJSON } from "./net.js";
import { fmt, gettext, ngettext } from "./i18n.js";
import * as sound from "./sound.js";

const MINE = "/api/v1/seeks/mine/";
const POLL_MS = 3000;  // the seek read again while waiting: seated even if a push was lost

const form = document.getElementById("play-now-form");
const waiting = document.getElementById("play-now-waiting");
const errorBox = document.getElementById("play-now-error");
const any = document.getElementById("play-now-any");
const sizes = [...form.querySelectorAll('input[name="sizes"]')];
let poll = null;

// "any" and the sizes: "any" ticks them all; unticking the last size ticks "any" again.
any.addEventListener("change", () => { sizes.forEach((box) => { box.checked = true; }); any.checked = true; });
sizes.forEach((box) => box.addEventListener("change", () => {
  if (!sizes.some((b) => b.checked)) sizes.forEach((b) => { b.checked = true; });
  any.checked = sizes.every((b) => b.checked);
}));

const SPEEDS = { 30: gettext("30 s a turn"), 60: gettext("60 s a turn"), 300: gettext("5 min a turn"), 86400: gettext("24 h a turn") };

function describe(seek) {
  const deck = seek.deck === "anniversary" ? gettext("anniversary cards") : gettext("classic cards");
  const players = seek.sizes.length === 4 ? gettext("any number of players")
    : fmt(gettext("%(sizes)s players"), { sizes: seek.sizes.join(", ") });
  return [SPEEDS[seek.turn_seconds], players, deck].join(" · ");
}

function show(seek) {
  if (seek && seek.game) { seated(seek.game); return; }
  const looking = Boolean(seek);
  form.hidden = looking;
  waiting.hidden = !looking;
  clearInterval(poll);
  if (!looking) return;
  const others = Math.max(seek.waiting - 1, 0);
  document.getElementById("play-now-count").textContent = others
    ? fmt(ngettext("%(n)s other player is looking for the same.", "%(n)s other players are looking for the same.", others), { n: others })
    : gettext("Nobody else is looking for the same yet.");
  document.getElementById("play-now-what").textContent = describe(seek);
  poll = setInterval(read, POLL_MS);
}

async function read() {
  const { ok, status, data } = await fetchJSON(MINE);
  if (ok) show(data);
  else if (status === 404) show(null);
}

function seated(game) {
  clearInterval(poll);
  const url = `/games/${game}/`;
  if (location.pathname === url) return;
  if (document.hidden) {  // in the background: say so, then open the table
    sound.yourTurnChime();
    document.title = gettext("Your table is ready") + " · " + document.title;
    if ("Notification" in window && Notification.permission === "granted") {
      new Notification(gettext("Your table is ready"), { body: gettext("Play now: your new table has started."), tag: "seated" });
    }
  }
  document.getElementById("play-now-status").textContent = gettext("Seated! Opening your table…");
  // In the background the chime plays out first; in sight the table opens at once.
  setTimeout(() => window.location.assign(url), document.hidden ? 1200 : 0);
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const data = new FormData(form);
  const body = {
    turn_seconds: Number(data.get("turn_seconds")),
    sizes: data.getAll("sizes").map(Number),
    deck: data.get("deck"),
    bots_after: data.get("bots_after") ? Number(data.get("bots_after")) : null,
  };
  const button = form.querySelector('[data-testid="play-now-start"]');
  button.disabled = true;
  // Asked on the click, so a table found while this page is in the background can say so.
  if ("Notification" in window && Notification.permission === "default") Notification.requestPermission();
  try {
    const answer = await fetchJSON("/api/v1/seeks/", { method: "POST", body });
    if (answer.ok) {
      show(answer.data);
      document.getElementById("play-now-cancel").focus();
    } else {
      errorBox.textContent = (answer.data.error && answer.data.error.message) || gettext("That request was not understood.");
      errorBox.hidden = false;
    }
  } catch (error) {
    errorBox.textContent = gettext("Connection problem: try again.");
    errorBox.hidden = false;
  }
  button.disabled = false;
});

document.getElementById("play-now-cancel").addEventListener("click", async () => {
  const { ok, status, data } = await fetchJSON(MINE, { method: "DELETE" });
  if (ok || status === 404) {
    show(null);
    form.querySelector('[data-testid="play-now-start"]').focus();
  } else if (status === 409) read();  // seated meanwhile: go there
  else {
    errorBox.textContent = (data && data.error && data.error.message) || gettext("Connection problem: try again.");
    errorBox.hidden = false;
  }
});

window.addEventListener("wizard:me", (event) => {
  const message = event.detail;
  if (message.type === "seated") seated(message.game);
});

sound.unlockOnGesture();
// As the page began: a seek still waiting goes on; one seated earlier is behind the player.
const initial = JSON.parse(document.getElementById("play-now-seek").textContent);
show(initial && !initial.game ? initial : null);
