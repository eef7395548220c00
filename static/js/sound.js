/* A short chime for "your turn", synthesised with Web Audio (no sound files), and a buzz on
   phones. Muting is remembered in this browser. */
const KEY = "wizard.muted";
let context = null;

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

function tone(frequency, start, length) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = "sine";
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + length + 0.05);
}

export function yourTurnChime() {
  if (isMuted()) return;
  if (context && context.state === "running") {
    const now = context.currentTime;
    tone(660, now, 0.18);
    tone(880, now + 0.14, 0.26);
  }
  // Phones buzz only once the player has touched the page (browsers refuse it before).
  const touched = navigator.userActivation ? navigator.userActivation.hasBeenActive : context !== null;
  if (navigator.vibrate && touched) navigator.vibrate([90, 60, 90]);
}
