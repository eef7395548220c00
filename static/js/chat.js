/* The table chat: messages arrive over the table's websocket (table.js passes them here) and
   are always shown as text, never as HTML; another player's new message is read out through
   the table's live region (`announce`). Players write through the REST endpoint, and report
   another's message through the table's dialog (a category, and a note if they like). */
import { gettext, fmt } from "./i18n.js";
import { fetchJSON } from "./net.js";

export function startChat(announce = () => {}) {
  const box = document.getElementById("chat");
  if (!box) return null;
  const list = document.getElementById("chat-messages");
  const form = document.getElementById("chat-form");
  const error = document.getElementById("chat-error");
  const api = box.dataset.api;
  const me = box.dataset.username;

  function add(message) {
    if (list.querySelector(`[data-id="${message.id}"]`)) return;
    const item = document.createElement("li");
    item.dataset.id = message.id;
    const who = document.createElement("strong");
    who.textContent = message.username + ": ";
    const text = document.createElement("span");
    text.textContent = message.text;  // plain text: never innerHTML
    item.append(who, text);
    if (message.username !== me && me) {
      const report = document.createElement("button");
      report.type = "button";
      report.className = "secondary small";
      report.dataset.testid = "chat-report";
      report.textContent = gettext("Report");
      report.setAttribute("aria-label", fmt(gettext("Report this message by %(name)s"), { name: message.username }));
      report.addEventListener("click", () => reportMessage(message));
      item.append(" ", report);
    }
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  const dialog = document.getElementById("report-dialog");
  const reportForm = document.getElementById("report-form");
  let reporting = null;  // the message the open dialog reports

  function reportMessage(message) {
    reporting = message;
    reportForm.reset();
    document.getElementById("report-error").textContent = "";
    document.getElementById("report-quote").textContent = message.username + ": " + message.text;
    dialog.showModal();  // the browser's own modal: focus kept inside, Escape closes it
    reportForm.querySelector("input[name=category]").focus();
  }

  reportForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(reportForm);
    const { ok, data } = await fetchJSON("/api/v1/reports/", {
      method: "POST",
      body: {
        username: reporting.username, message_id: reporting.id,
        category: fields.get("category"), reason: fields.get("reason").trim(),
      },
    }).catch(() => ({ ok: false, data: {} }));  // offline: the dialog stays, with its text
    if (!ok) {
      document.getElementById("report-error").textContent = data.error && data.error.code === "rate_limited"
        ? gettext("You have sent many reports this hour; try again later.")
        : gettext("The report could not be sent.");
      return;
    }
    dialog.close();
    error.textContent = gettext("Thank you: a moderator will look at it.");
  });
  document.getElementById("report-cancel").addEventListener("click", () => dialog.close());

  async function load() {
    const { ok, data } = await fetchJSON(api + "?page_size=100");
    if (ok) data.results.forEach(add);
  }

  async function post(body) {
    const { ok, data } = await fetchJSON(api, { method: "POST", body });
    if (ok) { error.textContent = ""; add(data); }
    else error.textContent = data.error && data.error.code === "rate_limited"
      ? gettext("At most 5 messages in 10 seconds: wait a moment.")
      : gettext("The message could not be sent.");
    return ok;
  }

  if (form) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const input = form.querySelector("input[name=text]");
      const text = input.value.trim();
      if (text && await post({ text })) input.value = "";
    });
  }
  box.querySelectorAll("[data-preset]").forEach((button) => {
    button.addEventListener("click", () => post({ preset: button.dataset.preset }));
  });

  load();
  return {
    handle(message) {
      if (message.type === "chat") {
        const fresh = !list.querySelector(`[data-id="${message.message.id}"]`);
        add(message.message);
        if (fresh && message.message.username !== me) {
          announce(fmt(gettext("%(name)s says: %(text)s"), { name: message.message.username, text: message.message.text }));
        }
      }
      if (message.type === "chat_hidden") {
        const item = list.querySelector(`[data-id="${message.id}"]`);
        if (item) item.remove();
      }
    },
  };
}
