"""The replay of a finished game shows, beside the viewer's own decisions, the hard bot's
second opinion ("hard bot: bid 2, about +18 points"), drawn by replay.js from the review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import Player, screenshots_on_failure, sign_up

pytestmark = pytest.mark.e2e

MOVE = {"bids": ("bid", "bid"), "cards": ("play", "card"), "suits": ("trump", "suit")}


def play_to_the_end_through_the_api(player: Player) -> int:
    """A 3-seat game against two bots, the person's first legal move each turn, through the
    API with the browser's session (bots answer at once on this server)."""
    request = player.context.request
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    headers = {"X-CSRFToken": token, "Referer": player.page.url}
    body = {"seats": 3, "bots": 2, "blind_first_round": False}
    view = request.post("/api/v1/games/", data=body, headers=headers).json()
    while view["status"] == "active":
        ((kind, options),) = view["legal"].items()
        move_type, field = MOVE[kind]
        move = {"type": move_type, field: options[0], "seq": view["seq"]}
        response = request.post(f"/api/v1/games/{view['id']}/moves/", data=move, headers=headers)
        assert response.ok, response.text()
        view = response.json()
    assert view["status"] == "finished"
    return int(view["id"])


def test_the_replay_shows_the_hard_bots_second_opinion(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    player = sign_up(browser, server_url, "review_e2e")
    try:
        with screenshots_on_failure(artifacts, [player]):
            game_id = play_to_the_end_through_the_api(player)
            page = player.page
            page.goto(f"/games/{game_id}/replay/")  # the review ran after the last commit
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
    finally:
        player.context.close()
