"""A solo game against bots, played through the table page to the game-over screen; and the
table on a phone-sized screen."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    Deadline,
    Player,
    create_table,
    in_viewport_width,
    play_turn,
    screenshots_on_failure,
    settle,
    sign_up,
    table_fits_viewport,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

MY_TURN_OR_OVER = (
    "() => { const v = window.WizardTable.view;"
    " return v.status !== 'active' || (v.legal !== null && v.to_act === v.you); }"
)


def play_solo(player: Player, rng: random.Random, deadline: Deadline, check: Any = None) -> dict:
    """Plays the human seat until the game is over; the bots answer in the worker, pushed to
    the page. `check(state)` runs before each of the human's moves."""
    state = player.view()
    while True:
        round_number = state["round"]["number"] if state["round"] else None
        deadline.check(f"round {round_number}, seq {state['seq']}")
        player.wait_js(MY_TURN_OR_OVER, what="the player's turn or the end of the game")
        settle(player)
        state = player.view()
        if state["status"] != "active":
            return state
        if check is not None:
            check(state)
        state = play_turn(player, rng)


def test_solo_game_against_three_bots(browser: Any, server_url: str, artifacts: Path) -> None:
    player = sign_up(browser, server_url, "solo_e2e")
    try:
        with screenshots_on_failure(artifacts, [player]):
            create_table(player, seats=4, bots=3)
            state = wait_table_live(player, what="the solo table to start at once")
            assert state["status"] == "active", state
            assert state["round"]["number"] == 1, state
            assert state["names"][0] == "solo_e2e", state

            state = play_solo(player, random.Random(4), Deadline(600, "the solo game"))

            assert state["status"] == "finished", state
            page = player.page
            gameover = page.locator('[data-testid="game-over"]')
            gameover.wait_for(state="visible")
            places = page.locator("#places li")
            assert places.count() == 4, places.all_inner_texts()
            # Each place says its exact bids and best round; once the league has rated the
            # game, a note says it was casual (bots at the table) and no rating shows.
            for text in places.all_inner_texts():
                assert re.search(r"exact bids: \d+ of 15", text) and "best round" in text, text
            note = page.locator('[data-testid="league-note"]')
            note.wait_for(state="visible")
            assert "Not a league game" in note.inner_text(), note.inner_text()
            assert page.locator('[data-testid="rating-change"]').count() == 0
            box = gameover.bounding_box()
            assert box is not None and box["y"] + 40 < 768, f"game over below the fold: {box}"
            rows = page.locator('[data-testid="score-sheet"] tbody tr')
            assert rows.count() == 15, "4 players play 15 rounds (R2)"
            # A bid a round, and every own card but the blind round's, which plays itself (R9).
            assert player.moves >= 15 + sum(range(2, 16)), player.moves
    finally:
        player.close()


def test_table_fits_a_phone_screen(browser: Any, server_url: str, artifacts: Path) -> None:
    """At 390×844 the seat boxes, the hand and the bid buttons fit without horizontal
    scrolling, at every turn of a 6-seat game (six seat boxes, hands up to 10 cards)."""
    player = sign_up(
        browser,
        server_url,
        "phone_e2e",
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    checked: list[int] = []

    def check(state: dict) -> None:
        page = player.page
        where = f"round {state['round']['number']}"
        assert table_fits_viewport(page), (
            f"{where}: the page scrolls sideways at 390 px: scrollWidth "
            f"{page.evaluate('document.documentElement.scrollWidth')}"
        )
        for selector in ("#hand .card", "#seats .seat"):
            sticking_out = in_viewport_width(page, selector)
            assert not sticking_out, f"{where}: {selector} not fully visible: {sticking_out}"
        if "bids" in state["legal"]:
            buttons = page.locator("#controls button[data-bid]")
            assert buttons.count() == state["round"]["cards"] + 1, where
            sticking_out = in_viewport_width(page, "#controls button[data-bid]")
            assert not sticking_out, f"{where}: bid buttons not fully visible: {sticking_out}"
        checked.append(state["round"]["number"])
        if state["round"]["number"] == 10 and "bids" in state["legal"]:  # the biggest hand
            page.screenshot(path=str(artifacts / "phone-last-round.png"), full_page=True)

    try:
        with screenshots_on_failure(artifacts, [player]):
            create_table(player, seats=6, bots=5)
            wait_table_live(player, what="the solo table to start at once")
            page = player.page
            assert page.locator("#hand .card.back").count() == 1, (
                "blind first round: one hidden card"
            )
            page.screenshot(path=str(artifacts / "phone-blind-round.png"), full_page=True)
            state = play_solo(
                player, random.Random(9), Deadline(600, "the phone-sized game"), check
            )
            assert state["status"] == "finished", state
            assert set(checked) == set(range(1, 11)), sorted(set(checked))
            page.locator('[data-testid="game-over"]').wait_for(state="visible")
            assert table_fits_viewport(page), "the game-over screen scrolls sideways at 390 px"
    finally:
        player.close()


def test_a_short_game_of_three_rounds_says_so_and_ends_after_the_third(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """R19: a table of rounds 1 to 3 shows "Round 2 of 3" and ends after round 3."""
    player = sign_up(browser, server_url, "short_e2e")
    try:
        with screenshots_on_failure(artifacts, [player]):
            create_table(player, seats=3, bots=2, blind_first_round=False, rounds="3")
            tag = player.page.locator(".table-facts .tag").filter(has_text="rounds 1–3")
            assert tag.count() == 1, "the table's facts do not say it plays rounds 1–3"
            wait_table_live(player, what="the short table to start at once")
            labels: set[str] = set()

            def note_round(state: dict) -> None:
                labels.add(player.page.locator("#round-info").inner_text())

            state = play_solo(player, random.Random(7), Deadline(300, "the short game"), note_round)
            assert state["status"] == "finished" and len(state["scores"]) == 3, state
            assert {"Round 1 of 3", "Round 2 of 3", "Round 3 of 3"} <= labels, labels
            rows = player.page.locator('[data-testid="score-sheet"] tbody tr')
            assert rows.count() == 3
    finally:
        player.close()
