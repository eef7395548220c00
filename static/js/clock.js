/* The correspondence clock: at a table of an hour or more a turn, the time left for the
   decision due reads in days and hours ("2 d 5 h"), hours and minutes ("3 h 12 min"), then
   minutes and seconds, instead of a count of seconds. */
import { gettext, fmt } from "./i18n.js";

const limits = JSON.parse(document.getElementById("limits").textContent);

export function isCorrespondence(view) {
  return view.turn_seconds >= limits.correspondence_seconds;
}

/* The time left, `ms` milliseconds, in its two largest units. */
export function longClock(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400), h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60), s = total % 60;
  if (d > 0) return fmt(gettext("%(d)s d %(h)s h"), { d, h });
  if (h > 0) return fmt(gettext("%(h)s h %(m)s min"), { h, m });
  if (m > 0) return fmt(gettext("%(m)s min %(s)s s"), { m, s });
  return fmt(gettext("%(s)s s"), { s });
}

/* Show (or hide) the clock for the view's decision due, when a person is to make it (a bot's
   step is not timed by the table's limit); `name(seat)` names the player. */
export function renderClock(box, view, name) {
  const acting = view.players.find((p) => p.seat === view.to_act);
  const running = view.status === "active" && !!view.deadline && !!acting && !acting.is_bot;
  box.hidden = !(running && isCorrespondence(view));
  if (box.hidden) return;
  const left = longClock(Date.parse(view.deadline) - Date.now());
  box.textContent = view.to_act === view.you
    ? fmt(gettext("Your move: %(time)s left"), { time: left })
    : fmt(gettext("%(name)s to move: %(time)s left"), { name: name(view.to_act), time: left });
}
