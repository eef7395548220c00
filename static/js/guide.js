/* A guided game's hint (games.guide): on each of your decisions, what you may do and why, and
   on request what the hard bot would do in your place. */
import { gettext, fmt } from "./i18n.js";
import { fetchJSON } from "./net.js";
import { cardLabel, suitLabel } from "./cards.js";

const REASONS = {
  bid: () => gettext("You may bid any number from 0 to %(cards)s: how many tricks do you expect to win? Wizards and high trumps usually take one each."),
  bid_hook: () => gettext("You bid last, as the dealer: the bids may not add up to %(cards)s (the hook rule), so you may not bid %(forbidden)s."),
  trump: () => gettext("A Wizard was turned up, so you, the dealer, choose trump. The suit you hold most of is usually the best choice."),
  lead: () => gettext("You lead this trick: play any card. The others must follow its suit if they can."),
  follow: () => gettext("%(suit)s was led and you hold some: play one of them, or a Wizard or a Jester."),
  cannot_follow: () => gettext("%(suit)s was led and you hold none: play any card. A trump wins the trick unless a higher trump or a Wizard comes."),
  wizard_first: () => gettext("A Wizard was played first: it wins this trick and there is no suit to follow. Play any card: a good moment to get rid of one you do not want."),
  jesters_first: () => gettext("Only Jesters so far: the first card of a suit sets the suit to follow. Play any card."),
};

function suggestion(move) {
  if (move.type === "bid") return fmt(gettext("The hard bot would bid %(bid)s."), { bid: move.bid });
  if (move.type === "trump") return fmt(gettext("The hard bot would choose %(suit)s."), { suit: suitLabel(move.suit) });
  return fmt(gettext("The hard bot would play %(card)s."), { card: cardLabel(move.card) });
}

/* Starts the guide of the table page, if it has one; `update(view)` after every render. */
export function startGuide() {
  const box = document.getElementById("guide");
  if (!box) return { update() {} };
  const why = document.getElementById("guide-why");
  const bot = document.getElementById("guide-bot");
  const show = document.getElementById("guide-show");
  let asked = null;  // the seq whose hint is shown or on its way
  let hint = null;
  show.addEventListener("click", () => {
    if (!hint || !hint.suggestion) return;
    bot.textContent = suggestion(hint.suggestion);
    bot.hidden = false;
  });
  return {
    async update(view) {
      const yours = view.status === "active" && view.to_act !== null && view.to_act === view.you;
      if (!yours) { box.hidden = true; asked = null; return; }
      if (asked === view.seq) return;
      asked = view.seq;
      const { ok, data } = await fetchJSON(box.dataset.hint).catch(() => ({ ok: false }));
      if (!ok || asked !== view.seq || data.reason === "wait") return;
      hint = data;
      const text = REASONS[data.reason] ? REASONS[data.reason]() : "";
      why.textContent = fmt(text, {
        cards: data.cards, forbidden: data.forbidden, suit: data.lead_suit ? suitLabel(data.lead_suit) : "",
      });
      bot.hidden = true;
      box.hidden = false;
    },
  };
}
