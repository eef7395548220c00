/* Resigning (R18), with a confirmation: "Resign…" asks first, and only "Yes, resign" sends it.
   Alone with bots the game is stopped; at a table of people the medium bot plays the seat to the
   end. The push that follows brings the new view. */
import { gettext } from "./i18n.js";
import { fetchJSON } from "./net.js";

export function startResign({ api, onDone, onError }) {
  const box = document.getElementById("resign");
  if (!box) return;
  const ask = document.getElementById("resign-button");
  const confirmBox = document.getElementById("resign-confirm");
  ask.addEventListener("click", () => {
    confirmBox.hidden = false;
    ask.hidden = true;
    document.getElementById("resign-no").focus();
  });
  document.getElementById("resign-no").addEventListener("click", () => {
    confirmBox.hidden = true;
    ask.hidden = false;
    ask.focus();
  });
  document.getElementById("resign-yes").addEventListener("click", async () => {
    try {
      const { ok, data } = await fetchJSON(api + "resign/", { method: "POST" });
      if (ok) onDone(data);
      else onError(data.error ? data.error.code : "invalid", data.error && data.error.message);
    } catch (error) {
      onError("invalid", gettext("Connection problem: try again."));
    }
    confirmBox.hidden = true;
    ask.hidden = false;
  });
}
