/* Web Push opt-in on the profile page. The browser asks for permission only after the player
   clicks the button; then this browser subscribes with the site's VAPID public key and sends
   the subscription to the API (API.md "Notifications"). The service worker is /sw.js. */
import { gettext } from "./i18n.js";
import { fetchJSON } from "./net.js";

const button = document.getElementById("push-enable");
const status = document.getElementById("push-status");

function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - base64url.length % 4) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function enable() {
  button.disabled = true;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      status.textContent = gettext("Your browser did not allow notifications.");
      return;
    }
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(button.dataset.vapidKey),
    });
    const { endpoint, keys } = subscription.toJSON();
    const { ok } = await fetchJSON("/api/v1/accounts/me/push-subscriptions/", {
      method: "POST", body: { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } },
    });
    status.textContent = ok ? gettext("Push notifications are on in this browser.")
      : gettext("The subscription could not be saved. Try again.");
    const box = document.getElementById("push-turns");
    if (ok && box) box.checked = true;
  } catch (error) {
    status.textContent = gettext("This browser cannot receive push notifications.");
  } finally {
    button.disabled = false;
  }
}

if (button && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window) {
  button.hidden = false;
  button.addEventListener("click", enable);
}
