"""The replay of a finished game shows, beside the viewer's own decisions, the hard bot's
second opinion ("hard bot: bid 2, about +18 points"), drawn by replay.js from the review."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import WAIT_MS, Player, screenshots_on_failure, sign_up, view_when_mine

pytestmark = pytest.mark.e2e

MOVE = {"bids": ("bid", "bid"), "cards": ("play", "card"), "suits": ("trump", "suit")}


def play_to_the_end_through_the_api(player: Player) -> int:
    """A 3-seat game against two bots, the person's first legal move each turn, through the
    API with the browser's session (the bots answer in the worker, after each move's answer)."""
    request = player.context.request
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    headers = {"X-CSRFToken": token, "Referer": player.page.url}
    body = {"seats": 3, "bots": 2, "blind_first_round": False}
    game_id = int(request.post("/api/v1/games/", data=body, headers=headers).json()["id"])
    while (view := view_when_mine(player, game_id))["status"] == "active":
        ((kind, options),) = view["legal"].items()
        move_type, field = MOVE[kind]
        move = {"type": move_type, field: options[0], "seq": view["seq"]}
        response = request.post(f"/api/v1/games/{game_id}/moves/", data=move, headers=headers)
        assert response.ok, response.text()
    assert view["status"] == "finished"
    return game_id


def wait_for_review(player: Player, game_id: int) -> None:
    """Until the worker has stored the review of the game (it starts when the game ends)."""
    analysis = f"/api/v1/games/{game_id}/analysis/"
    end = time.monotonic() + WAIT_MS / 1000 * 3
    while (status := player.context.request.get(analysis).status) == 404:
        assert time.monotonic() < end, f"no review of game {game_id} stored"
        time.sleep(0.2)
    assert status == 200, f"GET {analysis}: {status}"


@pytest.mark.parametrize(
    "size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768}], ids=["phone", "laptop"]
)
def test_the_replay_shows_the_hard_bots_second_opinion(
    browser: Any, server_url: str, artifacts: Path, size: dict[str, int]
) -> None:
    player = sign_up(browser, server_url, f"review_{size['width']}", viewport=size)
    try:
        with screenshots_on_failure(artifacts, [player]):
            game_id = play_to_the_end_through_the_api(player)
            page = player.page
            wait_for_review(player, game_id)
            page.goto(f"/games/{game_id}/replay/")
            assert page.locator("#review-pending").count() == 0
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
