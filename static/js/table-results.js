/* Drawing the results: the score sheet, the summary that ends each round, and the end of the
   game with its places, stats and rating changes. */
import { gettext, fmt } from "./i18n.js";
import { cardElement } from "./cards.js";
import { LEVELS, badge, displayName, el, playerName, shortNames, trickRow, wonBy } from "./table-view.js";

const $ = (id) => document.getElementById(id);

export function renderScores(view) {
  const box = $("scores");
  box.replaceChildren();
  if (!view.scores.length) { box.append(el("p", "note", gettext("No round finished yet."))); return; }
  const table = el("table");
  const caption = el("caption", "note", gettext("Each round: points, total, and bid/won. Green: bid made; red: missed."));
  table.append(caption);
  const head = table.createTHead().insertRow();
  head.append(el("th", null, "#"));
  const short = shortNames(view.players);
  view.players.forEach((p, i) => {
    const cell = el("th", null, short[i]);
    // A bot's level under its seat ("Bot 3" / "Medium"), as its seat at the table shows both.
    if (p.is_bot && LEVELS[p.difficulty]) cell.append(el("small", "level", LEVELS[p.difficulty]));
    cell.scope = "col";
    cell.title = displayName(p);
    head.append(cell);
  });
  const body = table.createTBody();
  view.scores.forEach((record) => {
    const row = body.insertRow();
    const label = el("th", null, String(record.round));
    label.scope = "row";
    row.append(label);
    view.players.forEach((p) => {
      const s = p.seat;
      const cell = row.insertCell();
      const made = record.bids[s] === record.tricks[s];
      cell.className = made ? "made" : "missed";
      const points = record.points[s];
      cell.append(
        el("span", "points", (points > 0 ? "+" : "") + points),
        el("span", "total", String(record.totals[s])),
        el("span", "bidwon", record.bids[s] + "/" + record.tricks[s]),
      );
      cell.title = (made ? gettext("made") : gettext("missed")) + ": "
        + fmt(gettext("bid %(bid)s, won %(won)s"), { bid: record.bids[s], won: record.tricks[s] });
    });
  });
  const last = view.scores[view.scores.length - 1];
  const totals = table.createTFoot().insertRow();
  totals.dataset.testid = "score-totals";
  const label = el("th", null, gettext("Total"));
  label.scope = "row";
  totals.append(label);
  view.players.forEach((p) => totals.append(el("td", "total", String(last.totals[p.seat]))));
  box.append(table);
  box.scrollTop = box.scrollHeight;  // the newest round in sight
}

/* R15: equal totals share a place. */
export function placeOf(players, player) {
  return 1 + players.filter((other) => other.score > player.score).length;
}

/* Each player's exact bids and best round over the finished rounds of `scores` (a best round
   is shown only when it scored). */
export function gameStats(scores, seat) {
  const exact = scores.filter((r) => r.bids[seat] === r.tricks[seat]).length;
  const best = scores.reduce((top, r) => (top === null || r.points[seat] > top.points
    ? { round: r.round, points: r.points[seat] } : top), null);
  return { exact, rounds: scores.length, best };
}

/* The end of the game: places, each player's exact bids and best round, and once the league has
   rated the game (`ratings`, from /games/<id>/ratings/) each player's rating change. */
/* Why a finished game did not count for the league (R17), as league.eligibility says. */
function notCounted(why) {
  if (why === "voided") return gettext("Not a league game: a moderator voided it, so no rating changed.");
  if (why === "seated_twice") return gettext("Not a league game (a player sat at two seats): no rating changed.");
  return gettext("Not a league game (bots at the table): no rating changed.");
}

export function renderGameOver(view, ratings) {
  const box = $("gameover");
  if (view.status !== "finished") { box.hidden = true; return; }
  box.hidden = false;
  const list = $("places");
  list.replaceChildren();
  const ranked = [...view.players].sort((a, b) => b.score - a.score);
  ranked.forEach((player) => {
    const place = placeOf(view.players, player);
    const item = el("li", "place-" + Math.min(place, 4));
    item.value = place;
    item.dataset.testid = "final-place";
    item.textContent = fmt(gettext("%(name)s — %(score)s points"), { name: displayName(player), score: player.score });
    if (place === 1) item.append(" ", badge(gettext("winner"), "winner"));
    const stats = gameStats(view.scores, player.seat);
    const line = fmt(gettext("exact bids: %(exact)s of %(rounds)s"), stats);
    const best = stats.best && stats.best.points > 0 ? " · " + fmt(gettext("best round: %(round)s (%(points)s)"),
      { round: stats.best.round, points: (stats.best.points > 0 ? "+" : "") + stats.best.points }) : "";
    item.append(el("span", "stats", line + best));
    const change = ratings && ratings.league ? ratings.changes.find((c) => c.seat === player.seat) : null;
    if (change) {
      const delta = change.after - change.before;
      const rating = el("span", "rating", fmt(gettext("rating %(before)s → %(after)s (%(delta)s)"), {
        before: change.before.toFixed(1), after: change.after.toFixed(1),
        delta: (delta >= 0 ? "+" : "−") + Math.abs(delta).toFixed(1),
      }));
      rating.dataset.testid = "rating-change";
      item.append(rating);
    }
    list.append(item);
  });
  const note = $("league-note");
  note.hidden = !ratings || !ratings.rated;
  if (ratings && ratings.rated) {
    note.textContent = ratings.league ? gettext("A league game: the ratings above have changed.")
      : notCounted(ratings.not_counted);
  }
  const me = view.players.find((p) => p.seat === view.you);
  const yours = $("your-place");
  if (me) {
    const place = placeOf(view.players, me);
    yours.textContent = place === 1 ? gettext("You won!")
      : fmt(gettext("You finished in place %(place)s of %(count)s."), { place, count: view.players.length });
  } else {
    yours.textContent = fmt(gettext("Winners: %(names)s"), {
      names: ranked.filter((p) => placeOf(view.players, p) === 1).map(displayName).join(", "),
    });
  }
  $("seed").textContent = view.shuffle_seed || "";
  const rematch = $("rematch-link");
  const start = $("rematch-button");
  if (view.rematch) {
    rematch.href = "/games/" + view.rematch + "/";
    rematch.hidden = false;
    if (start) start.closest("form").hidden = true;  // one button: the rematch exists
  }
}

/* The round summary: the last trick, and each seat's bid, tricks, points and total. */
export function roundSummary(scene, { round, points, totals, lastTrick, blindCard }) {
  const box = $("round-summary");
  box.replaceChildren();
  const title = el("h2", null, fmt(gettext("Round %(n)s scored"), { n: round.number }));
  title.id = "round-summary-title";
  box.append(title);
  if (blindCard) {
    const reveal = el("p", "reveal");
    reveal.append(el("span", null, gettext("Your card was:") + " "), cardElement(blindCard, { small: true }));
    box.append(reveal);
  }
  if (lastTrick) {
    box.append(el("p", "note", wonBy(scene, lastTrick.winner) === null
      ? gettext("Last trick, won by nobody (the Bomb):")
      : fmt(gettext("Last trick, won by %(name)s:"), { name: playerName(scene, lastTrick.winner) })), trickRow(scene, lastTrick));
  }
  const table = el("table");
  const head = table.createTHead().insertRow();
  [gettext("Player"), gettext("Bid"), gettext("Won"), gettext("Points"), gettext("Total")].forEach((t) => head.append(el("th", null, t)));
  const body = table.createTBody();
  for (let seat = 0; seat < scene.seats; seat++) {
    const row = body.insertRow();
    const made = round.bids[seat] === round.tricks_won[seat];
    row.className = made ? "made" : "missed";
    row.append(el("th", null, playerName(scene, seat)));
    [round.bids[seat], round.tricks_won[seat], (points[seat] > 0 ? "+" : "") + points[seat], totals[seat]]
      .forEach((value) => row.insertCell().textContent = String(value));
  }
  box.append(table);
  const go = el("button", "continue", gettext("Continue"));
  go.type = "button";
  go.id = "summary-continue";
  const left = el("span", "note", "");
  left.id = "summary-left";
  const foot = el("p", "actions");
  foot.append(go, " ", left);
  box.append(foot);
  box.hidden = false;
  return go;
}
