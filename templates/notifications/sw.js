/* The service worker (served at /sw.js, scope "/"): shows each Web Push of this site as a
   notification and opens its table when the player clicks it, and shows the offline page when a
   page cannot load. It keeps that one page and nothing else: no game, API answer or other page
   ever goes into a cache, so no hand or private view can be read from one. */
const OFFLINE_PREFIX = "wizard-offline-";
const OFFLINE_CACHE = OFFLINE_PREFIX + "v1";
const OFFLINE_URL = "{% url 'offline' %}";

// The offline page as anyone sees it (no cookies: it names no player and takes no flash message
// meant for another page), in `language` when one is given, else in the browser's. One call at
// a time, so an older page's language never lands after a newer one's; and one copy kept, in
// whatever language it came (its Vary would let a copy of each language stay beside the others).
let keeping = Promise.resolve();
function keepOfflinePage(language) {
  keeping = keeping.catch(() => {}).then(() => refreshOfflinePage(language));
  return keeping;
}

async function refreshOfflinePage(language) {
  const cache = await caches.open(OFFLINE_CACHE);
  const kept = await cache.match(OFFLINE_URL, { ignoreVary: true });
  if (kept && (!language || kept.headers.get("Content-Language") === language)) return;
  const headers = language ? { "Accept-Language": language } : {};
  const response = await fetch(OFFLINE_URL, { credentials: "omit", cache: "no-store", headers });
  if (!response.ok) return;
  await cache.delete(OFFLINE_URL, { ignoreVary: true });
  await cache.put(OFFLINE_URL, response);
}

self.addEventListener("install", (event) => {
  // Installed even when the page cannot be fetched now: the next page's message retries it.
  event.waitUntil(keepOfflinePage(null).catch(() => {}).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    const stale = names.filter((name) => name.startsWith(OFFLINE_PREFIX) && name !== OFFLINE_CACHE);
    await Promise.all(stale.map((name) => caches.delete(name)));
    // The page's request starts while the worker starts up, instead of after it.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

// Each page (static/js/install.js) says its language: the offline page follows it, and the
// page hears back the language of the offline page kept once it is stored.
self.addEventListener("message", (event) => {
  const language = event.data && event.data.language;
  if (typeof language === "string" && /^[a-z]{2,3}(-[a-z0-9]+)?$/i.test(language)) {
    event.waitUntil(keepOfflinePage(language).then(async () => {
      const kept = await caches.match(OFFLINE_URL, { ignoreVary: true });
      if (kept && event.source) event.source.postMessage({ offline: kept.headers.get("Content-Language") });
    }).catch(() => {}));
  }
});

// Page loads only (GET navigations): always the network; the offline page when it fails.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return;
  event.respondWith((async () => {
    try {
      return (await event.preloadResponse) || (await fetch(request));
    } catch (error) {
      const cache = await caches.open(OFFLINE_CACHE);
      return (await cache.match(OFFLINE_URL, { ignoreVary: true })) || Response.error();
    }
  })());
});

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { data = {}; }
  const title = typeof data.title === "string" ? data.title : "Wizard online";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.tag === "string" ? data.tag : undefined,
    icon: "/static/favicon.svg",
    data: { url: typeof data.url === "string" ? data.url : "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;  // only this site's own pages
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => client.url === target.href);
    if (open) return open.focus();
    return self.clients.openWindow(target.href);
  })());
});
