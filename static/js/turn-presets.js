/* Turn-limit presets (games/turn_presets.py) fill in the number of seconds; typing a number
   picks its preset (or "custom"). The number is what the form sends. */
export function wireTurnPresets() {
  const preset = document.getElementById("turn-preset");
  const seconds = preset && document.getElementById(preset.dataset.for);
  if (!preset || !seconds) return;
  preset.addEventListener("change", () => {
    if (preset.value) seconds.value = preset.value;
    else seconds.focus();
  });
  seconds.addEventListener("input", () => {
    const match = [...preset.options].find((option) => option.value === seconds.value);
    preset.value = match ? match.value : "";
  });
}
