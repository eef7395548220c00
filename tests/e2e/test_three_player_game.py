"""Three people sign up, meet in the lobby and play a whole game to its game-over screen in
three browser contexts, through the pages only: the lobby's shortest format, rounds 1 to 3
(R19), dealt from a fixed seed and played with fixed choices, so it is the same game each run.
Along the way: what each page may show of the others' hands (R9 and the hidden-information
rule of API.md), and screenshots of the main screens under test-artifacts/. (A whole game of
R2's 20 rounds, its score sheet and its hidden hands round by round, is played through the API
in tests/games/test_full_game.py and tests/games/test_hidden_information.py.)

The game is played once, by a module fixture; the tests below check what it recorded."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    SHOWN_CARDS_JS,
    Player,
    create_table,
    play_turn,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)
from tests.e2e.page_waits import OVER, at_seq, my_turn, until

pytestmark = pytest.mark.e2e

# The table creator's seed: bob (seat 1) deals first. Round 1 (blind) turns up Y11; round 2,
# dealt by carol (seat 2), turns up W2, so carol chooses trump on her page; round 3, dealt by
# alice, turns up R13.
SEED = "three-player-2"
CHOICES = 2024  # the players' bids, trumps and cards: a random.Random seeded with this
ROUNDS = 3  # R19's shortest format in the lobby: rounds 1 to 3, the first one blind (R9)
USERNAMES = ("alice_e2e", "bob_e2e", "carol_e2e")

SEAT_CARDS_JS = """() => Object.fromEntries([...document.querySelectorAll("#seats .seat")].map(
  (box) => [box.dataset.seat, [...box.querySelectorAll("[data-card]")]
    .map((el) => el.dataset.card).filter(Boolean)]))"""

FINAL_JS = """() => ({
  gameover_shown: document.getElementById("gameover").checkVisibility(),
  places: [...document.querySelectorAll("#places li")].map((li) => li.textContent.trim()),
  winners: document.querySelectorAll("#places li .badge").length,
  status_line: document.getElementById("status-line").textContent,
  seat_scores: [...document.querySelectorAll("#seats .seat")].map(
    (box) => String(parseInt(box.querySelector(".score").textContent, 10))),
  sheet_rows: document.querySelectorAll('[data-testid="score-sheet"] tbody tr').length,
  sheet_last: [...document.querySelectorAll(
    '[data-testid="score-sheet"] tbody tr:last-child td .total')].map((el) => el.textContent),
})"""


@dataclass
class PlayedGame:
    players: list[Player]
    game_id: int
    seconds: float = 0.0
    moves: int = 0
    final: dict[str, dict[str, Any]] = field(default_factory=dict)
    final_views: dict[str, dict[str, Any]] = field(default_factory=dict)
    hidden_checked_rounds: list[int] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    blind_cards: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    trumps_chosen: list[int] = field(default_factory=list)  # the rounds a page chose trump in
    screenshots: dict[str, Path] = field(default_factory=dict)


def find_in_lobby(player: Player, game_id: int) -> None:
    """The open table appears in the lobby's live list (pushed, or fetched when its socket
    opens), without a reload."""
    row = player.page.locator(f'#open-tables tr[data-game="{game_id}"]')
    expect(row).to_be_visible()
    text = row.inner_text()
    assert "hook rule" in text and "no hook rule" not in text, text
    assert "blind first round" in text, text
    assert USERNAMES[0] in text, text


def join_from_lobby(player: Player, game_id: int) -> None:
    """Opens the table from the lobby row and presses the table page's join button."""
    page = player.page
    page.locator(f'#open-tables tr[data-game="{game_id}"] a.button').click()
    page.wait_for_url(f"**/games/{game_id}/")
    join = page.locator("#join-button")
    expect(join).to_be_visible()
    with page.expect_navigation():
        join.click()


def sync_all(players: list[Player], seq: int, what: str) -> list[dict[str, Any]]:
    """Every page at rest on `seq` (a person's decision: nothing else moves meanwhile)."""
    for player in players:
        until(player, at_seq(seq), what=what)
    views = [player.view() for player in players]
    seqs = {view["seq"] for view in views}
    assert len(seqs) == 1, f"{what}: the pages disagree on seq {seqs}"
    return views


def check_blind_round(players: list[Player], game: PlayedGame) -> None:
    """R9: your own card face down, each other player's card in their seat box, and every
    page sees the same card for a seat."""
    seen: dict[str, dict[str, list[str]]] = {}
    for player in players:
        view = player.view()
        page = player.page
        assert view["hand"] is None, f"{player.username} sees their own blind card: {view}"
        assert page.locator("#hand .card.back").count() == 1, f"{player.username}: no card back"
        own = page.evaluate(
            "() => [...document.querySelectorAll('#hand [data-card]')]"
            ".map((el) => el.dataset.card).filter(Boolean)"
        )
        assert own == [], f"{player.username}'s hand shows {own} in the blind round"
        seats = page.evaluate(SEAT_CARDS_JS)
        you = str(view["you"])
        assert seats[you] == [], f"{player.username}'s own seat box shows {seats[you]}"
        for seat, cards in seats.items():
            if seat != you:
                assert len(cards) == 1, f"{player.username} sees seat {seat}'s cards as {cards}"
        assert str(view["you"]) not in view["visible_hands"], view["visible_hands"]
        seen[player.username] = seats
    for seat in ("0", "1", "2"):
        shown = {tuple(cards[seat]) for cards in seen.values() if cards[seat]}
        assert len(shown) == 1, f"the pages show seat {seat}'s blind card differently: {shown}"
    cards = [cards for view in seen.values() for cards in view.values() if cards]
    assert len({card for pair in cards for card in pair}) == 3, seen
    game.blind_cards = seen


def check_hidden_hands(players: list[Player], round_number: int, game: PlayedGame) -> None:
    """Outside the blind round, no page shows a card of another player's hand."""
    views = {player.username: player.view() for player in players}
    for player in players:
        assert not player.page.locator("#gameover").is_visible(), (
            f"round {round_number}: {player.username} sees the game-over panel mid-game"
        )
        shown = set(player.page.evaluate(SHOWN_CARDS_JS))
        mine = views[player.username]
        assert set(mine["hand"]) <= shown, f"{player.username}'s own hand is not drawn"
        if mine["visible_hands"]:
            game.leaks.append(
                f"round {round_number}: {player.username} has visible_hands {mine['visible_hands']}"
            )
        for other in players:
            if other is player:
                continue
            leaked = shown & set(views[other.username]["hand"])
            if leaked:
                game.leaks.append(
                    f"round {round_number}: {player.username}'s page shows {sorted(leaked)}"
                    f" of {other.username}'s hand"
                )
    game.hidden_checked_rounds.append(round_number)


def screenshot(game: PlayedGame, player: Player, name: str, artifacts: Path, **kw: Any) -> None:
    path = artifacts / f"{name}.png"
    player.page.screenshot(path=str(path), **kw)
    game.screenshots[name] = path


@pytest.fixture(scope="module")
def three_player_game(browser: Any, server_url: str, artifacts: Path) -> Iterator[PlayedGame]:
    players: list[Player] = []
    try:
        with screenshots_on_failure(artifacts, players):
            game = play_three_player_game(browser, server_url, artifacts, players)
        yield game
    finally:
        for player in players:
            player.close()


def play_three_player_game(
    browser: Any, server_url: str, artifacts: Path, players: list[Player]
) -> PlayedGame:
    """Sign-ups, the table from the lobby, and the whole game through the three pages."""
    started = time.monotonic()
    for name in USERNAMES:  # each lands in the lobby after signing up
        seed = SEED if name == USERNAMES[0] else None  # the creator's table is dealt from it
        players.append(sign_up(browser, server_url, name, seed=seed))
    alice, bob, carol = players

    game_id = create_table(
        alice, seats=3, bots=0, hook_rule=True, blind_first_round=True, rounds=str(ROUNDS)
    )
    game = PlayedGame(players=players, game_id=game_id)
    expect(alice.page.locator("#waiting-room")).to_be_visible()
    tags = alice.page.locator("#waiting-room .tags").inner_text()
    assert "hook rule" in tags and "no hook rule" not in tags, tags
    assert "blind first round" in tags, tags

    find_in_lobby(bob, game_id)
    screenshot(game, bob, "lobby", artifacts, full_page=True)
    join_from_lobby(bob, game_id)
    expect(bob.page.locator("#leave-button")).to_be_visible()
    find_in_lobby(carol, game_id)
    join_from_lobby(carol, game_id)

    states = [
        wait_table_live(p, what="the table to start once the third player joined") for p in players
    ]
    by_seat = {state["you"]: player for state, player in zip(states, players, strict=True)}
    assert sorted(by_seat) == [0, 1, 2], states
    assert states[0]["you"] == 0, "the creator takes seat 0"

    # No bot at this table: each move's answer names the next person to act, and nothing moves
    # until they do (each acts well within the 60 s turn limit).
    fresh = max(states, key=lambda state: state["seq"])
    rng = random.Random(CHOICES)
    while fresh["status"] == "active":
        actor = by_seat[fresh["to_act"]]
        seat = fresh["to_act"]
        fresh = my_turn(actor, what=f"its turn as seat {seat} after seq {fresh['seq']}")
        rnd = fresh["round"]
        if rnd["number"] == 1 and not game.blind_cards:
            sync_all(players, fresh["seq"], "the blind round on every page")
            check_blind_round(players, game)
            screenshot(game, alice, "blind-round", artifacts, full_page=True)
        if (
            rnd["phase"] == "playing"
            and rnd["number"] > 1
            and rnd["tricks_played"] == 0
            and rnd["trick"] == 0
        ):
            sync_all(players, fresh["seq"], f"the first trick of round {rnd['number']}")
            check_hidden_hands(players, rnd["number"], game)
        if (
            "table-mid-trick" not in game.screenshots
            and rnd["number"] >= 3
            and rnd["phase"] == "playing"
            and rnd["trick"] in (1, 2)
        ):
            trick = actor.page.locator('[data-testid="trick-card"]')
            expect(trick).to_have_count(rnd["trick"])  # the current trick, as drawn
            screenshot(game, actor, "table-mid-trick", artifacts, full_page=True)
        if "suits" in fresh["legal"]:
            game.trumps_chosen.append(rnd["number"])
        fresh = play_turn(actor, rng)
    game.moves = sum(player.moves for player in players)

    for player in players:
        # The last round's summary stays until continued; then the game-over panel.
        until(player, OVER, what="the end of the game")
        expect(player.page.locator("#gameover")).to_be_visible()
        # The turn timer goes once the game is over.
        expect(player.page.locator('[data-testid="turn-timer"]')).to_have_count(0)
        # Three people, no bot: a league game, whose rating changes show once it is rated.
        expect(player.page.locator('[data-testid="rating-change"]')).to_have_count(3)
        game.final[player.username] = player.page.evaluate(FINAL_JS)
        game.final[player.username]["ratings"] = player.page.locator(
            '[data-testid="rating-change"]'
        ).all_inner_texts()
        game.final_views[player.username] = player.view()
    screenshot(game, alice, "game-over", artifacts, full_page=True)
    sheet = alice.page.locator('[data-testid="score-sheet"]')
    assert sheet.is_visible(), "the score sheet is open from the start"
    sheet.scroll_into_view_if_needed()
    path = artifacts / "score-sheet.png"
    sheet.screenshot(path=str(path))
    game.screenshots["score-sheet"] = path
    game.seconds = time.monotonic() - started
    return game


def test_three_players_play_a_whole_game(three_player_game: PlayedGame) -> None:
    game = three_player_game
    print(f"\nthree-player game {game.game_id}: {game.moves} moves in {game.seconds:.0f} s")
    finals = game.final
    views = game.final_views
    assert set(finals) == set(USERNAMES)
    for name, final in finals.items():
        assert final["gameover_shown"], f"{name}: the game-over panel is not shown"
        assert len(final["places"]) == 3, f"{name}: places {final['places']}"
        assert final["winners"] >= 1, f"{name}: no winner marked in {final['places']}"
        assert final["status_line"] == "The game is over.", final["status_line"]
        assert all(
            re.fullmatch(r"rating -?[\d.]+ → -?[\d.]+ \([+−][\d.]+\)", text)
            for text in final["ratings"]
        ), final["ratings"]
        assert final["sheet_rows"] == ROUNDS, (
            f"{name}: {final['sheet_rows']} score-sheet rows, not {ROUNDS}"
        )
        scores = views[name]["scores"]
        assert final["seat_scores"] == [str(s) for s in scores], (name, final, scores)
        totals = [int(cell) for cell in final["sheet_last"]]
        assert totals == scores, f"{name}: score sheet totals {totals} ≠ scores {scores}"
        # Places in order of score; equal scores share a place (R15).
        listed = [int(re.search(r"— (-?\d+) points", text)[1]) for text in final["places"]]
        assert listed == sorted(scores, reverse=True), (final["places"], scores)
    places = {tuple(final["places"]) for final in finals.values()}
    assert len(places) == 1, f"the pages disagree on the final places: {places}"
    scores = {tuple(view["scores"]) for view in views.values()}
    assert len(scores) == 1, f"the pages disagree on the final scores: {scores}"
    # Every round: one bid each; rounds 2 and 3: every card (round 1 plays itself, R9); and
    # carol's trump in round 2 (SEED turns up a Wizard).
    assert game.moves >= 3 * ROUNDS + 3 * sum(range(2, ROUNDS + 1)), game.moves
    assert game.trumps_chosen == [2], game.trumps_chosen


def test_pages_never_show_another_players_hand(three_player_game: PlayedGame) -> None:
    game = three_player_game
    assert game.blind_cards, "the blind round was never checked"
    rounds = list(range(2, ROUNDS + 1))
    assert sorted(game.hidden_checked_rounds) == rounds, game.hidden_checked_rounds
    assert game.leaks == [], "\n".join(game.leaks)


def test_screenshots_of_the_main_screens(three_player_game: PlayedGame) -> None:
    shots = three_player_game.screenshots
    expected = {"lobby", "blind-round", "table-mid-trick", "score-sheet", "game-over"}
    assert set(shots) == expected, sorted(shots)
    for name, path in shots.items():
        data = path.read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 2_000, f"{name}: {path} is no picture"
