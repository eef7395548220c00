/* The table's motion: a card flying from its player to the trick, a won trick swept to its
   winner, a hand dealt in. Each runs on while the next events play out; none at the instant
   pace, in a backlog caught up (`quick`), or when the player asks for reduced motion. */
const $ = (id) => document.getElementById(id);
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const still = (quick) => quick || reducedMotion.matches;

/* Where a card played by `seat` comes from: your own card in your hand, else the seat's box. */
export function originOf(table, seat, card) {
  if (seat === table.scene.you) {
    const own = document.querySelector('#hand [data-card="' + card + '"]') || $("hand");
    if (own) return own.getBoundingClientRect();
  }
  const chip = document.querySelector('[data-testid="seat-' + seat + '"]');
  return chip ? chip.getBoundingClientRect() : null;
}

/* The trick's last card flies in from `from` (a box measured before it was drawn). */
export function flyIn(table, from, quick) {
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
    { duration: table.pace.play * 0.9, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/* The trick goes to its winner's seat; a bombed one (winner null, R22) goes up in smoke. */
export function sweep(table, winner, quick) {
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
      { duration: table.pace.sweep, easing: "ease-in" });
    motion.onfinish = () => ghost.remove();
    motion.oncancel = () => ghost.remove();
  });
}

/* The cards of a new hand drop in one after the other. */
export function dealIn(quick) {
  if (still(quick)) return;
  document.querySelectorAll("#hand .card").forEach((card, i) => {
    card.animate([{ opacity: 0, transform: "translateY(-40px)" }, { opacity: 1, transform: "none" }],
      { duration: 260, delay: i * 25, easing: "ease-out", fill: "backwards" });
  });
}
