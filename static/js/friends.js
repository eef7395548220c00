/* The friends panel: invite a friend to one of your tables (API.md "Friends, invitations and
   who may watch"); they see it at once on any page of the site, or as a notification. */
import { fetchJSON } from "./net.js";
import { fmt, gettext } from "./i18n.js";

const status = document.getElementById("invite-status");

document.querySelectorAll("[data-invite-game]").forEach((button) => {
  button.addEventListener("click", async () => {
    const { inviteGame: game, inviteUser: username } = button.dataset;
    button.disabled = true;
    const { ok, data } = await fetchJSON(`/api/v1/games/${game}/invite/`, { method: "POST", body: { username } });
    status.textContent = ok
      ? fmt(gettext("%(name)s is invited to table %(id)s."), { name: username, id: game })
      : data.error && data.error.code === "not_a_friend"
        ? gettext("You can invite your friends only: follow each other first.")
        : gettext("The invitation could not be sent.");
    button.disabled = false;
  });
});
