/* Every page: on a narrow screen the header's links fold behind a menu button (without
   scripts they stay in view), and menus marked data-autosubmit (the language, a season) apply the choice at once,
   without inline handlers. The table's "Large cards" setting, remembered in this browser,
   applies to every page that shows cards. */
try {
  document.documentElement.classList.toggle("large-cards", localStorage.getItem("wizard.large-cards") === "1");
} catch (e) { /* storage disabled: normal cards */ }
document.querySelectorAll("#language, select[data-autosubmit]").forEach((select) => {
  select.addEventListener("change", () => select.form.submit());
});

const toggle = document.getElementById("menu-toggle");
const nav = document.getElementById("site-nav");
if (toggle && nav) {
  toggle.hidden = false;
  document.documentElement.classList.add("menu-ready");
  const show = (open) => {
    toggle.setAttribute("aria-expanded", String(open));
    nav.classList.toggle("open", open);
  };
  toggle.addEventListener("click", () => show(toggle.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("open")) { show(false); toggle.focus(); }
  });
}
