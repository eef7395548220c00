"""The replay of a finished game shows, beside the viewer's own decisions, the hard bot's
second opinion ("hard bot: bid 2, about +18 points"), drawn by replay.js from the review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import Player, screenshots_on_failure, sign_up
from tests.e2e.page_waits import open_reviewed_replay
from tests.e2e.table_phases import play_scenario
from tests.e2e.table_scenarios import REVIEW_SCENARIO

pytestmark = pytest.mark.e2e


def play_to_the_end(player: Player) -> int:
    """A two-round game against two bots (REVIEW_SCENARIO's seed, which the player signed up
    with), the person's first legal move each turn, played on the table page."""
    return play_scenario(player, REVIEW_SCENARIO, on_shown=lambda phase: None)


@pytest.mark.parametrize(
    "size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768}], ids=["phone", "laptop"]
)
def test_the_replay_shows_the_hard_bots_second_opinion(
    browser: Any, server_url: str, artifacts: Path, size: dict[str, int]
) -> None:
    player = sign_up(
        browser, server_url, f"review_{size['width']}", seed=REVIEW_SCENARIO.seed, viewport=size
    )
    try:
        with screenshots_on_failure(artifacts, [player]):
            game_id = play_to_the_end(player)
            page = player.page
            open_reviewed_replay(page, game_id)
            opinion = page.locator("#opinion")
            for _ in range(400):  # step on until one of the player's decisions
                if opinion.is_visible():
                    break
                page.locator("#next").click()
            assert opinion.is_visible(), "no decision of the player shows an opinion"
            text = opinion.inner_text()
            assert text.startswith("hard bot: "), text
            assert "the same choice" in text or "points" in text, text
            # Drawn as the live table: a seat box for each player on the oval, every hand below.
            table = page.locator('[data-testid="table"]')
            seats = table.locator('[data-testid^="seat-"]')
            assert seats.count() == 3, seats.count()
            assert page.locator('[data-testid^="replay-hand-"]').count() == 3
            for _ in range(8):  # on to a card in the trick
                if table.locator('[data-testid="trick-card"]').count():
                    break
                page.locator("#next").click()
            assert table.locator('[data-testid="trick-card"]').count() >= 1
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

            # The review's list: the disagreements worst first, each a click from its step.
            items = page.locator('[data-testid="mistake-list"] li')
            chart = page.locator('[data-testid="round-chart"] .bar')
            assert chart.count() >= 1, "no points-per-round chart"
            for jump in (
                page.locator('[data-testid="next-mistake"]'),
                items.first.locator("button"),
            ):
                if items.count():  # the hard bot disagreed somewhere: each jump shows it
                    page.locator("#first").click()
                    jump.click()
                    assert page.locator("#opinion").is_visible()
                    assert "points" in page.locator("#opinion").inner_text()
    finally:
        player.context.close()
