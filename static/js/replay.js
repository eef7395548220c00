/* Replay of a finished game. The server builds every frame with the rules engine (the table
   after each event, every hand shown); this page draws each as the live table does
   (table-view.js), with every hand listed below, step by step or playing. */
import { gettext, fmt } from "./i18n.js";
import { cardElement, cardLabel, splitFace, suitText } from "./cards.js";
import { displayName, renderBar, renderSeats, renderTrick } from "./table-view.js";

const $ = (id) => document.getElementById(id);
const frames = JSON.parse($("frames").textContent);
const you = JSON.parse($("you").textContent);
const roundNumbers = JSON.parse($("round-numbers").textContent);
// Who sat where; whether they are online or away now says nothing of the game then.
const players = JSON.parse($("players").textContent).map(({ online, away, ...player }) => player);
const name = (seat) => {
  const player = players.find((p) => p.seat === seat);
  return player ? displayName(player) : "?";
};

/* The trick's cards as the live table has them: a played Juggler's or Cloud's suit (R24) and a
   Shapeshifter's shape (R25) as `suit` or `as` (or within the code, "JU:red", "SH:wizard"). */
function trickCards(trick) {
  return trick.map((played) => {
    const { card: code, declared } = splitFace(played.card);
    if (!declared) return { ...played, card: code };
    return declared === "wizard" || declared === "jester" ? { ...played, card: code, as: declared } : { ...played, card: code, suit: declared };
  });
}

/* Whether the trick a frame shows is one nobody took (R22): from the bombed trick's end until
   the next card or deal. */
const bombedShown = [];
frames.reduce((bombed, { event }) => {
  const now = event.type === "trick_won" ? event.seat === null || event.seat === undefined
    : event.type === "play" || event.type === "deal" ? false : bombed;
  bombedShown.push(now);
  return now;
}, false);

/* A frame as the live table's scene: the table then, from the viewer's seat (or seat 0). */
function sceneOf(t, bombed = false) {
  return {
    seats: players.length,
    roundNumbers,
    you,
    players: players.map((p) => ({ ...p, score: t.totals[p.seat] || 0 })),
    round: t.round ? {
      number: t.round, cards: t.round, dealer: t.dealer, trump_card: t.trump_card, trump: t.trump,
      phase: t.phase, bids: t.bids, tricks_won: t.tricks_won,
    } : null,
    trick: trickCards(t.trick),
    trickWinner: t.trick_winner,
    trickBombed: bombed && t.trick.length > 0,
    lastTrick: null,
    hand: null,
    hiddenCount: 0,
    visible_hands: {},
    to_act: t.to_act,
  };
}
let index = 0;
let timer = null;

function describe(event) {
  let what;
  switch (event.type) {
    case "game_started": what = gettext("The game starts."); break;
    case "deal": what = fmt(gettext("Round %(n)s: %(name)s deals %(k)s cards each."), { n: event.round, name: name(event.dealer), k: event.round }); break;
    case "trump_turned": what = event.card ? fmt(gettext("%(card)s is turned up."), { card: cardLabel(event.card) }) : gettext("Last round: nothing is turned up, no trump."); break;
    case "trump_chosen": what = event.suit === "none"
      ? fmt(gettext("%(name)s chooses no trump."), { name: name(event.seat) })
      : fmt(gettext("%(name)s chooses %(suit)s as trump."), { name: name(event.seat), suit: suitText(event.suit) }); break;
    case "werewolf": what = fmt(gettext("%(name)s lays the Werewolf and takes %(card)s; %(name)s chooses trump."), { name: name(event.seat), card: cardLabel(event.card) }); break;
    case "bid": what = fmt(gettext("%(name)s bids %(bid)s."), { name: name(event.seat), bid: event.bid }); break;
    case "play": what = fmt(gettext("%(name)s plays %(card)s."), { name: name(event.seat), card: cardLabel(event.card, event.suit || event.as || null) }); break;
    case "trick_won": what = event.seat === null || event.seat === undefined
      ? (event.leads === undefined || event.leads === null ? gettext("Nobody takes the trick: it holds the Bomb.")
        : fmt(gettext("Nobody takes the trick: it holds the Bomb. %(name)s leads next."), { name: name(event.leads) }))
      : fmt(gettext("%(name)s wins the trick."), { name: name(event.seat) }); break;
    case "adjust": what = fmt(event.delta > 0 ? gettext("%(name)s raises their bid to %(bid)s (the Cloud).")
      : gettext("%(name)s lowers their bid to %(bid)s (the Cloud)."), { name: name(event.seat), bid: bidAfter(event) }); break;
    case "pass": what = event.card
      ? fmt(gettext("%(name)s passes %(card)s to %(left)s."), { name: name(event.seat), card: cardLabel(event.card), left: name((event.seat + 1) % players.length) })
      : fmt(gettext("%(name)s has chosen a card to pass."), { name: name(event.seat) }); break;
    case "cards_passed": what = gettext("The passed cards change hands."); break;
    case "round_scored": what = gettext("Round scored: ") + event.points.map((p, i) => name(i) + " " + (p > 0 ? "+" : "") + p).join(", "); break;
    case "game_over": what = fmt(gettext("Game over. Winner: %(names)s."), { names: event.winners.map(name).join(", ") }); break;
    default: what = event.type;
  }
  if (event.auto && ["bid", "play", "trump_chosen", "pass", "adjust"].includes(event.type)) what += " " + gettext("(automatic)");
  return what;
}

/* The bid after a Cloud's change (R24), as the frame of that event shows it. */
function bidAfter(event) {
  const frame = frames.find((f) => f.event === event);
  return frame ? frame.table.bids[event.seat] : "?";
}

/* The hard bot's second opinion on one of the viewer's decisions (from the game's review). */
function opinionText(opinion) {
  if (opinion.matched) return gettext("hard bot: the same choice");
  const points = Math.round(opinion.points);
  const choice = ["play", "pass"].includes(opinion.kind) ? cardLabel(opinion.expert)
    : opinion.kind === "trump" ? suitText(opinion.expert) : opinion.expert;
  const text = {
    bid: gettext("hard bot: bid %(choice)s, about +%(points)s points"),
    play: gettext("hard bot: play %(choice)s, about +%(points)s points"),
    trump: gettext("hard bot: trump %(choice)s, about +%(points)s points"),
    pass: gettext("hard bot: pass %(choice)s, about +%(points)s points"),
    adjust: gettext("hard bot: change the bid by %(choice)s, about +%(points)s points"),
  }[opinion.kind];
  return fmt(text, { choice, points });
}

const slider = $("step");
slider.max = String(Math.max(0, frames.length - 1));

function show(i) {
  if (!frames.length) return;
  index = Math.max(0, Math.min(frames.length - 1, i));
  slider.value = String(index);
  const { event, table: t } = frames[index];
  $("what").textContent = describe(event);
  const opinion = frames[index].opinion;
  $("opinion").hidden = !opinion;
  $("opinion").textContent = opinion ? opinionText(opinion) : "";
  $("position").textContent = fmt(gettext("step %(i)s of %(n)s"), { i: index + 1, n: frames.length });
  const scene = sceneOf(t, bombedShown[index]);
  renderBar(scene);
  $("trump-box").hidden = !t.round;  // before the first deal there is no trump to speak of
  renderSeats(scene, { showTimer: false });
  renderTrick(scene);
  const hands = $("hands");
  hands.replaceChildren();
  players.forEach(({ seat }) => {
    const box = document.createElement("div");
    box.className = "seat-box" + (t.to_act === seat ? " acting" : "");
    box.dataset.testid = "replay-hand-" + seat;
    const title = document.createElement("div");
    title.className = "name";
    title.textContent = name(seat);
    const hand = document.createElement("div");
    hand.className = "cards";
    (t.hands[seat] || []).forEach((c) => hand.append(cardElement(c, { small: true })));
    box.append(title, hand);
    hands.append(box);
  });
  if (index === frames.length - 1) pause();
}

function roundStart(direction) {
  let i = index + direction;
  while (i > 0 && i < frames.length - 1 && frames[i].event.type !== "deal") i += direction;
  show(i);
}

function play() {
  if (index >= frames.length - 1) show(0);
  clearInterval(timer);
  timer = setInterval(() => show(index + 1), Number($("speed").value));
  $("play").setAttribute("aria-pressed", "true");
  $("play").setAttribute("aria-label", gettext("Pause"));
  $("play").title = gettext("Pause");
}

function pause() {
  clearInterval(timer);
  timer = null;
  $("play").setAttribute("aria-pressed", "false");
  $("play").setAttribute("aria-label", gettext("Play"));
  $("play").title = gettext("Play");
}

$("first").addEventListener("click", () => show(0));
$("last").addEventListener("click", () => show(frames.length - 1));
$("prev").addEventListener("click", () => show(index - 1));
$("next").addEventListener("click", () => show(index + 1));
$("prev-round").addEventListener("click", () => roundStart(-1));
$("next-round").addEventListener("click", () => roundStart(1));
$("play").addEventListener("click", () => (timer ? pause() : play()));
$("speed").addEventListener("change", () => { if (timer) play(); });
slider.addEventListener("input", () => show(Number(slider.value)));
document.addEventListener("keydown", (e) => {
  if ((e.target.tagName === "INPUT" && e.target.type !== "range") || e.target.tagName === "SELECT") return;
  if (e.key === "ArrowRight") { show(index + 1); e.preventDefault(); }
  if (e.key === "ArrowLeft") { show(index - 1); e.preventDefault(); }
  if (e.key === " " && e.target.tagName !== "BUTTON") { (timer ? pause : play)(); e.preventDefault(); }
});
/* The review: the viewer's decisions where the hard bot chose otherwise, worst first, each a
   click away; "next mistake" goes to the next one after the step shown; the points the hard
   bot expects were left, round by round, as bars. */
const disagreed = frames.map((frame, i) => ({ frame, i }))
  .filter(({ frame }) => frame.opinion && !frame.opinion.matched);

function startReview() {
  const list = $("mistake-list");
  if (!list) return;
  [...disagreed].sort((a, b) => b.frame.opinion.points - a.frame.opinion.points).forEach(({ frame, i }) => {
    const item = document.createElement("li");
    const link = document.createElement("button");
    link.type = "button";
    link.className = "link";
    link.textContent = fmt(gettext("Round %(n)s: %(what)s %(opinion)s"),
      { n: frame.table.round, what: describe(frame.event), opinion: opinionText(frame.opinion) });
    link.addEventListener("click", () => { pause(); show(i); });
    item.append(link);
    list.append(item);
  });
  $("next-mistake").disabled = disagreed.length === 0;
  $("next-mistake").addEventListener("click", () => {
    const next = disagreed.find(({ i }) => i > index) || disagreed[0];
    if (next) { pause(); show(next.i); }
  });
  const lost = new Map();
  frames.forEach((frame) => {
    if (frame.table.round) lost.set(frame.table.round, (lost.get(frame.table.round) || 0) + (frame.opinion ? Math.max(0, frame.opinion.points) : 0));
  });
  const top = Math.max(1, ...lost.values());
  const chart = $("round-chart");
  lost.forEach((points, round) => {
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.style.setProperty("--size", String(points / top));
    bar.title = fmt(gettext("Round %(n)s: about %(points)s points"), { n: round, points: Math.round(points) });
    bar.setAttribute("role", "img");
    bar.setAttribute("aria-label", bar.title);
    const label = document.createElement("span");
    label.textContent = String(round);
    bar.append(label);
    chart.append(bar);
  });
}

/* While the hard bot is still reviewing, the page asks for its review every few seconds and
   shows it as soon as it is stored (the server draws the opinions into the frames), at the
   step the viewer had reached (#step-N). */
const REVIEW_POLL_MS = 3000;
function awaitReview() {
  const pending = $("review-pending");
  if (!pending) return;
  const poll = setInterval(async () => {
    const answer = await fetch(pending.dataset.analysis, { credentials: "same-origin" }).catch(() => null);
    if (answer && answer.ok) {
      clearInterval(poll);
      history.replaceState(null, "", `#step-${index}`);
      location.reload();
    }
  }, REVIEW_POLL_MS);
}

startReview();
awaitReview();
show(Number(/^#step-(\d+)$/.exec(location.hash)?.[1] ?? 0));
