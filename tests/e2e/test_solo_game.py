"""Short solo games against bots, played through the table page to the game-over screen; and
the table on a phone-sized screen. Each table is dealt from a seed (tests/e2e/scenarios.py)
and the human decides at random from a seeded random.Random, so each run plays the same game.
R2's whole-game facts (a game of four scores 15 rounds, a game of six deals hands of 1 to 10
cards) are checked without a browser: tests/games/test_full_game.py and
tests/games/test_e2e_scenarios.py."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    Player,
    create_table,
    in_viewport_width,
    play_turn,
    screenshots_on_failure,
    sign_up,
    table_fits_viewport,
    wait_table_live,
)
from tests.e2e.scenarios import PHONE_SEED, SHORT_SEED, SOLO_SEED
from tests.e2e.seeded import next_decision

pytestmark = pytest.mark.e2e

ROUNDS = 3  # the shortest game the lobby's form offers (R19: rounds 1 to 3)


def play_solo(player: Player, rng: random.Random, check: Any = None) -> dict[str, Any]:
    """Plays the human seat until the game is over; the bots answer in the worker, pushed to
    the page. `check(state)` runs before each of the human's moves."""
    while next_decision(player)["status"] == "active":
        if check is not None:
            check(player.view())
        play_turn(player, rng)
    return player.view()


def test_solo_game_against_three_bots(browser: Any, server_url: str, artifacts: Path) -> None:
    player = sign_up(browser, server_url, "solo_e2e", seed=SOLO_SEED)
    try:
        with screenshots_on_failure(artifacts, [player]):
            create_table(player, seats=4, bots=3, rounds=str(ROUNDS))
            state = wait_table_live(player, what="the solo table to start at once")
            assert state["status"] == "active", state
            assert state["round"]["number"] == 1, state
            assert state["names"][0] == "solo_e2e", state

            state = play_solo(player, random.Random(4))

            assert state["status"] == "finished", state
            page = player.page
            gameover = page.locator('[data-testid="game-over"]')
            expect(gameover).to_be_visible()
            places = page.locator("#places li")
            expect(places).to_have_count(4)
            # Each place says its exact bids and best round; once the league has rated the
            # game, a note says it was casual (bots at the table) and no rating shows.
            for text in places.all_inner_texts():
                exact = rf"exact bids: \d+ of {ROUNDS}"
                assert re.search(exact, text) and "best round" in text, text
            note = page.locator('[data-testid="league-note"]')
            expect(note).to_be_visible()
            expect(note).to_contain_text("Not a league game")
            expect(page.locator('[data-testid="rating-change"]')).to_have_count(0)
            box = gameover.bounding_box()
            assert box is not None and box["y"] + 40 < 768, f"game over below the fold: {box}"
            rows = page.locator('[data-testid="score-sheet"] tbody tr')
            expect(rows).to_have_count(ROUNDS)  # R19; a full game's 15 rounds (R2): test_full_game
            # A bid a round, and every own card but the blind round's, which plays itself (R9).
            assert player.moves >= ROUNDS + sum(range(2, ROUNDS + 1)), player.moves
    finally:
        player.close()


def test_table_fits_a_phone_screen(browser: Any, server_url: str, artifacts: Path) -> None:
    """At 390×844 the seat boxes, the hand and the bid buttons fit without horizontal
    scrolling, at every turn of a 6-seat game (six seat boxes) of rounds 1 to 3. The biggest
    hand at this size, 20 cards, is test_table_experience's test_twenty_cards_fit_the_screen;
    that a game of six deals hands of 1 to 10 cards is tests/games/test_e2e_scenarios.py."""
    player = sign_up(
        browser,
        server_url,
        "phone_e2e",
        seed=PHONE_SEED,
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
        if state["round"]["number"] == ROUNDS and "bids" in state["legal"]:  # the biggest hand
            page.screenshot(path=str(artifacts / "phone-last-round.png"), full_page=True)

    try:
        with screenshots_on_failure(artifacts, [player]):
            create_table(player, seats=6, bots=5, rounds=str(ROUNDS))
            wait_table_live(player, what="the solo table to start at once")
            page = player.page
            # Blind first round: one hidden card.
            expect(page.locator("#hand .card.back")).to_have_count(1)
            page.screenshot(path=str(artifacts / "phone-blind-round.png"), full_page=True)
            state = play_solo(player, random.Random(9), check)
            assert state["status"] == "finished", state
            assert set(checked) == set(range(1, ROUNDS + 1)), sorted(set(checked))
            expect(page.locator('[data-testid="game-over"]')).to_be_visible()
            assert table_fits_viewport(page), "the game-over screen scrolls sideways at 390 px"
    finally:
        player.close()


def test_a_short_game_of_three_rounds_says_so_and_ends_after_the_third(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """R19: a table of rounds 1 to 3 shows "Round 2 of 3" and ends after round 3."""
    player = sign_up(browser, server_url, "short_e2e", seed=SHORT_SEED)
    try:
        with screenshots_on_failure(artifacts, [player]):
            create_table(player, seats=3, bots=2, blind_first_round=False, rounds="3")
            # The table's facts say it plays rounds 1–3.
            tag = player.page.locator(".table-facts .tag").filter(has_text="rounds 1–3")
            expect(tag).to_have_count(1)
            wait_table_live(player, what="the short table to start at once")
            labels: set[str] = set()

            def note_round(state: dict) -> None:
                labels.add(player.page.locator("#round-info").inner_text())

            state = play_solo(player, random.Random(7), note_round)
            assert state["status"] == "finished" and len(state["scores"]) == 3, state
            assert {"Round 1 of 3", "Round 2 of 3", "Round 3 of 3"} <= labels, labels
            rows = player.page.locator('[data-testid="score-sheet"] tbody tr')
            expect(rows).to_have_count(3)
            # The sheet's heads name each bot by its seat and its level, as its seat does.
            heads = player.page.locator('[data-testid="score-sheet"] thead th').all_inner_texts()
            levels = player.page.locator(".seat .badge.bot").all_inner_texts()
            bots = [" ".join(head.split()) for head in heads if head.startswith("Bot")]
            assert len(bots) == 2 and len(levels) == 2, (heads, levels)
            assert sorted(bots) == sorted(
                f"Bot {n} {level}" for n, level in zip((2, 3), levels, strict=True)
            ), (heads, levels)
    finally:
        player.close()
