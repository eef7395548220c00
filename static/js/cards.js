/* Card faces drawn as SVG, shared by the table and the replay: the number, the suit's symbol
   and its letter in the player's language sit in the top-left corner, so a card reads the same
   without colour vision and while fanned. Codes are those of R1 (R13, W2, J4) and R20 (DR, FA,
   BO, WW, JU, CL, SH); a special card names itself and its effect on hover and long-press. */
import { gettext, pgettext, fmt } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
export const SUIT_BY_LETTER = { R: "red", G: "green", B: "blue", Y: "yellow" };
export const LETTER_BY_SUIT = { red: "R", green: "G", blue: "B", yellow: "Y" };
/* R20's special cards by code, and the cards each of the API's `special_cards` names. */
export const SPECIAL_BY_CODE = { DR: "dragon", FA: "fairy", BO: "bomb", WW: "werewolf", JU: "juggler", CL: "cloud", SH: "shapeshifter" };
export const SPECIAL_OPTIONS = {
  dragon_fairy: ["DR", "FA"], bomb: ["BO"], werewolf: ["WW"], juggler: ["JU"], cloud: ["CL"], shapeshifter: ["SH"],
};
export const NAMES_A_SUIT = ["JU", "CL"];  // R24: played as a card of the suit its player names
export const SHAPESHIFTER = "SH";          // R25: played as a Wizard or a Jester
export const WEREWOLF = "WW";

/* What kind of card a code is: "back" (hidden), "wizard", "jester", "suit" or a special card's
   name. A played card may carry its declaration after a colon ("JU:red", as the replay has it). */
export function cardKind(code) {
  if (!code) return "back";
  const bare = code.split(":")[0];
  if (SPECIAL_BY_CODE[bare]) return SPECIAL_BY_CODE[bare];
  if (/^W\d+$/.test(bare)) return "wizard";
  if (/^J\d+$/.test(bare)) return "jester";
  return "suit";
}

/* The suit of a plain suit card (R7 → red), else null: a special card has none of its own. */
export function suitOf(code) {
  return code && /^[RGBY]\d+$/.test(code) ? SUIT_BY_LETTER[code[0]] : null;
}

/* A face as the replay gives it ("JU:red") split into its card and declaration. */
export function splitFace(code) {
  if (!code || !code.includes(":")) return { card: code, declared: null };
  const [card, declared] = code.split(":");
  return { card, declared: declared || null };
}

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
  // R20's special cards, drawn in the same 20×20 box.
  dragon: [["path", { d: "M-9.5,-2.5L-4,-4.5L-1,-7.5L1,-10.5L1.5,-7L4.5,-9.5L4,-5.5L7.5,-3L9,2L6.5,9.5L2.5,10L4.5,4L2.5,1.5L-1,2.5L-5,1L-9.5,1.5L-6.5,-0.5Z" }],
    ["circle", { cx: -2, cy: -4.2, r: 1, class: "eye" }]],
  fairy: [["ellipse", { cx: -4.6, cy: -3.2, rx: 3.6, ry: 6.2, transform: "rotate(-28 -4.6 -3.2)", class: "wing" }],
    ["ellipse", { cx: 4.6, cy: -3.2, rx: 3.6, ry: 6.2, transform: "rotate(28 4.6 -3.2)", class: "wing" }],
    ["ellipse", { cx: -3.6, cy: 5, rx: 2.6, ry: 4, transform: "rotate(30 -3.6 5)", class: "wing" }],
    ["ellipse", { cx: 3.6, cy: 5, rx: 2.6, ry: 4, transform: "rotate(-30 3.6 5)", class: "wing" }],
    ["rect", { x: -1, y: -5, width: 2, height: 14, rx: 1 }], ["circle", { cx: 0, cy: -7.5, r: 2 }]],
  bomb: [["circle", { cx: -1.5, cy: 2.5, r: 7.5 }], ["rect", { x: 1.2, y: -6.8, width: 4, height: 3.6, rx: .6, transform: "rotate(40 3.2 -5)" }],
    ["path", { d: "M4.5,-6.5Q6,-10 9,-9", fill: "none", stroke: "currentColor", "stroke-width": 1.4, class: "fuse" }],
    ["polygon", { points: "9,-12 9.8,-9.8 12,-9 9.8,-8.2 9,-6 8.2,-8.2 6,-9 8.2,-9.8", class: "spark" }]],
  werewolf: [["path", { d: "M-9,-10L-3.5,-4.5L3.5,-4.5L9,-10L8.5,0L4,6L1.5,10L-1.5,10L-4,6L-8.5,0Z" }],
    ["circle", { cx: -3.4, cy: -0.5, r: 1.3, class: "eye" }], ["circle", { cx: 3.4, cy: -0.5, r: 1.3, class: "eye" }]],
  juggler: [["circle", { cx: -6.4, cy: 4.6, r: 3.4, class: "ball-red" }], ["circle", { cx: -3.6, cy: -5.6, r: 3.4, class: "ball-green" }],
    ["circle", { cx: 4.2, cy: -5.8, r: 3.4, class: "ball-blue" }], ["circle", { cx: 6.4, cy: 4.4, r: 3.4, class: "ball-yellow" }]],
  cloud: [["path", { d: "M-7.5,7A4.5,4.5 0 0 1 -8,-1.5A5,5 0 0 1 -1,-5.5A6,6 0 0 1 8.5,-1A4.2,4.2 0 0 1 7.5,7Z" }]],
  shapeshifter: [["polygon", { points: "0,-10 2.2,-2.2 10,0 2.2,2.2 0,10 -2.2,2.2 -10,0 -2.2,-2.2", transform: "translate(0 -4.6) scale(.56)", class: "as-wizard" }],
    ["path", { d: "M-9,7L-6.5,-5L-2,1L0,-8L2,1L6.5,-5L9,7Z", transform: "translate(0 5.6) scale(.5)", class: "as-jester" }]],
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

/* R20's special cards: each one's name, as the rules text of the player's language has it, and a
   one-line reminder of what it does (R21–R25). */
export function specialName(kind) {
  const names = {
    dragon: pgettext("card", "Dragon"), fairy: pgettext("card", "Fairy"), bomb: pgettext("card", "Bomb"),
    werewolf: pgettext("card", "Werewolf"), juggler: pgettext("card", "Juggler"), cloud: pgettext("card", "Cloud"),
    shapeshifter: pgettext("card", "Shapeshifter"),
  };
  return names[kind] || kind;
}

export function specialReminder(kind) {
  const reminders = {
    dragon: gettext("Beats every card, Wizards included; only the Fairy takes a trick from it."),
    fairy: gettext("Loses to every card, Jesters included, but wins a trick that holds the Dragon."),
    bomb: gettext("Nobody wins the trick that holds it."),
    werewolf: gettext("Its holder swaps it for the turned-up card and chooses trump, or no trump."),
    juggler: gettext("A 7½ of the suit you name; after its trick everyone passes a card to the left."),
    cloud: gettext("A 9¾ of the suit you name; whoever wins its trick changes their bid by one."),
    shapeshifter: gettext("Played as a Wizard or a Jester, as you choose."),
  };
  return reminders[kind] || "";
}

/* What a declaration reads as: a suit's name, or the Wizard or Jester a Shapeshifter became. */
export function declaredLabel(declared) {
  if (declared === "wizard") return wizardName();
  if (declared === "jester") return jesterName();
  return suitLabel(declared);
}

/* A card's name ("Red 7", "Wizard", "Juggler"); with a declaration, what it was played as. */
export function cardLabel(code, declared = null) {
  if (!code) return gettext("Hidden card");
  const face = splitFace(code);
  code = face.card;
  declared = declared || face.declared;
  const kind = cardKind(code);
  if (kind === "wizard") return wizardName();
  if (kind === "jester") return jesterName();
  if (kind !== "suit") {
    const name = specialName(kind);
    return declared ? fmt(gettext("%(card)s as %(face)s"), { card: name, face: declaredLabel(declared) }) : name;
  }
  return suitLabel(SUIT_BY_LETTER[code[0]]) + " " + code.slice(1);
}

/* The longer text a card's hover and long-press show: a special card's name and its effect. */
export function cardHint(code, declared = null) {
  const kind = cardKind(splitFace(code).card);
  const label = cardLabel(code, declared);
  return SPECIAL_BY_CODE[splitFace(code).card] ? label + " — " + specialReminder(kind) : label;
}

/* The card's face as an SVG picture 60×88. A special card shows its name's initial (the Juggler
   and the Cloud their value, R24) where a suit card has its number; played with a declaration
   (R24, R25) its corner reads as the card it became: the suit's symbol and letter, or the
   Wizard's or Jester's, in a frame of that colour. */
export function cardFace(code, declared = null) {
  const svg = node("svg", { viewBox: "0 0 60 88", class: "face", "aria-hidden": "true", focusable: "false" });
  node("rect", { x: 1, y: 1, width: 58, height: 86, rx: 6, class: "bg" }, svg);
  if (!code) {
    node("rect", { x: 6, y: 6, width: 48, height: 76, rx: 4, class: "pattern" }, svg);
    symbol("wizard", 30, 44, 1.4, svg);
    return svg;
  }
  const kind = cardKind(code);
  if (kind === "suit") {
    const suit = SUIT_BY_LETTER[code[0]];
    corner(svg, code.slice(1), suit, suitLetter(suit));
    symbol(suit, 36, 46, 1.35, svg);
    const bottom = node("text", { x: 55, y: 82, class: "rank small", "text-anchor": "end" }, svg);
    bottom.textContent = code.slice(1);
    return svg;
  }
  const name = kind === "wizard" ? wizardName() : kind === "jester" ? jesterName() : specialName(kind);
  if (kind === "shapeshifter") node("path", { d: "M1,47.5H59V81A6,6 0 0 1 53,87H7A6,6 0 0 1 1,81Z", class: "half" }, svg);
  if (declared) node("rect", { x: 2.5, y: 2.5, width: 55, height: 83, rx: 5, class: "frame decl-" + declared }, svg);
  const value = { juggler: "7½", cloud: "9¾" }[kind];
  const initial = value || name.slice(0, 1).toUpperCase();
  if (declared && declared !== "wizard" && declared !== "jester") {
    corner(svg, initial, declared, suitLetter(declared), "decl-" + declared);
  } else if (declared) {
    corner(svg, (declared === "wizard" ? wizardName() : jesterName()).slice(0, 1).toUpperCase(), declared, "", "decl-" + declared);
  } else {
    corner(svg, initial, kind, "");
  }
  symbol(kind, 36, 46, 1.35, svg);
  const label = node("text", { x: 33, y: 80, class: "name", "text-anchor": "middle" }, svg);
  label.textContent = name;
  if (kind !== "wizard" && kind !== "jester" && name.length > 7) {  // "Shapeshifter", "Hombre lobo"
    label.classList.add("long");
    label.setAttribute("x", "30");
    label.setAttribute("textLength", String(Math.min(52, name.length * 5)));
    label.setAttribute("lengthAdjust", "spacingAndGlyphs");
  } else if (name.length > 7) label.setAttribute("textLength", "46");
  return svg;
}

/* The top-left index: the number (or initial), the symbol and the suit's letter. */
function corner(svg, rank, kind, letter, extra = "") {
  const group = node("g", { class: "index" + (extra ? " " + extra : "") }, svg);
  const text = node("text", { x: 4, y: 19, class: "rank" }, group);
  text.textContent = rank;
  symbol(kind, 10, 29, 0.55, group);
  const mark = node("text", { x: 10, y: 47, class: "letter", "text-anchor": "middle" }, group);
  mark.textContent = letter;
}

/* A card: a <button> when `onClick` is given, else a <span>. `declared`: what a Juggler, Cloud
   or Shapeshifter was played as (a trick's card). */
export function cardElement(code, { small = false, onClick = null, testid = null, declared = null } = {}) {
  const face = splitFace(code);
  code = face.card;
  declared = declared || face.declared;
  const el = document.createElement(onClick ? "button" : "span");
  el.className = "card" + (small ? " small" : "");
  const kind = cardKind(code);
  if (kind === "back") el.classList.add("back");
  else if (kind === "wizard" || kind === "jester") el.classList.add(kind);
  else if (kind === "suit") el.classList.add("suit-" + SUIT_BY_LETTER[code[0]]);
  else el.classList.add("special", "sp-" + kind);
  if (declared) el.classList.add("declared", "decl-" + declared), el.dataset.declared = declared;
  el.dataset.card = code || "";
  if (testid) el.dataset.testid = testid;
  el.append(cardFace(code, declared));
  const label = cardHint(code, declared);
  el.setAttribute(onClick ? "aria-label" : "title", label);
  if (!onClick) el.setAttribute("role", "img"), el.setAttribute("aria-label", label);
  if (kind !== "back" && SPECIAL_BY_CODE[code]) {
    el.title = label;
    longPressTip(el, label);
  }
  if (onClick) {
    el.type = "button";
    el.addEventListener("click", () => onClick(code));
  }
  return el;
}

/* A touch screen has no hover: holding a special card shows its reminder, and that touch plays
   nothing (the click after it is swallowed). */
function longPressTip(el, text) {
  let timer = null;
  let shown = false;
  const clear = () => { clearTimeout(timer); timer = null; };
  el.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    shown = false;
    clear();
    timer = setTimeout(() => { shown = true; showTip(el, text); }, 500);
  });
  ["pointerup", "pointercancel", "pointerleave"].forEach((name) => el.addEventListener(name, clear));
  el.addEventListener("contextmenu", (event) => { if (timer || shown) event.preventDefault(); });
  el.addEventListener("click", (event) => {
    if (!shown) return;
    shown = false;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
}

let tipTimer = null;
function showTip(el, text) {
  let tip = document.getElementById("card-tip");
  if (!tip) {
    tip = document.createElement("div");
    tip.id = "card-tip";
    tip.className = "card-tip";
    tip.setAttribute("role", "tooltip");
    document.body.append(tip);
    document.addEventListener("pointerdown", () => { tip.hidden = true; }, true);
  }
  tip.textContent = text;
  tip.hidden = false;
  const box = el.getBoundingClientRect();
  const width = Math.min(256, window.innerWidth - 16);
  tip.style.maxWidth = width + "px";
  const left = Math.max(8, Math.min(window.innerWidth - width - 8, box.left + box.width / 2 - width / 2));
  tip.style.left = left + "px";
  const above = box.top - 8 - tip.offsetHeight > 0;  // else below the card (the top bar's turned-up card)
  tip.classList.toggle("below", !above);
  tip.style.top = (above ? box.top - 8 : box.bottom + 8) + "px";
  clearTimeout(tipTimer);
  tipTimer = setTimeout(() => { tip.hidden = true; }, 3500);
}

/* The trump in words with its symbol: an element for the table's top bar and buttons. */
export function suitBadge(suit) {
  const span = document.createElement("span");
  span.className = "suit-badge";
  if (!suit || suit === "none") { span.textContent = gettext("No trump"); return span; }
  span.append(suitIcon(suit), document.createTextNode(" " + suitLabel(suit)));
  return span;
}

export function suitText(suit) {
  return suit && suit !== "none" ? suitLabel(suit) : gettext("No trump");
}

/* "No trump" as a symbol: an empty circle struck through (the Werewolf's holder's choice, R23). */
export function noTrumpIcon(size = 18) {
  const svg = node("svg", { viewBox: "-11 -11 22 22", width: size, height: size, class: "suit-icon no-trump", "aria-hidden": "true", focusable: "false" });
  node("circle", { cx: 0, cy: 0, r: 8, fill: "none", stroke: "currentColor", "stroke-width": 2.4 }, svg);
  node("path", { d: "M-6,6L6,-6", stroke: "currentColor", "stroke-width": 2.4 }, svg);
  return svg;
}

/* A special card's symbol on its own (the table's facts, the Shapeshifter's choice). */
export function kindIcon(kind, size = 18) {
  const svg = node("svg", { viewBox: "-11 -11 22 22", width: size, height: size, class: "kind-icon icon-" + kind, "aria-hidden": "true", focusable: "false" });
  symbol(kind, 0, 0, 1, svg);
  return svg;
}
