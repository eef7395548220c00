"""A player reports an insult from the table, through the table's own dialog: they pick what
it is about, add a note if they like, and send; the dialog is a modal one can work with the
keyboard alone (Escape closes it and gives the focus back). On a phone and on a laptop."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    Player,
    create_table,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

SEED = "reports-1"  # the host, the rude player and a bot, whatever it deals
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
INSULT = "you all play like potatoes"


def say(player: Player, text: str) -> None:
    chat = player.page.locator("#chat-text")
    chat.fill(text)
    chat.press("Enter")
    expect(player.page.locator("#chat-messages li").filter(has_text=text)).to_be_attached()


def report_button(page: Page, text: str) -> Any:
    message = page.locator("#chat-messages li").filter(has_text=text)
    expect(message).to_be_attached()
    return message.locator('[data-testid="chat-report"]')


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_player_reports_an_insult_from_the_tables_dialog(
    browser: Any, server_url: str, artifacts: Path, viewport: dict[str, int]
) -> None:
    size = "phone" if viewport == PHONE else "laptop"
    host = sign_up(browser, server_url, f"reporter_{size}", viewport=viewport, seed=SEED)
    rude = sign_up(browser, server_url, f"rude_{size}", viewport=LAPTOP)
    players = [host, rude]
    try:
        with screenshots_on_failure(artifacts, players):
            game_id = create_table(host, seats=3, bots=1)
            rude.page.goto(f"/games/{game_id}/")
            rude.page.locator("#join-button").click()
            wait_table_live(rude, what="the table to start once the second player joins")
            wait_table_live(host, what="the table to start")
            say(rude, INSULT)

            page = host.page
            dialog = page.locator('[data-testid="report-dialog"]')
            button = report_button(page, INSULT)
            expect(button).to_have_attribute(
                "aria-label", f"Report this message by {rude.username}"
            )

            # By keyboard: the button opens the modal with the focus on its first choice, and
            # Escape closes it, sending nothing, with the focus back on the button.
            button.focus()
            page.keyboard.press("Enter")
            expect(dialog).to_be_visible()
            expect(dialog.locator('[data-testid="report-quote"]')).to_have_text(
                f"{rude.username}: {INSULT}"
            )
            expect(dialog.locator('[data-testid="report-category-insult"]')).to_be_focused()
            page.keyboard.press("Escape")
            expect(dialog).to_be_hidden()
            expect(button).to_be_focused()

            # Sending without a category is refused by the form itself: of the two clicks on
            # Send, only the one after a category was picked makes a request.
            sent: list[str] = []
            page.on("request", lambda r: sent.append(r.url) if "/reports/" in r.url else None)
            button.click()
            send = dialog.locator('[data-testid="report-send"]')
            send.click()
            expect(dialog).to_be_visible()
            dialog.locator('[data-testid="report-category-insult"]').check()
            dialog.locator('[data-testid="report-note"]').fill("  in the chat, twice  ")
            assert page.evaluate(NO_HORIZONTAL_SCROLL_JS)
            page.screenshot(path=str(artifacts / f"report-dialog-{size}.png"))
            with page.expect_response(lambda r: r.url.endswith("/api/v1/reports/")) as answer:
                send.click()
            response = answer.value
            assert response.status == 201, response.text()
            assert response.json()["status"] == "open"
            body = json.loads(response.request.post_data or "{}")
            assert body["username"] == rude.username
            assert body["category"] == "insult"
            assert body["reason"] == "in the chat, twice"
            assert isinstance(body["message_id"], int)
            expect(dialog).to_be_hidden()
            expect(page.locator("#chat-error")).to_have_text(
                "Thank you: a moderator will look at it."
            )
            assert len(sent) == 1, sent
            # Nobody reports their own messages: the rude player has no button on this one.
            expect(report_button(rude.page, INSULT)).to_have_count(0)
    finally:
        for player in players:
            player.close()
