/* Each event row played out on the scene, at the table's pace: a card flies to the trick, a
   full trick stays with its winner named, a round ends on its summary. Each is read out in the
   live region as it is shown. */
import { gettext, fmt } from "./i18n.js";
import { WEREWOLF, cardKind, cardLabel, suitOf, suitText } from "./cards.js";
import * as sound from "./sound.js";
import { roundSummary } from "./table-results.js";
import { nameOf } from "./table-state.js";
import { dealIn, flyIn, originOf, sweep } from "./table-motion.js";

const $ = (id) => document.getElementById(id);

/* `playOut(event, quick)` shows one event; `quick` (a backlog caught up) waits for nothing. */
export function startEvents(table, { render, notices }) {
  const name = (seat) => nameOf(table, seat);

  const wait = (ms, quick) => new Promise((resolve) => setTimeout(resolve, quick ? 0 : ms));

  /* One event row, shown. */
  async function playOut(event, quick) {
    const scene = table.scene;
    const p = event.payload;
    const round = scene.round;
    scene.seq = event.seq;
    if (event.auto && event.seat === scene.you && scene.you !== null && !isBlindTrick()) notices.autoNotice(event);
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
        notices.hideNotice();
        notices.showReceived(null);
        scene.lastTrick = null;
        scene.hand = p.hand ? [...p.hand] : null;
        scene.hiddenCount = p.hand ? 0 : p.round;
        scene.visible_hands = p.visible_hands || {};
        scene.to_act = null;
        render();
        dealIn(quick);
        await wait(table.pace.deal, quick);
        break;
      }
      case "trump_turned":
        if (round) {
          round.trump_card = p.card;
          round.trump = suitOf(p.card);  // R5, R6; a special card turned up is no trump (R20)…
          if (p.card && (cardKind(p.card) === "wizard" || p.card === "DR")) round.phase = "choosing_trump";  // …but the Dragon
        }
        render();
        await wait(table.pace.trump, quick);
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
        notices.announce(text);
        notices.showNotice("werewolf", text, { card: p.card });
        render();
        await wait(table.pace.hold, quick);
        break;
      }
      case "trump_chosen":
        if (round) { round.trump = p.suit === "none" ? null : p.suit; round.phase = "bidding"; }
        notices.announce(p.suit === "none"
          ? fmt(gettext("%(name)s chooses no trump."), { name: name(p.seat) })
          : fmt(gettext("%(name)s chooses %(suit)s as trump."), { name: name(p.seat), suit: suitText(p.suit) }));
        scene.to_act = p.seat;
        render();
        await wait(table.pace.trump, quick);
        break;
      case "bid":
        notices.hideNotice("werewolf");
        if (round) round.bids[p.seat] = p.bid;
        scene.to_act = p.seat;
        notices.announce(fmt(gettext("%(name)s bids %(bid)s."), { name: name(p.seat), bid: p.bid }));
        render();
        await wait(p.seat === scene.you ? 0 : table.pace.bid, quick);
        break;
      case "play": {
        if (round) round.phase = "playing";
        if (scene.trickWinner !== null || scene.trickBombed) {
          scene.trick = []; scene.trickWinner = null; scene.trickBombed = false;
        }
        notices.hideNotice("werewolf");
        const from = originOf(table, p.seat, p.card);
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
        notices.announce(fmt(gettext("%(name)s plays %(card)s."), { name: name(p.seat), card: cardLabel(p.card, declared) }));
        render();
        if (!quick) sound.cardPlayed();
        flyIn(table, from, quick);
        await wait(p.seat === scene.you ? table.pace.ownPlay : table.pace.play, quick);
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
        notices.announce(!bombed ? trickWonText(p.seat)
          : leads === null ? gettext("Nobody takes the trick: it holds the Bomb.")
            : fmt(gettext("Nobody takes the trick: it holds the Bomb. %(name)s leads next."), { name: name(leads) }));
        render();
        if (!quick) sound.trickWon();
        if (table.paceName === "instant" && !quick) {  // it stays until the next card is played
          if (table.receivedCard) notices.showReceived(null);
          break;
        }
        await wait(table.pace.hold, quick);
        sweep(table, bombed ? null : p.seat, quick);  // runs on while the next events (or your next move) come
        scene.trick = [];
        scene.trickWinner = null;
        scene.trickBombed = false;
        if (table.receivedCard) notices.showReceived(null);  // the trick after the pass is over: the notice has done its job
        render();
        break;
      }
      case "adjust": {  // R24: the Cloud's winner changes their bid
        const bid = round && round.bids[p.seat] !== null ? round.bids[p.seat] + p.delta : null;
        if (round) round.bids[p.seat] = bid;
        scene.to_act = p.seat;
        const mine = p.seat === table.view.you;
        const text = mine
          ? fmt(p.delta > 0 ? gettext("You raise your bid to %(bid)s (the Cloud).") : gettext("You lower your bid to %(bid)s (the Cloud)."), { bid })
          : fmt(p.delta > 0 ? gettext("%(name)s raises their bid to %(bid)s (the Cloud).")
            : gettext("%(name)s lowers their bid to %(bid)s (the Cloud)."), { name: name(p.seat), bid });
        notices.announce(text);
        notices.showNotice("adjust", text, { ms: table.pace.hold * 1.5 });
        render();
        await wait(table.pace.bid, quick);
        break;
      }
      case "pass": {  // R24: a card chosen to pass to the left; only its giver sees which
        if (round) round.phase = "passing";
        const mine = p.seat === scene.you && p.card;
        if (mine && scene.hand) scene.hand = scene.hand.filter((c) => c !== p.card);
        scene.to_act = p.seat;
        notices.announce(mine
          ? fmt(gettext("You pass %(card)s to %(name)s."), { card: cardLabel(p.card), name: name((p.seat + 1) % scene.seats) })
          : fmt(gettext("%(name)s has chosen a card to pass."), { name: name(p.seat) }));
        render();
        if (!quick) sound.cardPlayed();
        await wait(p.seat === scene.you ? 0 : table.pace.bid, quick);
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
          notices.showReceived(received, name(from));
          notices.announce(fmt(gettext("You received %(card)s from %(name)s."), { card: cardLabel(received), name: name(from) }));
        } else {
          notices.announce(gettext("The passed cards change hands."));
        }
        render();
        await wait(table.pace.trump, quick);
        break;
      }
      case "round_scored":
        if (!quick) sound.roundEnd();
        await showSummary(p, quick);
        break;
      case "game_over":
        if (!quick && scene.you !== null && p.winners.includes(scene.you)) sound.won();
        notices.announce(fmt(gettext("Game over. Winner: %(names)s."), { names: p.winners.map(name).join(", ") }));
        break;
      default:
        break;
    }
  }

  /* "Ann wins the trick: 2 of 3 bid." — who, and how they stand against their bid. */
  function trickWonText(seat) {
    const round = table.scene.round;
    const bid = round ? round.bids[seat] : null;
    const won = round ? round.tricks_won[seat] : 0;
    return bid === null || bid === undefined
      ? fmt(gettext("%(name)s wins the trick."), { name: name(seat) })
      : fmt(gettext("%(name)s wins the trick: %(won)s won, %(bid)s bid."), { name: name(seat), won, bid });
  }

  function isBlindTrick() {  // R9: the blind round's trick plays itself, for everyone
    return table.view.blind_first_round && table.scene.round && table.scene.round.number === 1;
  }

  async function showSummary(p, quick) {
    const scene = table.scene;
    const round = scene.round;
    if (!round) return;
    const totals = scene.players.map((player) => player.score + p.points[player.seat]);
    const mine = scene.lastTrick && scene.you !== null && isBlindTrick()
      ? scene.lastTrick.cards.find((c) => c.seat === scene.you) : null;
    scene.players.forEach((player) => { player.score = totals[player.seat]; });
    notices.announce(fmt(gettext("Round %(n)s scored: %(results)s."), {
      n: round.number,
      results: scene.players.map((pl) => pl.username + " " + (p.points[pl.seat] > 0 ? "+" : "") + p.points[pl.seat]).join(", "),
    }));
    round.phase = "done";
    scene.to_act = null;
    render();
    if (quick) return;
    const button = roundSummary(scene, {
      round, points: p.points, totals, lastTrick: scene.lastTrick, blindCard: mine ? mine.card : null,
    });
    const box = $("round-summary");
    const previousFocus = document.activeElement;
    button.focus({ preventScroll: true });
    await new Promise((resolve) => {
      const ends = Date.now() + table.pace.summary;
      const left = $("summary-left");
      const timer = !table.pace.summary ? null : setInterval(() => {
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

  return { playOut };
}
