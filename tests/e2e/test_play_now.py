"""Play now (R28) as people use it, nobody typing an address: two players in two browsers (a
laptop in English, a phone in Spanish) press "Play now" with overlapping choices and bots
allowed (after 30 and 10 seconds); the first sees the second arrive in the panel's count, and
both pages open the same new table by themselves, a bot in its third seat. A third player
starts a seek and cancels it: the panel offers the form again and nobody waits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
SEATED_MS = 30_000  # R28: bots after 10 s, the sweep every second, then the page opens


def test_two_players_press_play_now_and_land_at_the_same_new_table(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    ana = sign_up(browser, server_url, "now_ana", viewport=LAPTOP)
    beto = sign_up(browser, server_url, "now_beto", viewport=PHONE, locale="es-ES")
    players = [ana, beto]
    try:
        with screenshots_on_failure(artifacts, players):
            # Ana, on the home page (the header's brand): every size ("any"), bots after 30 s
            # (long enough for Beto to arrive: then his 10 s seat them both, a bot in the rest).
            ana.page.locator("a.brand").click()
            ana.page.wait_for_url(f"{server_url}/")
            panel = ana.page.locator('[data-testid="play-now"]')
            expect(panel.locator('[data-testid="play-now-any"]')).to_be_checked()
            panel.locator('[data-testid="play-now-bots"]').select_option("30")
            panel.locator('[data-testid="play-now-start"]').click()
            expect(panel.locator('[data-testid="play-now-waiting"]')).to_be_visible()
            expect(panel.locator('[data-testid="play-now-count"]')).to_contain_text("Nobody else")
            ana.page.screenshot(path=str(artifacts / "play-now-waiting-laptop.png"))

            # Beto, in the lobby where signing up left him, on his phone: only 3 players, bots
            # after 10 seconds too.
            page = beto.page
            mine = page.locator('[data-testid="play-now"]')
            for size in (4, 5, 6):
                mine.locator(f'[data-testid="play-now-size-{size}"]').uncheck()
            expect(mine.locator('[data-testid="play-now-any"]')).not_to_be_checked()
            mine.locator('[data-testid="play-now-bots"]').select_option("10")
            assert page.evaluate(NO_HORIZONTAL_SCROLL_JS), "the Play now panel scrolls sideways"
            page.screenshot(path=str(artifacts / "play-now-form-phone.png"), full_page=True)
            mine.locator('[data-testid="play-now-start"]').click()
            # Ana's panel hears of him (its seek is read again every few seconds).
            expect(panel.locator('[data-testid="play-now-count"]')).to_contain_text(
                "1 other player"
            )

            for player in players:
                player.page.wait_for_url("**/games/*/", timeout=SEATED_MS)
            assert ana.page.url == beto.page.url
            for player in players:
                view = wait_table_live(player, what="the Play now table")
                assert view["you"] is not None  # a seat of theirs (R9: round 1 is blind)
            # Three seats: the two of them and one medium bot (R28's bots after the wait).
            expect(ana.page.locator("#seats .seat")).to_have_count(3)
            expect(ana.page.locator("#seats .seat .badge.bot")).to_have_count(1)
    finally:
        for player in players:
            player.close()


def test_a_player_cancels_a_seek_and_gets_the_form_back(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    cleo = sign_up(browser, server_url, "now_cleo", viewport=PHONE)
    page = cleo.page
    try:
        with screenshots_on_failure(artifacts, [cleo]):
            panel = page.locator('[data-testid="play-now"]')
            panel.locator('[data-testid="play-now-speed-300"]').check()
            panel.locator('[data-testid="play-now-deck-anniversary"]').check()
            panel.locator('[data-testid="play-now-start"]').click()
            expect(panel.locator('[data-testid="play-now-waiting"]')).to_be_visible()
            expect(panel).to_contain_text("5 min a turn")
            # A reload finds the seek again.
            page.reload()
            expect(panel.locator('[data-testid="play-now-waiting"]')).to_be_visible()
            panel.locator('[data-testid="play-now-cancel"]').click()
            expect(panel.locator('[data-testid="play-now-form"]')).to_be_visible()
            expect(panel.locator('[data-testid="play-now-waiting"]')).to_be_hidden()
            page.reload()  # nothing waits: the page finds no seek
            expect(panel.locator('[data-testid="play-now-form"]')).to_be_visible()
    finally:
        cleo.close()
