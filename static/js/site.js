/* Every page: menus marked data-autosubmit (the language, a season) apply the choice at once,
   without inline handlers. */
document.querySelectorAll("#language, select[data-autosubmit]").forEach((select) => {
  select.addEventListener("change", () => select.form.submit());
});
