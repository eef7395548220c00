/* Short sounds synthesised with Web Audio (no sound files): a card played, a trick won, your
   turn (and a buzz on phones), a round's end and the win. Nothing plays before the player's
   first tap or key (browsers allow none). Muting and the volume are remembered in this browser. */
const KEY = "wizard.muted";
const VOLUME_KEY = "wizard.volume";
const DEFAULT_VOLUME = 0.6;
let context = null;

export function volume() {
  try {
    const stored = Number(localStorage.getItem(VOLUME_KEY));
    return localStorage.getItem(VOLUME_KEY) !== null && stored >= 0 && stored <= 1 ? stored : DEFAULT_VOLUME;
  } catch (error) { return DEFAULT_VOLUME; }
}

export function setVolume(level) {
  try { localStorage.setItem(VOLUME_KEY, String(Math.max(0, Math.min(1, level)))); } catch (error) { /* private mode */ }
}

export function isMuted() {
  try { return localStorage.getItem(KEY) === "1"; } catch (error) { return true; }
}

export function setMuted(muted) {
  try { localStorage.setItem(KEY, muted ? "1" : "0"); } catch (error) { /* private mode */ }
}

/* Browsers start audio only after a gesture: the first click or key on the page unlocks it. */
export function unlockOnGesture() {
  const unlock = () => {
    if (!context && (window.AudioContext || window.webkitAudioContext)) {
      context = new (window.AudioContext || window.webkitAudioContext)();
    }
    if (context && context.state === "suspended") context.resume();
  };
  document.addEventListener("pointerdown", unlock, { once: true, capture: true });
  document.addEventListener("keydown", unlock, { once: true, capture: true });
}

function tone(frequency, start, length, type = "sine", loudness = 0.18) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, loudness * volume()), start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.05);
}

/* Plays the notes [frequency, delay s, length s] when sound may play; false when it may not. */
function notes(list, type, loudness) {
  if (isMuted() || volume() === 0 || !context || context.state !== "running") return false;
  const now = context.currentTime;
  list.forEach(([frequency, delay, length]) => tone(frequency, now + delay, length, type, loudness));
  return true;
}

export function cardPlayed() { notes([[320, 0, 0.06]], "triangle", 0.22); }
export function trickWon() { notes([[520, 0, 0.1], [780, 0.08, 0.16]], "sine", 0.14); }
export function roundEnd() { notes([[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.24]], "sine", 0.14); }
export function won() {
  notes([[523, 0, 0.16], [659, 0.14, 0.16], [784, 0.28, 0.16], [1047, 0.42, 0.5]], "triangle", 0.2);
}

export function yourTurnChime() {
  if (isMuted()) return;
  notes([[660, 0, 0.18], [880, 0.14, 0.26]], "sine", 0.18);
  // Phones buzz only once the player has touched the page (browsers refuse it before).
  const touched = navigator.userActivation ? navigator.userActivation.hasBeenActive : context !== null;
  if (navigator.vibrate && touched) navigator.vibrate([90, 60, 90]);
}
