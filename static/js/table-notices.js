/* What the table says in words: the live region that reads each event out, the notice of a
   move the server made for you, the table's notice (a Werewolf's swap, a Cloud's change), the
   card passed to you, the error line and the connection's state. */
import { gettext, fmt } from "./i18n.js";
import { cardElement, cardLabel, suitText } from "./cards.js";

const $ = (id) => document.getElementById(id);

export function startNotices(table) {
  let noticeKind = null;         // what the notice on the table says: "werewolf" or "adjust"
  let noticeTimer = null;
  let autoTimer = null;
  const autoBox = $("auto-move-notice");
  autoBox.querySelector("button").addEventListener("click", () => { autoBox.hidden = true; });

  /* The polite live region: each event as it is played out (at the table's pace, so a bot's
     burst is read as it is shown), your turn, your clock, players away and back, chat. */
  function announce(text) {
    if (table.catchingUp || !text) return;
    const box = $("announcer");
    const line = document.createElement("p");
    line.textContent = text;
    box.append(line);
    while (box.childElementCount > 5) box.firstElementChild.remove();
  }

  function autoNotice(event) {
    const p = event.payload;
    const view = table.view;
    const me = view.players.find((player) => player.seat === view.you);
    autoBox.querySelector(".text").textContent = me && me.away  // R18: the medium bot plays for you
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
    autoBox.hidden = false;
    clearTimeout(autoTimer);
    autoTimer = setTimeout(() => { autoBox.hidden = true; }, 10000);
  }

  const hideAutoNotice = () => { autoBox.hidden = true; };

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

  /* Hides the table's notice; with a `kind`, only a notice of that kind. */
  function hideNotice(kind = null) {
    if (kind !== null && noticeKind !== kind) return;
    clearTimeout(noticeTimer);
    noticeKind = null;
    const box = $("table-notice");
    box.hidden = true;
    box.replaceChildren();
  }

  /* The card you received after a Juggler's trick (R24), named above your hand until you have
     played the trick after it; null hides the notice. */
  function showReceived(card, from) {
    table.receivedCard = card;
    const box = $("pass-received");
    box.replaceChildren();
    box.hidden = !card;
    if (!card) return;
    box.dataset.card = card;
    box.append(cardElement(card, { small: true }), " ",
      document.createTextNode(fmt(gettext("You received %(card)s from %(name)s."), { card: cardLabel(card), name: from })));
  }

  /* R18: a player marked away, or back. */
  function announceAway(before, after) {
    after.forEach((p) => {
      const was = before.find((q) => q.seat === p.seat);
      if (!was || !!was.away === !!p.away || p.is_bot) return;
      if (p.seat === table.view.you) announce(p.away ? gettext("You are marked away.") : gettext("You are back."));
      else announce(fmt(p.away ? gettext("%(name)s is away.") : gettext("%(name)s is back."), { name: p.username }));
    });
  }

  function showError(text) {
    $("error-line").textContent = text || "";
  }

  function errorText(code, fallback) {
    return table.texts[code] || fallback || code;
  }

  /* The socket's state; `data-live` says it for scripts and tests. */
  function setConnection(up) {
    const box = $("connection");
    box.textContent = up ? gettext("live") : gettext("reconnecting…");
    box.classList.toggle("down", !up);
    box.dataset.live = String(up);
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
    box.dataset.live = "false";
    showError(why);
  }

  return {
    announce, autoNotice, hideAutoNotice, showNotice, hideNotice, showReceived, announceAway,
    showError, errorText, setConnection, showStopped,
  };
}
