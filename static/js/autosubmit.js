// A <select data-autosubmit> sends its form as soon as it changes (the language and season
// pickers); no inline handler, so the Content-Security-Policy can forbid inline script.
document.addEventListener("change", (event) => {
  const target = event.target;
  if (target instanceof HTMLSelectElement && target.dataset.autosubmit !== undefined) {
    target.form?.submit();
  }
});
