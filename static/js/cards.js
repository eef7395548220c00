/* Card rendering shared by the table and the replay: number + suit symbol and letter, so a
   card reads the same without colour vision. Codes are those of R1 (R13, W2, J4). */
"use strict";
(function (global) {
  const SUITS = {
    R: { name: "red", symbol: "◆" },
    G: { name: "green", symbol: "♣" },
    B: { name: "blue", symbol: "♠" },
    Y: { name: "yellow", symbol: "★" },
  };
  const SUIT_BY_NAME = { red: "R", green: "G", blue: "B", yellow: "Y" };

  function suitLabel(suit) {
    const names = { red: gettext("Red"), green: gettext("Green"), blue: gettext("Blue"), yellow: gettext("Yellow") };
    return names[suit] || suit;
  }

  function cardLabel(code) {
    const kind = code[0];
    if (kind === "W") return gettext("Wizard") + " " + code.slice(1);
    if (kind === "J") return gettext("Jester") + " " + code.slice(1);
    return suitLabel(SUITS[kind].name) + " " + code.slice(1);
  }

  /* A card element: a <button> when onClick is given, else a <span>. */
  function cardElement(code, options) {
    options = options || {};
    const el = document.createElement(options.onClick ? "button" : "span");
    el.className = "card" + (options.small ? " small" : "");
    el.dataset.card = code || "";
    if (!code) {
      el.classList.add("back");
      el.setAttribute("aria-label", gettext("Hidden card"));
      el.innerHTML = '<span class="rank">?</span>';
      return el;
    }
    const kind = code[0];
    const rank = document.createElement("span");
    rank.className = "rank";
    const suit = document.createElement("span");
    suit.className = "suit";
    if (kind === "W") {
      el.classList.add("wizard"); rank.textContent = "W"; suit.textContent = "✦ " + gettext("Wizard");
    } else if (kind === "J") {
      el.classList.add("jester"); rank.textContent = "J"; suit.textContent = gettext("Jester");
    } else {
      el.classList.add("suit-" + SUITS[kind].name);
      rank.textContent = code.slice(1);
      suit.textContent = SUITS[kind].symbol + " " + kind;
    }
    el.append(rank, suit);
    el.setAttribute("aria-label", cardLabel(code));
    el.title = cardLabel(code);
    if (options.onClick) {
      el.type = "button";
      el.addEventListener("click", () => options.onClick(code));
    }
    return el;
  }

  function suitBadge(suit) {
    if (!suit) return gettext("No trump");
    const letter = SUIT_BY_NAME[suit];
    return SUITS[letter].symbol + " " + suitLabel(suit);
  }

  global.WizardCards = { cardElement, cardLabel, suitLabel, suitBadge, SUIT_BY_NAME };
})(window);
