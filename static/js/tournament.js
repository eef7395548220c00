/* The tournament pages. A tournament's page follows ws/tournaments/<id>/ and redraws its
   status, player count, standings, tables and podium from each view the server sends (the
   server drew them first, so the page works without scripts). Times read in the reader's
   own time zone; the creation form sends that zone's offset and shows only the options of the
   chosen format. */
import { fmt, gettext, ngettext, pgettext } from "./i18n.js";
import { LiveSocket } from "./net.js";
import { wireTurnPresets } from "./turn-presets.js";

const STATUS = {
  upcoming: () => pgettext("tournament", "Upcoming"),
  running: () => pgettext("tournament", "Running"),
  finished: () => pgettext("tournament", "Finished"),
  cancelled: () => pgettext("tournament", "Cancelled"),
};
const TABLE_STATE = {
  open: () => gettext("starting"),
  active: () => gettext("playing"),
  finished: () => gettext("finished"),
  aborted: () => gettext("aborted"),
};

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/* Times in the reader's zone: <time datetime=ISO data-local>. */
function localTimes() {
  const format = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    dateStyle: "medium",
    timeStyle: "short",
  });
  document.querySelectorAll("time[data-local]").forEach((time) => {
    const moment = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(moment.getTime())) time.textContent = format.format(moment);
  });
}

function twoDigits(n) {
  return String(n).padStart(2, "0");
}

/* "2 d 03:04:05", "03:04:05" or "04:05" until the start. */
export function countdownText(ms) {
  if (ms <= 0) return gettext("any moment now");
  const total = Math.floor(ms / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutesSeconds = `${twoDigits(Math.floor((total % 3600) / 60))}:${twoDigits(total % 60)}`;
  if (days) return fmt(gettext("%(days)s d %(clock)s"), { days, clock: `${twoDigits(hours)}:${minutesSeconds}` });
  return hours ? `${twoDigits(hours)}:${minutesSeconds}` : minutesSeconds;
}

function startCountdown() {
  const counter = document.getElementById("t-countdown");
  if (!counter) return;
  const starts = new Date(counter.dataset.starts).getTime();
  const tick = () => { counter.textContent = countdownText(starts - Date.now()); };
  tick();
  setInterval(tick, 1000);
}

function tableItem(table, number, view, me) {
  const mine = Boolean(me) && table.seats.includes(me);
  const live = table.status === "open" || table.status === "active";
  const label = view.format === "swiss"
    ? fmt(gettext("Table %(n)s"), { n: number })
    : fmt(gettext("Game #%(id)s"), { id: table.game });
  const linkText = mine && live ? pgettext("tournament table", "Play") : live ? gettext("Watch") : gettext("See the game");
  const link = element(
    "a",
    { class: mine && live ? "button" : "button secondary", "data-testid": "tournament-table-link", href: `/games/${table.game}/` },
    linkText,
  );
  return element(
    "li",
    { class: mine ? "t-table mine" : "t-table", "data-testid": "tournament-table", "data-game": table.game },
    element("span", { class: "t-label" }, label), " ",
    element("span", { class: "t-seats" }, table.seats.join(", ")), " ",
    element("span", { class: "tag t-state" }, (TABLE_STATE[table.status] || (() => table.status))()), " ",
    link,
  );
}

/* The same split as the server's: this round's tables, and the earlier ones by round. */
function splitTables(view) {
  let current = [];
  if (view.status === "running") {
    current = view.format === "swiss"
      ? view.tables.filter((table) => table.round === view.round)
      : view.tables.filter((table) => table.status === "open" || table.status === "active");
  }
  const rest = view.tables.filter((table) => !current.includes(table)).sort((a, b) => b.round - a.round);
  const past = [];
  for (const table of rest) {
    const last = past[past.length - 1];
    if (last && last.round === table.round) last.tables.push(table);
    else past.push({ round: table.round, tables: [table] });
  }
  return { current, past };
}

function standingRow(row, me) {
  const name = element("td", {}, element("a", { href: `/players/${encodeURIComponent(row.username)}/` }, row.username));
  if (row.withdrawn) name.append(" ", element("span", { class: "tag", "data-withdrawn": "" }, gettext("withdrawn")));
  return element(
    "tr",
    { "data-testid": "standing-row", "data-username": row.username, class: row.username === me ? "mine" : null },
    element("td", {}, String(row.rank)), name,
    ...[row.points, row.wizard_points, row.exact_bids, row.games].map((n) => element("td", {}, String(n))),
  );
}

/* Which buttons apply to the reader now (the server's rules in tournaments.views). */
function actionsFor(view, me) {
  const mine = view.standings.find((row) => row.username === me);
  const joined = Boolean(mine) && !mine.withdrawn;
  const open = view.status === "upcoming" || view.status === "running";
  const actions = new Set();
  if (!me) return actions;
  if (!joined && (view.status === "upcoming" || (view.status === "running" && (view.format === "arena" || mine)))) actions.add("join");
  if (joined && open) actions.add("withdraw");
  if (me === view.creator && view.status === "upcoming") actions.add("start");
  return actions;
}

function render(root, view) {
  const me = root.dataset.me;
  const status = document.getElementById("t-status");
  status.textContent = (STATUS[view.status] || (() => view.status))();
  status.className = `tag status status-${view.status}`;
  const round = document.getElementById("t-round");
  round.textContent = view.status === "running" && view.round
    ? fmt(gettext("Round %(n)s of %(of)s"), { n: view.round, of: view.rounds }) : "";
  const box = document.getElementById("t-countdown-box");
  if (box) box.hidden = view.status !== "upcoming";
  const players = document.getElementById("t-players");
  players.dataset.count = view.players;
  players.textContent = fmt(ngettext("%(n)s player", "%(n)s players", view.players), { n: view.players });

  document.getElementById("t-standings").replaceChildren(...view.standings.map((row) => standingRow(row, me)));
  document.getElementById("t-no-players").hidden = view.standings.length > 0;

  const { current, past } = splitTables(view);
  document.getElementById("t-tables").replaceChildren(...current.map((table, i) => tableItem(table, i + 1, view, me)));
  const empty = document.getElementById("t-no-tables");
  empty.hidden = current.length > 0;
  if (view.status === "running") empty.textContent = gettext("No table is playing right now.");
  else if (view.status !== "upcoming") empty.textContent = gettext("No table is playing: the tournament is over.");
  document.getElementById("t-past-box").hidden = past.length === 0;
  document.getElementById("t-past").replaceChildren(...past.flatMap(({ round: number, tables }) => [
    ...(view.format === "swiss" ? [element("h3", {}, fmt(gettext("Round %(n)s"), { n: number }))] : []),
    element("ul", { class: "t-tables" }, ...tables.map((table, i) => tableItem(table, i + 1, view, me))),
  ]));

  const podium = view.status === "finished" ? view.standings.slice(0, 3) : [];
  document.getElementById("t-podium-box").hidden = podium.length === 0;
  document.getElementById("t-podium").replaceChildren(...podium.map((row, i) => element(
    "li", { class: `place-${i + 1}` },
    element("span", { class: "medal" }, String(row.rank)), " ",
    element("a", { href: `/players/${encodeURIComponent(row.username)}/` }, row.username), " ",
    element("span", { class: "small muted" }, fmt(ngettext("%(n)s point", "%(n)s points", row.points), { n: row.points })),
  )));

  // Buttons that no longer apply go; one that now applies needs the server's form: reload.
  const wanted = actionsFor(view, me);
  const shown = [...document.querySelectorAll("#t-actions form[data-action]")];
  shown.filter((form) => !wanted.has(form.dataset.action)).forEach((form) => form.remove());
  const missing = [...wanted].some((action) => !shown.some((form) => form.dataset.action === action));
  const note = document.getElementById("t-joined-note");
  if (note && view.status !== "upcoming") note.remove();
  if (missing && !root.dataset.reloading) {
    root.dataset.reloading = "1";
    setTimeout(() => location.reload(), 500);
  }
}

function follow(root) {
  const invite = root.dataset.invite;
  const path = `/ws/tournaments/${root.dataset.id}/` + (invite ? `?invite=${encodeURIComponent(invite)}` : "");
  new LiveSocket(path, {
    onMessage: (message) => {
      if (message && message.type === "tournament") render(root, message.tournament);
    },
  });
}

/* The creation form: the reader's time zone, and the options of the chosen format only. */
function creationForm(form) {
  const offset = form.querySelector("input[name=utc_offset]");
  if (offset) offset.value = String(-new Date().getTimezoneOffset());
  const starts = form.querySelector("input[name=starts_at]");
  if (starts && !form.querySelector(".errorlist") && !form.dataset.bound) {
    const soon = new Date(Date.now() + 3600 * 1000);
    soon.setSeconds(0, 0);
    const local = new Date(soon.getTime() - soon.getTimezoneOffset() * 60000);
    starts.value = local.toISOString().slice(0, 16);
  }
  const format = form.querySelector("select[name=format]");
  const rounds = form.querySelector("input[name=rounds]");
  const minutes = form.querySelector("input[name=minutes]");
  const paragraph = (input) => input && input.closest("p");
  const show = () => {
    if (!format) return;
    const swiss = format.value === "swiss";
    if (paragraph(rounds)) paragraph(rounds).hidden = !swiss;
    if (paragraph(minutes)) paragraph(minutes).hidden = swiss;
  };
  if (format) format.addEventListener("change", show);
  show();
  wireTurnPresets();  // as in the lobby
}

localTimes();
const root = document.getElementById("tournament");
if (root) {
  startCountdown();
  follow(root);
}
const form = document.getElementById("tournament-form");
if (form) creationForm(form);
