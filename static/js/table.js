/* The live table: renders the caller's own game view (API.md "The game view"), keeps it fresh
   over the websocket (full views carrying `seq`; resync on reconnect), and sends moves through
   the REST endpoint with the session cookie. The page never holds a card its player may not see:
   the server sends only this player's view. */
"use strict";
(function () {
  const root = document.getElementById("table");
  if (!root) return;
  const { cardElement, suitBadge, suitLabel } = window.WizardCards;
  const gameId = root.dataset.game;
  const apiUrl = root.dataset.api;
  const wsPath = root.dataset.ws;
  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => interpolate(text, values, true);

  let view = JSON.parse($("initial-view").textContent);
  const initialStatus = view.status;
  const initialYou = view.you;
  let socket = null;
  let retryDelay = 1000;
  let showingLastTrick = false;
  let flashTimer = null;
  let wasMyTurn = false;
  let sending = false;
  let overdueSynced = null;

  /* ---- network ------------------------------------------------------------------------- */
  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  async function sendMove(body) {
    if (sending) return;  // one move at a time: a second click must not send a second move
    sending = true;
    document.querySelectorAll("#controls button, #hand button").forEach((b) => { b.disabled = true; });
    showError("");
    try {
      const response = await fetch(apiUrl + "moves/", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ ...body, seq: view.seq }),
      });
      const payload = await response.json().catch(() => ({}));
      if (response.ok) {
        receive(payload);
      } else {
        const code = payload.error ? payload.error.code : "invalid";
        showError(errorText(code, payload.error && payload.error.message));
        requestSync();
      }
    } catch (error) {
      showError(gettext("Connection problem: your move was not sent. Try again."));
    } finally {
      sending = false;
      render();
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + wsPath);
    socket.addEventListener("open", () => {
      retryDelay = 1000;
      setConnection(true);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "state") receive(message.state);
      else if (message.type === "error") showError(errorText(message.error.code, message.error.message));
      else if (window.WizardChat) window.WizardChat.handle(message);
    });
    socket.addEventListener("close", () => {
      setConnection(false);
      setTimeout(connect, retryDelay);  // on reconnect the server sends the full view
      retryDelay = Math.min(retryDelay * 2, 10000);
    });
  }

  function requestSync() {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "sync" }));
    else fetch(apiUrl, { credentials: "same-origin" }).then((r) => r.ok && r.json()).then((v) => v && receive(v));
  }

  function receive(next) {
    if (!next || next.seq < view.seq) return;  // an older view arrived late: keep the newer one
    if (next.status !== initialStatus && (initialStatus === "open" || next.status === "aborted")) {
      location.reload();  // the table started (or was stopped): the page changes shape
      return;
    }
    if (next.you !== initialYou) { location.reload(); return; }
    const previous = view;
    view = next;
    if (previous.round && view.round && view.round.trick.cards.length === 0 && view.round.last_trick
        && JSON.stringify(previous.round.last_trick) !== JSON.stringify(view.round.last_trick)) {
      flashTrick(view.round.last_trick);
    } else if (previous.round && view.round && previous.round.number !== view.round.number
        && previous.round.trick.cards.length > 0) {
      flashTrick(null);
    }
    render();
  }

  /* ---- rendering ----------------------------------------------------------------------- */
  function playerName(seat) {
    const player = view.players.find((p) => p.seat === seat);
    return player ? player.username : fmt(gettext("Seat %(seat)s"), { seat: seat + 1 });
  }

  function render() {
    if (!$("seats")) return;  // an open table: the server-rendered waiting room
    renderTop();
    renderSeats();
    renderTrick();
    renderControls();
    renderHand();
    renderScores();
    renderGameOver();
    tick();
    const myTurn = view.legal !== null && view.status === "active";
    if (myTurn && !wasMyTurn) focusFirstControl();
    wasMyTurn = myTurn;
  }

  function renderTop() {
    const round = view.round;
    const totalRounds = Math.floor(60 / view.seats);
    $("round-info").textContent = round
      ? fmt(gettext("Round %(n)s of %(total)s"), { n: round.number, total: totalRounds }) + " · "
        + fmt(ngettext("%(cards)s card", "%(cards)s cards", round.cards), { cards: round.cards })
      : "";
    const turned = $("turned-card");
    turned.replaceChildren();
    if (round && round.trump_card) turned.append(cardElement(round.trump_card, { small: true }));
    else if (round) turned.append(document.createTextNode(gettext("nothing turned up")));
    $("trump").textContent = round
      ? (round.phase === "choosing_trump" ? gettext("being chosen by the dealer") : suitBadge(round.trump))
      : "";
  }

  function renderSeats() {
    const seats = $("seats");
    seats.replaceChildren();
    const round = view.round;
    for (let seat = 0; seat < view.seats; seat++) {
      const player = view.players.find((p) => p.seat === seat);
      const box = document.createElement("div");
      box.className = "seat" + (view.to_act === seat ? " acting" : "") + (view.you === seat ? " you" : "");
      box.dataset.seat = seat;
      const name = document.createElement("div");
      name.className = "name";
      name.append(document.createTextNode(player ? player.username : "—"));
      if (player && player.is_bot) name.append(badge(gettext("bot")));
      if (view.you === seat) name.append(badge(gettext("you")));
      if (round && round.dealer === seat) name.append(badge(gettext("dealer"), "dealer"));
      if (view.to_act === seat) name.append(badge(gettext("to act")));
      const stats = document.createElement("div");
      stats.className = "stats";
      const bid = round ? round.bids[seat] : null;
      stats.append(
        stat(gettext("Bid"), bid === null || bid === undefined ? "–" : String(bid)),
        stat(gettext("Tricks"), round ? String(round.tricks_won[seat]) : "0"),
        stat(gettext("Score"), player ? String(player.score) : "0"),
      );
      box.append(name, stats);
      const visible = view.visible_hands[String(seat)];
      if (visible) {  // R9: in the blind first round you see the others' cards
        const row = document.createElement("div");
        row.className = "cards";
        visible.forEach((code) => row.append(cardElement(code, { small: true })));
        box.append(row);
      }
      seats.append(box);
    }
  }

  function badge(text, extra) {
    const el = document.createElement("span");
    el.className = "badge" + (extra ? " " + extra : "");
    el.textContent = text;
    return el;
  }

  function stat(label, value) {
    const el = document.createElement("span");
    el.innerHTML = "";
    el.append(document.createTextNode(label + ": "));
    const strong = document.createElement("strong");
    strong.textContent = value;
    el.append(strong);
    return el;
  }

  function playedCards(cards, winner) {
    const row = document.createElement("div");
    row.className = "trick";
    cards.forEach(({ seat, card }) => {
      const cell = document.createElement("div");
      cell.className = "played" + (seat === winner ? " winner" : "");
      cell.append(cardElement(card), document.createTextNode(playerName(seat)));
      row.append(cell);
    });
    return row;
  }

  function renderTrick() {
    const round = view.round;
    const area = $("trick");
    if (flashTimer) return;  // a finished trick is on show for a moment
    area.replaceChildren();
    $("trick-title").textContent = gettext("Current trick");
    if (round && round.trick.cards.length) area.append(playedCards(round.trick.cards, null));
    else area.append(emptyNote(round && round.phase === "playing"
      ? fmt(gettext("%(name)s leads."), { name: playerName(round.trick.leader) }) : ""));
    const last = $("last-trick");
    last.replaceChildren();
    const toggle = $("last-trick-toggle");
    toggle.disabled = !(round && round.last_trick);
    toggle.setAttribute("aria-expanded", String(showingLastTrick));
    toggle.textContent = showingLastTrick ? gettext("Hide last trick") : gettext("Show last trick");
    if (showingLastTrick && round && round.last_trick) {
      last.append(document.createTextNode(fmt(gettext("%(name)s won:"), { name: playerName(round.last_trick.winner) })));
      last.append(playedCards(round.last_trick.cards, round.last_trick.winner));
    }
    last.hidden = !showingLastTrick;
  }

  function flashTrick(lastTrick) {
    const area = $("trick");
    clearTimeout(flashTimer);
    flashTimer = null;
    if (!lastTrick) return;
    area.replaceChildren(playedCards(lastTrick.cards, lastTrick.winner));
    $("trick-title").textContent = fmt(gettext("%(name)s wins the trick"), { name: playerName(lastTrick.winner) });
    flashTimer = setTimeout(() => { flashTimer = null; renderTrick(); }, 1600);
  }

  function emptyNote(text) {
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = text;
    return p;
  }

  function renderControls() {
    const controls = $("controls");
    controls.replaceChildren();
    const round = view.round;
    $("status-line").textContent = statusText();
    if (!view.legal || view.status !== "active") return;
    if (view.legal.bids) controls.append(bidPanel(round, view.legal.bids));
    if (view.legal.suits) controls.append(trumpPanel(view.legal.suits));
  }

  function statusText() {
    const round = view.round;
    if (view.status === "finished") return gettext("The game is over.");
    if (view.status === "aborted") return gettext("This game was stopped.");
    if (!round || view.to_act === null) return "";
    const mine = view.to_act === view.you;
    const name = playerName(view.to_act);
    if (round.phase === "choosing_trump") return mine ? gettext("A Wizard was turned up: choose the trump suit.") : fmt(gettext("%(name)s is choosing the trump suit."), { name });
    if (round.phase === "bidding") return mine ? gettext("Your bid: how many tricks will you win?") : fmt(gettext("%(name)s is bidding."), { name });
    return mine ? gettext("Your turn: play a card.") : fmt(gettext("%(name)s is playing."), { name });
  }

  function bidPanel(round, legalBids) {
    const panel = document.createElement("div");
    const label = document.createElement("p");
    label.className = "note";
    label.textContent = gettext("Choose your bid:");
    const row = document.createElement("div");
    row.className = "bids";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", gettext("Bids"));
    let forbidden = null;
    for (let bid = 0; bid <= round.cards; bid++) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = String(bid);
      button.dataset.bid = bid;
      if (legalBids.includes(bid)) {
        button.addEventListener("click", () => sendMove({ type: "bid", bid }));
      } else {
        forbidden = bid;
        button.disabled = true;
        button.title = gettext("Hook rule: not allowed for the dealer");
      }
      row.append(button);
    }
    panel.append(label, row);
    if (forbidden !== null) {  // R8: the only bid a legal list can miss is the dealer's hook bid
      panel.append(emptyNote(fmt(
        gettext("Hook rule: as the dealer you may not bid %(bid)s, because the bids would add up to %(cards)s."),
        { bid: forbidden, cards: round.cards })));
    }
    return panel;
  }

  function trumpPanel(suits) {
    const panel = document.createElement("div");
    panel.append(emptyNote(gettext("Choose the trump suit:")));
    const row = document.createElement("div");
    row.className = "bids";
    suits.forEach((suit) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.suit = suit;
      button.textContent = suitBadge(suit);
      button.addEventListener("click", () => sendMove({ type: "trump", suit }));
      row.append(button);
    });
    panel.append(row);
    return panel;
  }

  function renderHand() {
    const hand = $("hand");
    hand.replaceChildren();
    const note = $("hand-note");
    note.textContent = "";
    if (view.you === null) { note.textContent = gettext("You are watching this table."); return; }
    if (!view.round) return;
    if (view.hand === null) {  // R9: your own card stays hidden in the blind first round
      for (let i = 0; i < view.round.cards; i++) hand.append(cardElement(null));
      note.textContent = gettext("Blind round: you cannot see your own card, only the others'. Bid on what you see; the trick plays itself.");
      return;
    }
    const legal = view.legal && view.legal.cards ? view.legal.cards : null;
    view.hand.forEach((code) => {
      if (legal) {
        const card = cardElement(code, { onClick: (c) => sendMove({ type: "play", card: c }) });
        if (legal.includes(code)) card.classList.add("legal");
        else { card.disabled = true; card.title += " — " + gettext("not playable now"); }
        hand.append(card);
      } else {
        hand.append(cardElement(code));
      }
    });
    if (!view.hand.length) note.textContent = gettext("No cards left this round.");
  }

  function renderScores() {
    const box = $("scores");
    box.replaceChildren();
    if (!view.scores.length) { box.append(emptyNote(gettext("No round finished yet."))); return; }
    const table = document.createElement("table");
    const head = table.createTHead().insertRow();
    head.append(th(gettext("Round")));
    view.players.forEach((p) => head.append(th(p.username)));
    const body = table.createTBody();
    view.scores.forEach((record) => {
      const row = body.insertRow();
      row.append(th(String(record.round)));
      view.players.forEach((p) => {
        const s = p.seat;
        const cell = row.insertCell();
        const points = record.points[s];
        cell.textContent = fmt(gettext("%(bid)s/%(won)s → %(points)s (%(total)s)"), {
          bid: record.bids[s], won: record.tricks[s], points: points > 0 ? "+" + points : points, total: record.totals[s],
        });
        cell.title = fmt(gettext("bid %(bid)s, won %(won)s"), { bid: record.bids[s], won: record.tricks[s] });
      });
    });
    box.append(table);
  }

  function th(text) {
    const el = document.createElement("th");
    el.textContent = text;
    return el;
  }

  function renderGameOver() {
    const box = $("gameover");
    if (view.status !== "finished") { box.hidden = true; return; }
    box.hidden = false;
    const list = $("places");
    list.replaceChildren();
    const ranked = [...view.players].sort((a, b) => b.score - a.score);
    ranked.forEach((player) => {
      const place = 1 + view.players.filter((other) => other.score > player.score).length;  // R15
      const item = document.createElement("li");
      item.value = place;  // shared places keep the same number
      item.textContent = fmt(gettext("%(name)s — %(score)s points"), { name: player.username, score: player.score });
      if (place === 1) item.append(" ", badge(gettext("winner")));
      list.append(item);
    });
    $("seed").textContent = view.shuffle_seed || "";
    const rematch = $("rematch-link");
    if (view.rematch) { rematch.href = "/games/" + view.rematch + "/"; rematch.hidden = false; }
  }

  function focusFirstControl() {
    const active = document.activeElement;
    if (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA")) return;
    const target = document.querySelector("#controls button:not([disabled]), #hand button.legal");
    if (target) target.focus({ preventScroll: true });
  }

  /* ---- countdown, errors, connection ---------------------------------------------------- */
  function tick() {
    const el = $("countdown");
    if (!el) return;
    if (!view.deadline || view.status !== "active") { el.textContent = ""; return; }
    const left = Math.max(0, Math.ceil((Date.parse(view.deadline) - Date.now()) / 1000));
    el.textContent = fmt(gettext("%(seconds)s s left"), { seconds: left });
    el.classList.toggle("low", left <= 10);
    if (left === 0 && overdueSynced !== view.deadline) {  // the timer's move is due: fetch it
      overdueSynced = view.deadline;
      setTimeout(requestSync, 1500);
    }
  }

  function showError(text) {
    const line = $("error-line");
    if (line) line.textContent = text || "";
  }

  function errorText(code, fallback) {
    const texts = JSON.parse($("error-texts").textContent);
    return texts[code] || fallback || code;
  }

  function setConnection(up) {
    const el = $("connection");
    if (!el) return;
    el.textContent = up ? gettext("live") : gettext("reconnecting…");
    el.classList.toggle("down", !up);
  }

  const toggle = $("last-trick-toggle");
  if (toggle) toggle.addEventListener("click", () => { showingLastTrick = !showingLastTrick; renderTrick(); });
  document.querySelectorAll("[data-copy]").forEach((button) => button.addEventListener("click", () => {
    const input = $(button.dataset.copy);
    input.select();
    if (navigator.clipboard) navigator.clipboard.writeText(input.value);
    button.textContent = gettext("Copied");
  }));

  render();
  connect();
  setInterval(tick, 250);
  setInterval(() => { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "sync" })); }, 20000);
  window.WizardTable = { get view() { return view; }, sendMove, gameId };
})();
