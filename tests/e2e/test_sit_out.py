"""R18 at the table, as a player meets it: on their turn they press "Sit out"; their seat says
"away" and the medium bot decides for them within 5 seconds while the page says so; "I'm back"
gives them their seat again, and they play their next decision themselves. At a phone's size,
in Croatian too."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    create_table,
    play_turn,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)
from tests.e2e.page_waits import my_turn

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
AWAY_MS = 5000  # R18: the bot decides within 5 seconds
TEXTS = {
    "en-US": ("Sit out", "I'm back", "away", "You are away"),
    "hr-HR": ("Napravi stanku", "Opet sam tu", "odsutan", "Odsutni ste"),
}


@pytest.mark.parametrize("locale", list(TEXTS))
def test_a_player_sits_out_the_bot_plays_for_them_and_they_come_back(
    browser: Any, server_url: str, artifacts: Path, locale: str
) -> None:
    sit_out_text, back_text, away_badge, notice_text = TEXTS[locale]
    player = sign_up(
        browser, server_url, f"sitter_{locale[:2]}", viewport=PHONE, locale=locale, seed="sit-1"
    )
    page = player.page
    try:
        with screenshots_on_failure(artifacts, [player]):
            create_table(player, seats=3, bots=2, blind_first_round=False, rounds="3")
            wait_table_live(player, what="the table to start")
            mine = my_turn(player, what="the first decision")
            you = mine["you"]
            seat = page.locator(f'[data-testid="seat-{you}"]')
            expect(seat.locator(".badge.away")).to_have_count(0)

            sit_out = page.locator('[data-testid="sit-out"]')
            expect(sit_out).to_have_text(sit_out_text)
            sit_out.click()
            expect(seat.locator(".badge.away")).to_have_text(away_badge)
            back = page.locator('[data-testid="back"]')
            expect(back).to_have_text(back_text)
            assert page.evaluate(NO_HORIZONTAL_SCROLL_JS), "the away table scrolls sideways"
            page.screenshot(path=str(artifacts / f"sit-out-{locale}.png"), full_page=True)

            # Nobody touches the page: the medium bot makes the decision, and the page says why.
            # (The table goes on meanwhile, the bot deciding for them within 5 s each time.)
            notice = page.locator('[data-testid="auto-move-notice"]')
            expect(notice).to_contain_text(notice_text, timeout=AWAY_MS + 10_000)
            assert player.view()["seq"] > mine["seq"]

            back.click()
            expect(seat.locator(".badge.away")).to_have_count(0)
            # "I'm back" takes the notice away at once (by itself it would stay 10 s).
            expect(notice).to_be_hidden(timeout=3000)
            expect(page.locator('[data-testid="sit-out"]')).to_be_visible()
            # Their next decision waits for them, the table's full limit, and is theirs.
            again = my_turn(player, what="the next decision, theirs again")
            after = play_turn(player, random.Random(3))
            assert after["seq"] > again["seq"]
            expect(seat.locator(".badge.away")).to_have_count(0)
    finally:
        player.close()
