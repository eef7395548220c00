/* Replay of a finished game: folds its event rows step by step, every hand shown. The events
   carry every result (trick winners, round points), so the page needs no rules of its own. */
"use strict";
(function () {
  const { cardElement, suitBadge } = window.WizardCards;
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => interpolate(text, values, true);
  const events = JSON.parse($("events").textContent);
  const players = JSON.parse($("players").textContent);
  const seatCount = JSON.parse($("seat-count").textContent);
  const name = (seat) => (players.find((p) => p.seat === seat) || { username: "?" }).username;

  function initial() {
    return { round: 0, cards: 0, dealer: null, hands: [], turned: null, trump: null, bids: [], tricks: [],
      trick: [], lastWinner: null, totals: new Array(seatCount).fill(0) };
  }

  /* The state after each event, and a sentence saying what happened. */
  const frames = [];
  (function fold() {
    let s = initial();
    for (const e of events) {
      s = structuredClone(s);
      let what = "";
      switch (e.type) {
        case "game_started": what = gettext("The game starts."); break;
        case "deal":
          Object.assign(s, { round: e.round, cards: e.round, dealer: e.dealer, hands: e.hands.map((h) => [...h]),
            turned: null, trump: null, bids: new Array(seatCount).fill(null), tricks: new Array(seatCount).fill(0), trick: [], lastWinner: null });
          what = fmt(gettext("Round %(n)s: %(name)s deals %(k)s cards each."), { n: e.round, name: name(e.dealer), k: e.round });
          break;
        case "trump_turned":
          s.turned = e.card;
          s.trump = e.card && "RGBY".includes(e.card[0]) ? { R: "red", G: "green", B: "blue", Y: "yellow" }[e.card[0]] : null;
          what = e.card ? fmt(gettext("%(card)s is turned up."), { card: window.WizardCards.cardLabel(e.card) }) : gettext("Last round: nothing is turned up, no trump.");
          break;
        case "trump_chosen": s.trump = e.suit; what = fmt(gettext("%(name)s chooses %(suit)s as trump."), { name: name(e.seat), suit: suitBadge(e.suit) }); break;
        case "bid": s.bids[e.seat] = e.bid; what = fmt(gettext("%(name)s bids %(bid)s."), { name: name(e.seat), bid: e.bid }); break;
        case "play":
          s.hands[e.seat] = s.hands[e.seat].filter((c) => c !== e.card);
          if (s.lastWinner !== null) { s.trick = []; s.lastWinner = null; }
          s.trick.push({ seat: e.seat, card: e.card });
          what = fmt(gettext("%(name)s plays %(card)s."), { name: name(e.seat), card: window.WizardCards.cardLabel(e.card) });
          break;
        case "trick_won": s.tricks[e.seat] += 1; s.lastWinner = e.seat; what = fmt(gettext("%(name)s wins the trick."), { name: name(e.seat) }); break;
        case "round_scored":
          s.totals = s.totals.map((t, i) => t + e.points[i]);
          what = gettext("Round scored: ") + e.points.map((p, i) => name(i) + " " + (p > 0 ? "+" : "") + p).join(", ");
          break;
        case "game_over": what = fmt(gettext("Game over. Winner: %(names)s."), { names: e.winners.map(name).join(", ") }); break;
        default: what = e.type;
      }
      if (e.auto && (e.type === "bid" || e.type === "play" || e.type === "trump_chosen")) what += " " + gettext("(automatic)");
      frames.push({ state: s, what });
    }
  })();

  let index = 0;
  const slider = $("step");
  slider.max = String(Math.max(0, frames.length - 1));

  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    slider.value = String(index);
    const { state: s, what } = frames[index];
    $("what").textContent = what;
    $("position").textContent = fmt(gettext("step %(i)s of %(n)s"), { i: index + 1, n: frames.length });
    $("round-info").textContent = s.round ? fmt(gettext("Round %(n)s"), { n: s.round }) : "";
    $("turned-card").replaceChildren(s.turned ? cardElement(s.turned, { small: true }) : document.createTextNode("—"));
    $("trump").textContent = suitBadge(s.trump);
    const seats = $("seats");
    seats.replaceChildren();
    for (let seat = 0; seat < seatCount; seat++) {
      const box = document.createElement("div");
      box.className = "seat";
      const title = document.createElement("div");
      title.className = "name";
      title.textContent = name(seat) + (s.dealer === seat ? " · " + gettext("dealer") : "");
      const stats = document.createElement("div");
      stats.className = "stats";
      const bid = s.bids[seat];
      stats.textContent = fmt(gettext("Bid %(bid)s · Tricks %(tricks)s · Score %(score)s"),
        { bid: bid === null || bid === undefined ? "–" : bid, tricks: s.tricks[seat] || 0, score: s.totals[seat] });
      const hand = document.createElement("div");
      hand.className = "cards";
      (s.hands[seat] || []).forEach((c) => hand.append(cardElement(c, { small: true })));
      box.append(title, stats, hand);
      seats.append(box);
    }
    const trick = $("trick");
    trick.replaceChildren();
    const row = document.createElement("div");
    row.className = "trick";
    s.trick.forEach(({ seat, card }) => {
      const cell = document.createElement("div");
      cell.className = "played" + (seat === s.lastWinner ? " winner" : "");
      cell.append(cardElement(card), document.createTextNode(name(seat)));
      row.append(cell);
    });
    trick.append(row);
  }

  function roundStart(direction) {
    let i = index + direction;
    while (i > 0 && i < frames.length - 1 && events[i].type !== "deal") i += direction;
    show(i);
  }

  $("first").addEventListener("click", () => show(0));
  $("last").addEventListener("click", () => show(frames.length - 1));
  $("prev").addEventListener("click", () => show(index - 1));
  $("next").addEventListener("click", () => show(index + 1));
  $("prev-round").addEventListener("click", () => roundStart(-1));
  $("next-round").addEventListener("click", () => roundStart(1));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") { show(index + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { show(index - 1); e.preventDefault(); }
  });
  show(0);
})();
