/* The table's settings, each remembered in this browser: the pace of the animations, large
   cards, sound and its volume; and the last trick shown on request. */
import { gettext } from "./i18n.js";
import * as sound from "./sound.js";
import { layoutHand } from "./table-panels.js";
import { paceNamed } from "./table-state.js";

const $ = (id) => document.getElementById(id);

export function startSettings(table, { render }) {
  const paceSelect = $("pace");
  paceSelect.value = table.paceName;
  const markPace = () => document.documentElement.classList.toggle("pace-instant", table.paceName === "instant");
  markPace();
  paceSelect.addEventListener("change", () => {
    table.paceName = paceNamed(paceSelect.value);
    markPace();
    try { localStorage.setItem("wizard.pace", table.paceName); } catch (e) { /* private mode */ }
  });

  const largeButton = $("large-cards");
  const showLarge = () => {
    const large = document.documentElement.classList.contains("large-cards");
    largeButton.setAttribute("aria-pressed", String(large));
  };
  largeButton.addEventListener("click", () => {
    const large = document.documentElement.classList.toggle("large-cards");
    try { localStorage.setItem("wizard.large-cards", large ? "1" : "0"); } catch (e) { /* private mode */ }
    showLarge();
    layoutHand();
  });
  showLarge();

  const soundButton = $("sound-toggle");
  const showSound = () => {
    const muted = sound.isMuted();
    soundButton.setAttribute("aria-pressed", String(!muted));
    soundButton.classList.toggle("muted", muted);
    soundButton.title = muted ? gettext("Sound off") : gettext("Sound on");
  };
  soundButton.addEventListener("click", () => { sound.setMuted(!sound.isMuted()); showSound(); });
  showSound();
  const volume = $("volume");
  volume.value = String(Math.round(sound.volume() * 100));
  volume.addEventListener("input", () => {
    sound.setVolume(Number(volume.value) / 100);
    if (sound.isMuted() && Number(volume.value) > 0) { sound.setMuted(false); showSound(); }
  });
  volume.addEventListener("change", () => sound.cardPlayed());  // a sample at the new level
  sound.unlockOnGesture();

  $("last-trick-toggle").addEventListener("click", () => { table.showingLastTrick = !table.showingLastTrick; render(); });
}
