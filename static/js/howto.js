/* "How to play": each card named in the text (<span class="card-slot" data-card="R13">) is
   drawn as the table draws it, with an optional caption under it. */
import { cardElement } from "./cards.js";

document.querySelectorAll(".card-slot[data-card]").forEach((slot) => {
  const figure = document.createElement("figure");
  figure.className = "howto-card";
  figure.append(cardElement(slot.dataset.card));
  if (slot.dataset.caption) {
    const caption = document.createElement("figcaption");
    caption.textContent = slot.dataset.caption;
    figure.append(caption);
  }
  slot.replaceWith(figure);
});
