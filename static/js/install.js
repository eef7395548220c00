/* Every page: registers the service worker (/sw.js, scope "/"; push-optin.js registers the
   same one), which shows pushes and, when a page cannot load, the offline page. It tells the
   worker this page's language, so the offline page it keeps speaks the player's language. */
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    // A browser that refuses workers (a policy, some private windows) still shows the page.
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  });
  // The worker answers with the language of the offline page it keeps (html data-offline).
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && typeof event.data.offline === "string") document.documentElement.dataset.offline = event.data.offline;
  });
  navigator.serviceWorker.ready.then((registration) => {
    if (registration.active) registration.active.postMessage({ language: document.documentElement.lang });
  });
}
