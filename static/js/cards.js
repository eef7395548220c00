/* Card faces drawn as SVG, shared by the table and the replay: the number, the suit's symbol
   and its letter in the player's language sit in the top-left corner, so a card reads the same
   without colour vision and while fanned. Codes are those of R1 (R13, W2, J4). */
import { gettext, pgettext } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
export const SUIT_BY_LETTER = { R: "red", G: "green", B: "blue", Y: "yellow" };
export const LETTER_BY_SUIT = { red: "R", green: "G", blue: "B", yellow: "Y" };

/* Each symbol fits a 20×20 box centred on 0,0. */
const SYMBOLS = {
  red: [["polygon", { points: "0,-10 8,0 0,10 -8,0" }]],
  green: [
    ["circle", { cx: 0, cy: -4.5, r: 4.6 }], ["circle", { cx: -5, cy: 2.5, r: 4.6 }],
    ["circle", { cx: 5, cy: 2.5, r: 4.6 }], ["polygon", { points: "-1.6,1 1.6,1 3.4,10 -3.4,10" }],
  ],
  blue: [["path", { d: "M0,-10C5,-5 10,-1 10,3.5A4.4,4.4 0 0 1 1.8,5.5L3.4,10L-3.4,10L-1.8,5.5A4.4,4.4 0 0 1 -10,3.5C-10,-1 -5,-5 0,-10Z" }]],
  yellow: [["polygon", { points: "0,-10 2.9,-3.1 9.5,-3.1 4.2,1.4 6.2,8.6 0,4.4 -6.2,8.6 -4.2,1.4 -9.5,-3.1 -2.9,-3.1" }]],
  wizard: [["polygon", { points: "0,-10 2.2,-2.2 10,0 2.2,2.2 0,10 -2.2,2.2 -10,0 -2.2,-2.2" }],
    ["circle", { cx: 0, cy: 0, r: 2.2 }]],
  jester: [["path", { d: "M-9,7L-6.5,-5L-2,1L0,-8L2,1L6.5,-5L9,7Z" }],
    ["circle", { cx: -6.5, cy: -6.5, r: 1.8 }], ["circle", { cx: 0, cy: -9, r: 1.8 }],
    ["circle", { cx: 6.5, cy: -6.5, r: 1.8 }]],
};

function node(name, attributes, parent) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) el.setAttribute(key, String(value));
  if (parent) parent.append(el);
  return el;
}

function symbol(kind, x, y, scale, parent) {
  const group = node("g", { transform: `translate(${x} ${y}) scale(${scale})`, class: "symbol" }, parent);
  SYMBOLS[kind].forEach(([name, attributes]) => node(name, attributes, group));
  return group;
}

/* A suit's symbol on its own (trump indicator, trump buttons). */
export function suitIcon(suit, size = 18) {
  const svg = node("svg", { viewBox: "-11 -11 22 22", width: size, height: size, class: "suit-icon suit-" + suit, "aria-hidden": "true", focusable: "false" });
  symbol(suit, 0, 0, 1, svg);
  return svg;
}

export function suitLabel(suit) {
  const names = { red: gettext("Red"), green: gettext("Green"), blue: gettext("Blue"), yellow: gettext("Yellow") };
  return names[suit] || suit;
}

/* The suit's letter in the player's language (R/G/B/Y in English). */
export function suitLetter(suit) {
  const letters = {
    red: pgettext("suit letter", "R"), green: pgettext("suit letter", "G"),
    blue: pgettext("suit letter", "B"), yellow: pgettext("suit letter", "Y"),
  };
  return letters[suit] || "";
}

/* The special cards as the rules text of the player's language names them. */
export const wizardName = () => pgettext("card", "Wizard");
export const jesterName = () => pgettext("card", "Jester");

export function cardLabel(code) {
  if (!code) return gettext("Hidden card");
  const kind = code[0];
  if (kind === "W") return wizardName();
  if (kind === "J") return jesterName();
  return suitLabel(SUIT_BY_LETTER[kind]) + " " + code.slice(1);
}

/* The card's face as an SVG picture 60×88. */
export function cardFace(code) {
  const svg = node("svg", { viewBox: "0 0 60 88", class: "face", "aria-hidden": "true", focusable: "false" });
  node("rect", { x: 1, y: 1, width: 58, height: 86, rx: 6, class: "bg" }, svg);
  if (!code) {
    node("rect", { x: 6, y: 6, width: 48, height: 76, rx: 4, class: "pattern" }, svg);
    symbol("wizard", 30, 44, 1.4, svg);
    return svg;
  }
  const kind = code[0];
  const special = kind === "W" ? "wizard" : kind === "J" ? "jester" : null;
  const name = special === "wizard" ? wizardName() : special === "jester" ? jesterName() : null;
  const suit = special || SUIT_BY_LETTER[kind];
  const corner = name ? name.slice(0, 1).toUpperCase() : code.slice(1);
  const rank = node("text", { x: 4, y: 19, class: "rank" }, svg);
  rank.textContent = corner;
  symbol(suit, 10, 29, 0.55, svg);
  const letter = node("text", { x: 10, y: 47, class: "letter", "text-anchor": "middle" }, svg);
  letter.textContent = name ? "" : suitLetter(suit);
  symbol(suit, 36, 46, 1.35, svg);
  if (name) {
    const label = node("text", { x: 33, y: 80, class: "name", "text-anchor": "middle" }, svg);
    label.textContent = name;
    if (name.length > 7) label.setAttribute("textLength", "46");
  } else {
    const bottom = node("text", { x: 55, y: 82, class: "rank small", "text-anchor": "end" }, svg);
    bottom.textContent = code.slice(1);
  }
  return svg;
}

/* A card: a <button> when `onClick` is given, else a <span>. */
export function cardElement(code, { small = false, onClick = null, testid = null } = {}) {
  const el = document.createElement(onClick ? "button" : "span");
  el.className = "card" + (small ? " small" : "");
  if (!code) el.classList.add("back");
  else if (code[0] === "W") el.classList.add("wizard");
  else if (code[0] === "J") el.classList.add("jester");
  else el.classList.add("suit-" + SUIT_BY_LETTER[code[0]]);
  el.dataset.card = code || "";
  if (testid) el.dataset.testid = testid;
  el.append(cardFace(code));
  el.setAttribute(onClick ? "aria-label" : "title", cardLabel(code));
  if (!onClick) el.setAttribute("role", "img"), el.setAttribute("aria-label", cardLabel(code));
  if (onClick) {
    el.type = "button";
    el.addEventListener("click", () => onClick(code));
  }
  return el;
}

/* The trump in words with its symbol: an element for the table's top bar and buttons. */
export function suitBadge(suit) {
  const span = document.createElement("span");
  span.className = "suit-badge";
  if (!suit) { span.textContent = gettext("No trump"); return span; }
  span.append(suitIcon(suit), document.createTextNode(" " + suitLabel(suit)));
  return span;
}

export function suitText(suit) {
  return suit ? suitLabel(suit) : gettext("No trump");
}
