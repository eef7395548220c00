/* The live table. The server pushes the player's own view and the event rows each change
   appended (API.md "WebSocket"); the page plays those events out one by one — a card flies to
   the trick, a full trick stays with its winner named, a round ends on its summary — and then
   shows the latest view. Moves go through the REST endpoint with the session cookie. The page
   never holds a card its player may not see: the server sends only this player's share. */
import { gettext, ngettext, fmt } from "./i18n.js";
import { fetchJSON, fetchAll, LiveSocket } from "./net.js";
import { NAMES_A_SUIT, SHAPESHIFTER, WEREWOLF, cardElement, cardKind, cardLabel, suitOf, suitText } from "./cards.js";
import * as sound from "./sound.js";
import { startChat } from "./chat.js";
import * as draw from "./table-view.js";
import { renderClock } from "./clock.js";
import { startResign } from "./resign.js";
import { startGuide } from "./guide.js";

const root = document.getElementById("table");
const $ = (id) => document.getElementById(id);

/* Animation timings in ms, the player's own choice, remembered in this browser. "instant" moves
   nothing and waits for nothing: a trick won stays on the table until the next card is played,
   and a round's summary until the player continues. */
const PACES = {
  normal: { play: 420, ownPlay: 260, bid: 380, trump: 500, deal: 450, hold: 1600, sweep: 420, summary: 7000 },
  fast: { play: 100, ownPlay: 60, bid: 80, trump: 120, deal: 100, hold: 600, sweep: 200, summary: 2500 },
  instant: { play: 0, ownPlay: 0, bid: 0, trump: 0, deal: 0, hold: 0, sweep: 0, summary: 0 },
};
const paceNamed = (name) => (Object.hasOwn(PACES, name) ? name : "normal");
// A move's answer with one of these statuses never came from the game (a proxy, a server down
// or restarting, PostgreSQL unreachable: 503 `unavailable`): the move is sent again.
const RETRY_STATUSES = [502, 503, 504];
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

if (root) startTable();

function startTable() {
  const api = root.dataset.api;
  const texts = JSON.parse($("error-texts").textContent);
  let view = JSON.parse($("initial-view").textContent);
  const initialYou = view.you;
  const baseTitle = document.title;
  let paceName = readPace();
  let scene = sceneFromView(view);
  let known = view.seq;          // every event up to this seq is shown or queued
  const queue = [];
  let running = false;
  let sending = false;
  let unsent = null;             // a move sent whose answer never came: sent again, same seq
  const moving = () => sending || unsent !== null;
  let showingLastTrick = false;
  let turnShown = null;          // the seq at which your turn was last announced
  let turnFocused = null;        // the seq at which its controls last got the focus
  let overdueSynced = null;
  let leaving = false;
  let declaring = null;          // a Juggler, Cloud or Shapeshifter clicked: what it plays as is asked (R24, R25)
  let receivedCard = null;       // the card passed to you after a Juggler's trick (R24), marked in your hand
  let noticeKind = null;         // what the notice on the table says: "werewolf" or "adjust"
  let noticeTimer = null;
  const guide = startGuide();

  const pace = () => PACES[paceName];
  let fetching = false;          // missing events are being fetched
  let catchingUp = false;        // a backlog shown without animation: not read out either
  let warnedDeadline = null;     // the deadline whose last ten seconds were announced
  const idle = () => !running && queue.length === 0 && !fetching && known >= view.seq;
  const name = (seat) => draw.playerName(scene, seat);

  /* ---- the scene: what the screen shows ------------------------------------------------- */
  function sceneFromView(v) {
    const round = v.round;
    const lastTrick = round && round.last_trick ? round.last_trick : null;
    const held = paceName === "instant" && round && round.phase === "playing" && !round.trick.cards.length && lastTrick;
    if (held) return { ...sceneOf(v, round, lastTrick), ...heldTrick(lastTrick) };
    return sceneOf(v, round, lastTrick);
  }

  /* A won trick left on the table (the instant pace): its cards, who took it. */
  function heldTrick(last) {
    const bombed = last.winner === null || last.winner === undefined;
    return { trick: last.cards.map((c) => ({ ...c })), trickWinner: bombed ? null : last.winner, trickBombed: bombed };
  }

  function sceneOf(v, round, lastTrick) {
    return {
      seq: v.seq,
      seats: v.seats,
      roundNumbers: v.round_numbers,
      you: v.you,
      players: v.players.map((p) => ({ ...p })),
      round: round && {
        number: round.number, cards: round.cards, dealer: round.dealer, trump_card: round.trump_card,
        trump: round.trump, phase: round.phase, bids: [...round.bids], tricks_won: [...round.tricks_won],
        werewolf: round.werewolf === undefined ? null : round.werewolf,
      },
      trick: round ? round.trick.cards.map((c) => ({ ...c })) : [],
      trickWinner: null,
      trickBombed: false,
      lastTrick,
      hand: v.hand ? [...v.hand] : null,
      hiddenCount: v.hand === null && round && round.phase !== "done" ? round.cards - round.tricks_won.reduce((a, b) => a + b, 0) : 0,
      visible_hands: v.visible_hands || {},
      to_act: v.status === "active" ? v.to_act : null,
    };
  }

  /* ---- receiving ------------------------------------------------------------------------- */
  /* A view and the events that led to it. Events that follow on from what the page has are
     queued at once; a gap (a lost push, or a REST answer, which carries no events) is filled
     from /events/ — after a REST answer the push usually brings them a moment later. */
  function receive(next, events) {
    if (leaving) return;  // a join, leave or rematch form is on its way: the next page will show it
    if (!next || next.seq < view.seq) return;  // an older view arrived late: keep the newer one
    if (next.you !== initialYou) { location.reload(); return; }  // you took or left a seat elsewhere
    const previousStatus = view.status;
    const same = JSON.stringify(next) === JSON.stringify(view);
    announceAway(view.players, next.players);
    if (next.seq !== view.seq) declaring = null;  // the turn moved on (a timer, a push): ask again
    view = next;
    if (previousStatus !== view.status) showSections();
    if (view.status === "open") { draw.renderWaiting(view); return; }
    // Who sits where is not animated: a player who just took a seat is named at once, also
    // while the events that follow (the deal) still play out.
    // Nor is whether a player has the site open: it shows at once, also during a round's summary.
    view.players.forEach((p) => {
      const shown = scene.players.find((q) => q.seat === p.seat);
      if (!shown) scene.players.push({ ...p });
      else shown.online = p.online;
    });
    const fresh = (events || []).filter((e) => e.seq > known);
    if (fresh.length && fresh[0].seq === known + 1) {
      fresh.forEach((e) => { queue.push(e); known = e.seq; });
    }
    if (known >= view.seq) {
      if (queue.length) pump();
      else if (!same) render();  // an unchanged view leaves the controls as they are
      return;
    }
    render();  // behind the view: no controls until its events are in
    if (events === null && socket.isOpen) setTimeout(fillGap, 1000);
    else fillGap();
  }

  async function fillGap() {
    if (fetching || known >= view.seq) return;
    fetching = true;
    try {
      const rows = await fetchAll(api + "events/?page_size=500&after=" + known);
      rows.filter((e) => e.seq > known).forEach((e) => { queue.push(e); known = e.seq; });
    } catch (error) {
      /* the view below is still right; only its animation is lost */
    } finally {
      known = Math.max(known, view.seq);
      fetching = false;
      pump();
    }
  }

  async function pump() {
    if (running) return;
    if (!queue.length) { render(); return; }
    running = true;
    render();
    try {
      while (queue.length) {
        const event = queue.shift();
        // A long backlog (a tab in the background, a reconnect) is caught up without animation.
        const quick = document.hidden || queue.length > 40;
        catchingUp = quick;
        await playOut(event, quick);
      }
    } finally {
      running = false;
      catchingUp = false;
      scene = sceneFromView(view);
      render();
    }
  }

  const wait = (ms, quick) => new Promise((resolve) => setTimeout(resolve, quick ? 0 : ms));

  /* One event row, shown. */
  async function playOut(event, quick) {
    const p = event.payload;
    const round = scene.round;
    scene.seq = event.seq;
    if (event.auto && event.seat === scene.you && scene.you !== null && !isBlindTrick()) autoNotice(event);
    switch (event.type) {
      case "deal": {
        scene.round = {
          number: p.round, cards: p.round, dealer: p.dealer, trump_card: null, trump: null,
          phase: "bidding", bids: new Array(scene.seats).fill(null), tricks_won: new Array(scene.seats).fill(0),
          werewolf: null,
        };
        scene.trick = [];
        scene.trickWinner = null;
        scene.trickBombed = false;
        hideNotice();
        showReceived(null);
        scene.lastTrick = null;
        scene.hand = p.hand ? [...p.hand] : null;
        scene.hiddenCount = p.hand ? 0 : p.round;
        scene.visible_hands = p.visible_hands || {};
        scene.to_act = null;
        render();
        dealAnimation(quick);
        await wait(pace().deal, quick);
        break;
      }
      case "trump_turned":
        if (round) {
          round.trump_card = p.card;
          round.trump = suitOf(p.card);  // R5, R6; a special card turned up is no trump (R20)…
          if (p.card && (cardKind(p.card) === "wizard" || p.card === "DR")) round.phase = "choosing_trump";  // …but the Dragon
        }
        render();
        await wait(pace().trump, quick);
        break;
      case "werewolf": {  // R23: the holder lays the Werewolf in place of the turned-up card
        if (round) { round.trump_card = WEREWOLF; round.trump = null; round.phase = "choosing_trump"; round.werewolf = p.seat; }
        const swap = (cards) => [...cards.filter((c) => c !== WEREWOLF), p.card];
        if (p.seat === scene.you && scene.hand) scene.hand = swap(scene.hand);
        const seen = scene.visible_hands[String(p.seat)];
        if (seen) scene.visible_hands = { ...scene.visible_hands, [String(p.seat)]: swap(seen) };
        scene.to_act = p.seat;
        const text = p.seat === scene.you
          ? fmt(gettext("You lay the Werewolf and take %(card)s; you choose trump."), { card: cardLabel(p.card) })
          : fmt(gettext("%(name)s lays the Werewolf and takes %(card)s; %(name)s chooses trump."), { name: name(p.seat), card: cardLabel(p.card) });
        announce(text);
        showNotice("werewolf", text, { card: p.card });
        render();
        await wait(pace().hold, quick);
        break;
      }
      case "trump_chosen":
        if (round) { round.trump = p.suit === "none" ? null : p.suit; round.phase = "bidding"; }
        announce(p.suit === "none"
          ? fmt(gettext("%(name)s chooses no trump."), { name: name(p.seat) })
          : fmt(gettext("%(name)s chooses %(suit)s as trump."), { name: name(p.seat), suit: suitText(p.suit) }));
        scene.to_act = p.seat;
        render();
        await wait(pace().trump, quick);
        break;
      case "bid":
        if (noticeKind === "werewolf") hideNotice();
        if (round) round.bids[p.seat] = p.bid;
        scene.to_act = p.seat;
        announce(fmt(gettext("%(name)s bids %(bid)s."), { name: name(p.seat), bid: p.bid }));
        render();
        await wait(p.seat === scene.you ? 0 : pace().bid, quick);
        break;
      case "play": {
        if (round) round.phase = "playing";
        if (scene.trickWinner !== null || scene.trickBombed) {
          scene.trick = []; scene.trickWinner = null; scene.trickBombed = false;
        }
        if (noticeKind === "werewolf") hideNotice();
        const from = originOf(p.seat, p.card);
        // A Juggler or Cloud carries the suit named, a Shapeshifter its shape (R24, R25).
        const declared = p.suit || p.as || null;
        scene.trick.push({ seat: p.seat, card: p.card, ...(p.suit ? { suit: p.suit } : {}), ...(p.as ? { as: p.as } : {}) });
        if (p.seat === scene.you) {
          if (scene.hand) scene.hand = scene.hand.filter((c) => c !== p.card);
          else scene.hiddenCount = Math.max(0, scene.hiddenCount - 1);
        }
        if (scene.visible_hands[String(p.seat)]) {
          scene.visible_hands = { ...scene.visible_hands, [String(p.seat)]: scene.visible_hands[String(p.seat)].filter((c) => c !== p.card) };
        }
        scene.to_act = p.seat;
        announce(fmt(gettext("%(name)s plays %(card)s."), { name: name(p.seat), card: cardLabel(p.card, declared) }));
        render();
        if (!quick) sound.cardPlayed();
        flyIn(p.seat, from, quick);
        await wait(p.seat === scene.you ? pace().ownPlay : pace().play, quick);
        break;
      }
      case "trick_won": {
        const bombed = p.seat === null || p.seat === undefined;  // R22: a trick holding the Bomb is nobody's
        scene.trickWinner = bombed ? null : p.seat;
        scene.trickBombed = bombed;
        if (round && !bombed) round.tricks_won[p.seat] += 1;
        scene.lastTrick = { winner: bombed ? null : p.seat, cards: scene.trick.map((c) => ({ ...c })) };
        scene.to_act = null;
        const leads = p.leads === undefined || p.leads === null ? null : p.leads;
        announce(!bombed ? trickWonText(p.seat)
          : leads === null ? gettext("Nobody takes the trick: it holds the Bomb.")
            : fmt(gettext("Nobody takes the trick: it holds the Bomb. %(name)s leads next."), { name: name(leads) }));
        render();
        if (!quick) sound.trickWon();
        if (paceName === "instant" && !quick) {  // it stays until the next card is played
          if (receivedCard) showReceived(null);
          break;
        }
        await wait(pace().hold, quick);
        sweep(bombed ? null : p.seat, quick);  // runs on while the next events (or your next move) come
        scene.trick = [];
        scene.trickWinner = null;
        scene.trickBombed = false;
        if (receivedCard) showReceived(null);  // the trick after the pass is over: the notice has done its job
        render();
        break;
      }
      case "adjust": {  // R24: the Cloud's winner changes their bid
        const bid = round && round.bids[p.seat] !== null ? round.bids[p.seat] + p.delta : null;
        if (round) round.bids[p.seat] = bid;
        scene.to_act = p.seat;
        const mine = p.seat === view.you;
        const text = mine
          ? fmt(p.delta > 0 ? gettext("You raise your bid to %(bid)s (the Cloud).") : gettext("You lower your bid to %(bid)s (the Cloud)."), { bid })
          : fmt(p.delta > 0 ? gettext("%(name)s raises their bid to %(bid)s (the Cloud).")
            : gettext("%(name)s lowers their bid to %(bid)s (the Cloud)."), { name: name(p.seat), bid });
        announce(text);
        showNotice("adjust", text, { ms: pace().hold * 1.5 });
        render();
        await wait(pace().bid, quick);
        break;
      }
      case "pass": {  // R24: a card chosen to pass to the left; only its giver sees which
        if (round) round.phase = "passing";
        const mine = p.seat === scene.you && p.card;
        if (mine && scene.hand) scene.hand = scene.hand.filter((c) => c !== p.card);
        scene.to_act = p.seat;
        announce(mine
          ? fmt(gettext("You pass %(card)s to %(name)s."), { card: cardLabel(p.card), name: name((p.seat + 1) % scene.seats) })
          : fmt(gettext("%(name)s has chosen a card to pass."), { name: name(p.seat) }));
        render();
        if (!quick) sound.cardPlayed();
        await wait(p.seat === scene.you ? 0 : pace().bid, quick);
        break;
      }
      case "cards_passed": {  // R24: the cards change hands; you see the one you received
        if (round) round.phase = "playing";
        scene.to_act = null;
        const you = scene.you;
        const from = you === null ? null : (you - 1 + scene.seats) % scene.seats;
        const received = from === null || !p.cards ? null : p.cards[from];
        if (received && scene.hand && !scene.hand.includes(received)) scene.hand = [...scene.hand, received];
        if (received) {
          showReceived(received, name(from));
          announce(fmt(gettext("You received %(card)s from %(name)s."), { card: cardLabel(received), name: name(from) }));
        } else {
          announce(gettext("The passed cards change hands."));
        }
        render();
        await wait(pace().trump, quick);
        break;
      }
      case "round_scored":
        if (!quick) sound.roundEnd();
        await showSummary(p, quick);
        break;
      case "game_over":
        if (!quick && scene.you !== null && p.winners.includes(scene.you)) sound.won();
        announce(fmt(gettext("Game over. Winner: %(names)s."), { names: p.winners.map(name).join(", ") }));
        break;
      default:
        break;
    }
  }

  /* "Ann wins the trick: 2 of 3 bid." — who, and how they stand against their bid. */
  function trickWonText(seat) {
    const round = scene.round;
    const bid = round ? round.bids[seat] : null;
    const won = round ? round.tricks_won[seat] : 0;
    return bid === null || bid === undefined
      ? fmt(gettext("%(name)s wins the trick."), { name: name(seat) })
      : fmt(gettext("%(name)s wins the trick: %(won)s won, %(bid)s bid."), { name: name(seat), won, bid });
  }

  function isBlindTrick() {  // R9: the blind round's trick plays itself, for everyone
    return view.blind_first_round && scene.round && scene.round.number === 1;
  }

  async function showSummary(p, quick) {
    const round = scene.round;
    if (!round) return;
    const totals = scene.players.map((player) => player.score + p.points[player.seat]);
    const mine = scene.lastTrick && scene.you !== null && isBlindTrick()
      ? scene.lastTrick.cards.find((c) => c.seat === scene.you) : null;
    scene.players.forEach((player) => { player.score = totals[player.seat]; });
    announce(fmt(gettext("Round %(n)s scored: %(results)s."), {
      n: round.number,
      results: scene.players.map((pl) => pl.username + " " + (p.points[pl.seat] > 0 ? "+" : "") + p.points[pl.seat]).join(", "),
    }));
    round.phase = "done";
    scene.to_act = null;
    render();
    if (quick) return;
    const button = draw.roundSummary(scene, {
      round, points: p.points, totals, lastTrick: scene.lastTrick, blindCard: mine ? mine.card : null,
    });
    const box = $("round-summary");
    const previousFocus = document.activeElement;
    button.focus({ preventScroll: true });
    await new Promise((resolve) => {
      const ends = Date.now() + pace().summary;
      const left = $("summary-left");
      const timer = !pace().summary ? null : setInterval(() => {
        const seconds = Math.ceil((ends - Date.now()) / 1000);
        left.textContent = fmt(gettext("continues in %(s)s s"), { s: Math.max(0, seconds) });
        if (seconds <= 0) done();
      }, 250);
      left.textContent = timer === null ? gettext("continues when you are ready") : "";
      function done() {
        if (timer !== null) clearInterval(timer);
        box.removeEventListener("click", onClick);
        document.removeEventListener("keydown", onKey);
        resolve();
      }
      function onClick(event) { if (event.target.closest("button")) done(); }
      function onKey(event) { if (event.key === "Escape") { event.preventDefault(); done(); } }
      box.addEventListener("click", onClick);
      document.addEventListener("keydown", onKey);
    });
    box.hidden = true;
    if (previousFocus && previousFocus.focus && document.contains(previousFocus)) previousFocus.focus({ preventScroll: true });
  }

  /* ---- motion --------------------------------------------------------------------------- */
  const still = (quick) => quick || reducedMotion.matches;

  function originOf(seat, card) {
    if (seat === scene.you) {
      const own = document.querySelector('#hand [data-card="' + card + '"]') || $("hand");
      if (own) return own.getBoundingClientRect();
    }
    const chip = document.querySelector('[data-testid="seat-' + seat + '"]');
    return chip ? chip.getBoundingClientRect() : null;
  }

  function flyIn(seat, from, quick) {
    const cards = document.querySelectorAll('#trick [data-testid="trick-card"]');
    const card = cards[cards.length - 1];
    if (!card || !from || still(quick)) {
      if (card && !still(quick)) card.animate([{ opacity: 0 }, { opacity: 1 }], { duration: 150 });
      return;
    }
    const to = card.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    card.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(.8)`, opacity: 0.6 }, { transform: "none", opacity: 1 }],
      { duration: pace().play * 0.9, easing: "cubic-bezier(.2,.7,.3,1)" });
  }

  /* The trick goes to its winner's seat; a bombed one (winner null, R22) goes up in smoke. */
  function sweep(winner, quick) {
    const chip = winner === null ? null : document.querySelector('[data-testid="seat-' + winner + '"]');
    const cards = document.querySelectorAll('#trick [data-testid="trick-card"]');
    if ((!chip && winner !== null) || !cards.length || still(quick)) return;
    const layer = $("fly-layer");
    const target = chip ? chip.getBoundingClientRect() : $("trick").getBoundingClientRect();
    const base = layer.getBoundingClientRect();
    cards.forEach((card) => {
      const box = card.getBoundingClientRect();
      const ghost = card.cloneNode(true);
      ghost.removeAttribute("data-testid");
      ghost.className = card.className.replace("in-trick", "") + " ghost";
      Object.assign(ghost.style, { left: box.left - base.left + "px", top: box.top - base.top + "px", width: box.width + "px", height: box.height + "px" });
      layer.append(ghost);
      const dx = target.left + target.width / 2 - (box.left + box.width / 2);
      const dy = target.top + target.height / 2 - (box.top + box.height / 2);
      const motion = ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.35)`, opacity: 0 }],
        { duration: pace().sweep, easing: "ease-in" });
      motion.onfinish = () => ghost.remove();
      motion.oncancel = () => ghost.remove();
    });
  }

  function dealAnimation(quick) {
    if (still(quick)) return;
    document.querySelectorAll("#hand .card").forEach((card, i) => {
      card.animate([{ opacity: 0, transform: "translateY(-40px)" }, { opacity: 1, transform: "none" }],
        { duration: 260, delay: i * 25, easing: "ease-out", fill: "backwards" });
    });
  }

  /* ---- drawing -------------------------------------------------------------------------- */
  /* Redrawing replaces the controls: the focused one gets the focus back (keyboard play). */
  function render() {
    const focused = document.activeElement;
    const key = focused && focused.closest && focused.closest("#controls, #hand")
      ? ["card", "bid", "suit", "declare", "delta"].map((k) => focused.dataset[k] !== undefined ? `[data-${k}="${focused.dataset[k]}"]` : "").join("")
      : "";
    drawScene();
    if (key) {
      const again = document.querySelector("#controls " + key + ", #hand " + key);
      if (again && !again.disabled) again.focus({ preventScroll: true });
    }
    // What the page shows, for scripts and tests: the last event played out, and whether it has
    // played out everything it knows with no move of yours on its way.
    root.dataset.seq = String(scene.seq);
    root.dataset.settled = String(idle() && !moving());
  }

  function drawScene() {
    if (view.status === "open") { draw.renderWaiting(view); return; }
    const calm = idle();
    const showing = calm ? sceneFromView(view) : scene;
    if (calm) scene = showing;
    draw.renderBar(showing);
    draw.renderSeats(showing, { showTimer: calm && view.status === "active" && !!view.deadline });
    draw.renderTrick(showing);
    draw.renderLastTrick(showing, showingLastTrick);
    renderControls(calm);
    const choosing = calm && !moving();
    draw.renderHand(showing, {
      legal: choosing ? view.legal : null, onPlay: chooseCard, chosen: choosing ? declaring : null, received: receivedCard,
    });
    if (calm) {  // results show once the events that led to them have been played out
      draw.renderScores(view);
      draw.renderGameOver(view, ratings);
      $("next-steps").hidden = view.status !== "finished" && view.status !== "aborted";
      root.classList.toggle("finished", view.status === "finished");
      followRematch();
      followRatings();
    }
    tick();
    turnEffects(calm);
    if (calm) guide.update(view);
  }

  /* Who has joined the rematch: asked when it appears, then every 10 s while it is open. */
  let rematchTimer = null;
  function followRematch() {
    if (!view.rematch || rematchTimer !== null) return;
    const ask = async () => {
      const { ok, data } = await fetchJSON("/api/v1/games/" + view.rematch + "/").catch(() => ({}));
      if (ok) draw.renderRematch(data);
      rematchTimer = ok && data.status !== "open" ? -1 : setTimeout(ask, 10000);
    };
    rematchTimer = 0;
    ask();
  }

  /* Whether each person seated has the site open, as the presence poll says; not for your own
     seat, which this page holds open (an answer asked before its socket counted is late). */
  function noteOffline(seats) {
    [view.players, scene.players].forEach((players) => players.forEach((p) => {
      if (!p.is_bot && p.seat !== view.you) p.online = !seats.includes(p.seat);
    }));
  }

  /* How many watch without a seat, and how long offline players have been away: asked now and
     every 15 s while the game has not ended. */
  function followPresence() {
    const box = $("spectators");
    const ask = async () => {
      if (view.status === "finished" || view.status === "aborted") { box.hidden = true; return; }
      const { ok, data } = await fetchJSON(box.dataset.url).catch(() => ({}));
      if (ok) {
        draw.renderSpectators(box, data.spectators);
        draw.noteOfflineFor(data.offline_for);
        noteOffline(data.offline || []);
        if (view.status !== "open") {
          draw.renderSeats(idle() ? sceneFromView(view) : scene,
            { showTimer: idle() && view.status === "active" && !!view.deadline });
          tick();
        }
      }
      setTimeout(ask, 15000);
    };
    ask();
  }
  followPresence();

  /* The rating changes, once the league has rated the finished game (a task after its end):
     asked every 2 s until it has, for a minute at most. */
  let ratings = null;
  let ratingsAsked = 0;
  function followRatings() {
    if (view.status !== "finished" || ratingsAsked) return;
    const ask = async () => {
      ratingsAsked += 1;
      const { ok, data } = await fetchJSON("/games/" + view.id + "/ratings/").catch(() => ({}));
      if (ok && data.rated) {
        ratings = data;
        if (idle()) draw.renderGameOver(view, ratings);
      } else if (ratingsAsked < 30) {
        setTimeout(ask, 2000);
      }
    };
    ask();
  }

  function renderControls(calm) {
    const controls = $("controls");
    const myTurn = calm && view.status === "active" && view.legal !== null && view.to_act === view.you;
    $("status-line").textContent = calm ? draw.statusText(scene, view) : "";
    const banner = $("your-turn");
    banner.hidden = !myTurn;
    if (myTurn) banner.textContent = gettext("Your turn");
    const me = view.players.find((p) => p.seat === view.you);
    const resign = $("resign");
    if (resign) resign.hidden = !(view.status === "active" && me && !me.resigned);
    const seated = calm && view.status === "active" && me && !me.resigned;
    const away = seated && me.away;
    if (draw.drawnAlready(controls, [myTurn && !moving(), seated, away, view.seq, scene.seq, declaring])) return;
    controls.replaceChildren();
    // R18: say you are back (first: it is what an away player came for), or sit out (last:
    // after your turn's choices, never the one your turn focuses).
    if (away) controls.append(standingButton("back", gettext("I'm back"), ""));
    if (myTurn && !moving()) renderChoices(controls);
    if (seated && !away) controls.append(standingButton("sit-out", gettext("Sit out"), "secondary"));
  }

  function renderChoices(controls) {
    if (view.legal.bids) controls.append(draw.bidPanel(view.round, view.legal.bids, (bid) => sendMove({ type: "bid", bid })));
    if (view.legal.suits) controls.append(draw.trumpPanel(view.legal.suits, (suit) => sendMove({ type: "trump", suit })));
    if (view.legal.cards && declaring && view.legal.cards.includes(declaring)) {
      controls.append(draw.declarePanel(declaring, view.round, declare, cancelDeclare));
    }
    if (view.legal.passes) controls.append(draw.passPanel(scene));
    if (view.legal.adjust) controls.append(draw.adjustPanel(view.round, view.you, view.legal.adjust, (delta) => sendMove({ type: "adjust", delta })));
  }

  /* "I'm back" or "Sit out" (R18): over REST, so it works while the socket reconnects; the
     answer is the new view. */
  function standingButton(action, label, className) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = action + "-button";
    button.className = className;
    button.dataset.testid = action;
    button.textContent = label;
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        const { ok, data } = await fetchJSON(api + action + "/", { method: "POST" });
        if (ok && action === "back") $("auto-move-notice").hidden = true;  // no longer true
        if (ok) receive(data, null);
        else showError(errorText(data.error ? data.error.code : "invalid", data.error && data.error.message));
      } catch (error) {
        showError(gettext("Connection problem: try again."));
      }
      button.disabled = false;
    });
    return button;
  }

  /* A card of your hand clicked: passed after a Juggler's trick (R24); a Juggler, Cloud or
     Shapeshifter first asks what it plays as (R24, R25); any other card is played. */
  function chooseCard(card) {
    if (view.legal && view.legal.passes) { declaring = null; sendMove({ type: "pass", card }); return; }
    if (NAMES_A_SUIT.includes(card) || card === SHAPESHIFTER) {
      declaring = card;
      render();
      const first = document.querySelector("#controls [data-declare]");
      if (first) first.focus({ preventScroll: true });
      return;
    }
    declaring = null;
    sendMove({ type: "play", card });
  }

  function declare(choice) {
    const card = declaring;
    declaring = null;
    if (!card) return;
    sendMove(card === SHAPESHIFTER ? { type: "play", card, as: choice } : { type: "play", card, suit: choice });
  }

  function cancelDeclare() {
    const card = declaring;
    declaring = null;
    render();
    const again = card && document.querySelector('#hand [data-card="' + card + '"]');
    if (again) again.focus({ preventScroll: true });
  }

  /* A notice on the table: the Werewolf's swap (until the bidding goes on) or a Cloud's change. */
  function showNotice(kind, text, { card = null, ms = null } = {}) {
    const box = $("table-notice");
    box.replaceChildren();
    if (card) box.append(cardElement(card, { small: true }), " ");
    box.append(document.createTextNode(text));
    box.dataset.kind = kind;
    box.hidden = false;
    noticeKind = kind;
    clearTimeout(noticeTimer);
    if (ms) noticeTimer = setTimeout(hideNotice, ms);
  }

  function hideNotice() {
    clearTimeout(noticeTimer);
    noticeKind = null;
    const box = $("table-notice");
    box.hidden = true;
    box.replaceChildren();
  }

  /* The card you received after a Juggler's trick (R24), named above your hand until you have
     played the trick after it; null hides the notice. */
  function showReceived(card, from) {
    receivedCard = card;
    const box = $("pass-received");
    box.replaceChildren();
    box.hidden = !card;
    if (!card) return;
    box.dataset.card = card;
    box.append(cardElement(card, { small: true }), " ",
      document.createTextNode(fmt(gettext("You received %(card)s from %(name)s."), { card: cardLabel(card), name: from })));
  }

  function turnEffects(calm) {
    const myTurn = calm && view.status === "active" && view.legal !== null && view.to_act === view.you;
    document.title = myTurn ? "● " + gettext("Your turn") + " · " + baseTitle : baseTitle;
    root.classList.toggle("my-turn", myTurn);
    if (!myTurn) { turnShown = turnFocused = null; return; }
    // Each decision of yours is a new turn, also one right after your own move (a bid, then
    // the lead): its seq tells them apart.
    if (turnShown !== view.seq) {
      turnShown = view.seq;
      announce(yourTurnText(view.legal));
      sound.yourTurnChime();
      bringTableIntoView();
    }
    // The controls come once your previous move's answer is in: the focus waits for them.
    if (turnFocused !== view.seq && !moving() && focusFirstControl()) turnFocused = view.seq;
  }

  /* R18: a player marked away, or back. */
  function announceAway(before, after) {
    after.forEach((p) => {
      const was = before.find((q) => q.seat === p.seat);
      if (!was || !!was.away === !!p.away || p.is_bot) return;
      if (p.seat === view.you) announce(p.away ? gettext("You are marked away.") : gettext("You are back."));
      else announce(fmt(p.away ? gettext("%(name)s is away.") : gettext("%(name)s is back."), { name: p.username }));
    });
  }

  /* What a screen reader says when your turn starts: what you may do now. */
  function yourTurnText(legal) {
    if (legal.bids) return fmt(gettext("Your turn: bid %(bids)s."), { bids: legal.bids.join(", ") });
    if (legal.suits) return fmt(gettext("Your turn: choose trump: %(suits)s."), { suits: legal.suits.map(suitText).join(", ") });
    if (legal.passes) return gettext("Your turn: choose a card to pass.");
    if (legal.adjust) {
      return fmt(gettext("Your turn: change your bid by %(deltas)s."), {
        deltas: legal.adjust.map((d) => (d > 0 ? "+" : "−") + Math.abs(d)).join(", "),
      });
    }
    const n = legal.cards ? legal.cards.length : 0;
    return fmt(ngettext("Your turn: play a card; %(n)s card may be played.", "Your turn: play a card; %(n)s cards may be played.", n), { n });
  }

  /* Your turn: the whole table comes back on screen if the page was scrolled away from it. */
  function bringTableIntoView() {
    const box = $("arena").getBoundingClientRect();
    if (box.top < -1 || box.bottom > window.innerHeight + 1) window.scrollTo({ top: 0, behavior: "instant" });
  }

  /* The first choice of your turn gets the focus (not while you type in the chat): true once
     done, or left to you. */
  function focusFirstControl() {
    const active = document.activeElement;
    if (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA" || active.tagName === "SELECT")) return true;
    const target = document.querySelector('#controls button:not([disabled]):not([data-testid="sit-out"]), #hand button.legal');
    if (!target) return false;
    target.focus({ preventScroll: true });
    // Zoomed in (200 %) the hand can sit below the screen: the focused card comes into view.
    const box = target.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) target.scrollIntoView({ block: "nearest", behavior: "instant" });
    return true;
  }

  function showSections() {
    const open = view.status === "open";
    // The special cards' tag (R20) sits with the options that show: the waiting room's, then the table's facts.
    const specials = $("special-cards");
    const home = $(open ? "waiting-tags" : "facts-tags");
    if (specials && home && specials.parentElement !== home) home.append(specials);
    // The chat is the waiting room's until the game starts, then the table's.
    const chatBox = $("chat");
    const chatHome = open ? $("waiting-chat") : $("chat-home");
    if (chatBox && chatHome && chatBox.parentElement !== chatHome) chatHome.append(chatBox);
    $("waiting-room").hidden = !open;
    $("table-layout").hidden = open;
    if ($("watching")) $("watching").hidden = open;
    if (!open && view.status !== "aborted") $("aborted-note").hidden = true;
    if (view.status === "aborted") $("aborted-note").hidden = false;
  }

  /* The polite live region: each event as it is played out (at the table's pace, so a bot's
     burst is read as it is shown), your turn, your clock, players away and back, chat. */
  function announce(text) {
    if (catchingUp || !text) return;
    const box = $("announcer");
    const line = document.createElement("p");
    line.textContent = text;
    box.append(line);
    while (box.childElementCount > 5) box.firstElementChild.remove();
  }

  function autoNotice(event) {
    const p = event.payload;
    const box = $("auto-move-notice");
    const me = view.players.find((player) => player.seat === view.you);
    box.querySelector(".text").textContent = me && me.away  // R18: the medium bot plays for you
      ? (me.resigned ? gettext("You resigned: the medium bot plays your seat to the end.")
        : gettext("You are away: the medium bot plays for you until you press “I'm back” or play yourself."))
      : event.type === "bid"
      ? fmt(gettext("Your time ran out: the server bid %(bid)s for you."), { bid: p.bid })
      : event.type === "play"
        ? fmt(gettext("Your time ran out: the server played %(card)s for you."), { card: cardLabel(p.card, p.suit || p.as || null) })
        : event.type === "pass"
          ? fmt(gettext("Your time ran out: the server passed %(card)s for you."), { card: cardLabel(p.card) })
          : event.type === "adjust"
            ? fmt(gettext("Your time ran out: the server changed your bid by %(delta)s for you."), { delta: (p.delta > 0 ? "+" : "−") + Math.abs(p.delta) })
            : fmt(gettext("Your time ran out: the server chose %(suit)s as trump for you."), { suit: suitText(p.suit) });
    box.hidden = false;
    clearTimeout(autoNotice.timer);
    autoNotice.timer = setTimeout(() => { box.hidden = true; }, 10000);
  }

  /* ---- moves and the socket ------------------------------------------------------------- */
  async function sendMove(body) {
    if (moving()) return;  // one move at a time: a second click must not send a second move
    sending = true;
    render();
    showError("");
    try {
      await post({ ...body, seq: view.seq });
    } finally {
      sending = false;
      render();
    }
  }

  startResign({
    api,
    onDone(data) { receive(data, null); },
    onError(code, message) { showError(errorText(code, message)); },
  });

  /* One try at a move. With no answer (the network failed, or a server that is down or
     restarting said 502-504) the move is kept and sent again, with the same seq, once the
     server answers: if the first try did arrive, the game is past that seq and the copy is
     refused as stale_state, so a move never applies twice. */
  async function post(move, again = false) {
    let answer = null;
    try {
      answer = await fetchJSON(api + "moves/", { method: "POST", body: move });
    } catch (error) { /* no answer: below */ }
    if (answer === null || RETRY_STATUSES.includes(answer.status)) {
      unsent = move;
      showError(gettext("Connection problem: your move will be sent again when the connection is back."));
      return;
    }
    unsent = null;
    const { ok, data } = answer;
    if (ok) {
      showError("");
      // The push with the events comes with the answer or just after; the answer covers a lost one.
      receive(data, null);
      return;
    }
    const code = data.error ? data.error.code : "invalid";
    // A copy whose first try arrived (or a turn the timer made meanwhile): nothing to say.
    const overtaken = again && (code === "stale_state" || code === "not_your_turn");
    showError(overtaken ? "" : errorText(code, data.error && data.error.message));
    requestSync();
  }

  async function resendUnsent() {
    if (!unsent || sending) return;
    sending = true;
    try {
      await post(unsent, true);
    } finally {
      sending = false;
      render();
    }
  }

  /* While the socket is down: the view over REST (its events follow from /events/). */
  function poll() {
    resendUnsent();
    fetchJSON(api).then(({ ok, data }) => ok && receive(data, null)).catch(() => {});
  }

  let chat = null;
  const socket = new LiveSocket(root.dataset.ws, {
    onMessage(message) {
      if (message.type === "state") receive(message.state, message.events || []);
      else if (message.type === "error") showError(errorText(message.error.code, message.error.message));
      else if (chat) chat.handle(message);
    },
    onStatus(up) {
      setConnection(up);
      if (up) resendUnsent();
    },
    onStop: showStopped,
    poll,
  });

  function requestSync() {
    if (!socket.send({ type: "sync" })) {
      fetchJSON(api).then(({ ok, data }) => ok && receive(data, null));
    }
  }

  /* ---- countdown, errors, connection ---------------------------------------------------- */
  function tick() {
    renderClock($("turn-clock"), view, name);
    const timer = $("turn-timer");
    if (!timer || !view.deadline || view.status !== "active") return;
    const leftMs = Math.max(0, Date.parse(view.deadline) - Date.now());
    const left = Math.ceil(leftMs / 1000);
    const fraction = Math.min(1, leftMs / (view.turn_seconds * 1000));
    timer.querySelector(".seconds").textContent = left >= 3600 ? Math.floor(left / 3600) + "h" : left >= 120 ? Math.floor(left / 60) + "m" : String(left);
    timer.querySelector(".left").style.strokeDashoffset = String(100 - fraction * 100);
    timer.classList.toggle("low", left <= 10);
    const mine = view.to_act === view.you && view.legal !== null;
    if (mine && left <= 10 && left > 0 && view.turn_seconds > 10 && warnedDeadline !== view.deadline) {
      warnedDeadline = view.deadline;
      announce(gettext("Ten seconds left."));
    }
    timer.setAttribute("aria-label", fmt(gettext("%(seconds)s s left"), { seconds: left }));
    if (left === 0 && overdueSynced !== view.deadline) {  // the server's move is due: fetch it
      overdueSynced = view.deadline;
      setTimeout(requestSync, 1500);
    }
  }

  function showError(text) {
    $("error-line").textContent = text || "";
  }

  function errorText(code, fallback) {
    return texts[code] || fallback || code;
  }

  function setConnection(up) {
    const box = $("connection");
    box.textContent = up ? gettext("live") : gettext("reconnecting…");
    box.classList.toggle("down", !up);
  }

  /* The server closed the socket for good (API.md close codes): say why; no more retries. */
  function showStopped(code) {
    const why = {
      4401: gettext("You are signed out: log in again to play."),
      4403: gettext("You may not play or watch at this table any more."),
      4404: gettext("There is no such game."),
      4429: gettext("Too many windows of this site are open: this one stopped. Reload it to play here."),
    }[code];
    const box = $("connection");
    box.textContent = gettext("offline");
    box.classList.add("down");
    showError(why);
  }

  /* ---- settings -------------------------------------------------------------------------- */
  function readPace() {
    try { return paceNamed(localStorage.getItem("wizard.pace")); } catch (e) { return "normal"; }
  }

  const paceSelect = $("pace");
  paceSelect.value = paceName;
  const markPace = () => document.documentElement.classList.toggle("pace-instant", paceName === "instant");
  markPace();
  paceSelect.addEventListener("change", () => {
    paceName = paceNamed(paceSelect.value);
    markPace();
    try { localStorage.setItem("wizard.pace", paceName); } catch (e) { /* private mode */ }
  });
  const largeButton = $("large-cards");
  const showLarge = () => {
    const large = document.documentElement.classList.contains("large-cards");
    largeButton.setAttribute("aria-pressed", String(large));
  };
  largeButton.addEventListener("click", () => {
    const large = document.documentElement.classList.toggle("large-cards");
    try { localStorage.setItem("wizard.large-cards", large ? "1" : "0"); } catch (e) { /* private mode */ }
    showLarge();
    draw.layoutHand();
  });
  showLarge();
  const soundButton = $("sound-toggle");
  const showSound = () => {
    const muted = sound.isMuted();
    soundButton.setAttribute("aria-pressed", String(!muted));
    soundButton.classList.toggle("muted", muted);
    soundButton.title = muted ? gettext("Sound off") : gettext("Sound on");
  };
  soundButton.addEventListener("click", () => { sound.setMuted(!sound.isMuted()); showSound(); });
  showSound();
  const volume = $("volume");
  volume.value = String(Math.round(sound.volume() * 100));
  volume.addEventListener("input", () => {
    sound.setVolume(Number(volume.value) / 100);
    if (sound.isMuted() && Number(volume.value) > 0) { sound.setMuted(false); showSound(); }
  });
  volume.addEventListener("change", () => sound.cardPlayed());  // a sample at the new level
  sound.unlockOnGesture();
  $("last-trick-toggle").addEventListener("click", () => { showingLastTrick = !showingLastTrick; render(); });
  $("auto-move-notice").querySelector("button").addEventListener("click", () => { $("auto-move-notice").hidden = true; });
  document.querySelectorAll("[data-copy]").forEach((button) => button.addEventListener("click", () => {
    const input = $(button.dataset.copy);
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    button.textContent = gettext("Copied");
  }));
  // The phone's own share sheet, where the browser offers one.
  document.querySelectorAll("[data-share]").forEach((button) => {
    if (!navigator.share) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      navigator.share({ title: document.title, url: $(button.dataset.share).value }).catch(() => {});
    });
  });
  window.addEventListener("resize", () => draw.layoutHand());
  // Keyboard play (the rules page lists these keys): the arrow keys move between the cards of
  // your hand or the bid buttons, Home and End to the first and the last; Enter or Space plays.
  const STEPS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && declaring) { cancelDeclare(); event.preventDefault(); return; }
    const step = STEPS[event.key];
    if (step === undefined && event.key !== "Home" && event.key !== "End") return;
    const row = event.target.closest && event.target.closest("#hand, #controls");
    if (!row) return;
    const buttons = [...row.querySelectorAll("button:not(:disabled)")];
    const at = buttons.indexOf(event.target);
    if (at < 0) return;
    const to = event.key === "Home" ? 0 : event.key === "End" ? buttons.length - 1
      : (at + step + buttons.length) % buttons.length;
    buttons[to].focus({ preventScroll: true });
    event.preventDefault();
  });
  document.addEventListener("submit", (event) => {
    if (event.target.method === "post" && event.target.id !== "chat-form") leaving = true;
  });
  const header = document.querySelector("header.site");
  const measure = () => document.documentElement.style.setProperty("--header-h", header.offsetHeight + "px");
  if (header) { measure(); new ResizeObserver(measure).observe(header); }

  // "Join the rematch": a player of this game takes a seat at once and opens it; a refusal
  // (a block, the table full) says why under the button.
  $("rematch-link").addEventListener("click", async (event) => {
    if (view.you === null || !view.rematch) return;  // a spectator just opens the table
    event.preventDefault();
    const { ok, data } = await fetchJSON(`/api/v1/games/${view.rematch}/join/`, { method: "POST", body: {} });
    if (ok) { leaving = true; window.location.assign(`/games/${view.rematch}/`); return; }
    const box = $("rematch-joined");
    box.textContent = errorText(data.error && data.error.code, data.error && data.error.message);
    box.hidden = false;
  });

  chat = startChat(announce);
  draw.renderSpecialCards($("special-cards"), view.special_cards);
  showSections();
  render();
  setInterval(tick, 250);
  setInterval(() => socket.send({ type: "sync" }), 20000);
  window.WizardTable = {
    get view() { return view; },
    get scene() { return scene; },
    get busy() { return !idle() || moving(); },
    get progress() { return { running, queued: queue.map((e) => e.seq + ":" + e.type), fetching, sending, unsent, known, shown: scene.seq }; },
    sendMove,
  };
}
