"""The browser tests' seeded scenarios (tests/e2e/scenarios.py), checked through the API in
process: each seed still deals what its browser test needs, so a change of the engine, the
bots or the deal that breaks a scenario fails here in seconds rather than in the browser. Also
the facts of the game the browser tests once checked by playing whole games (R2's rounds and
hands), checked here on the engine."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

from games import engine
from tests.e2e.scenarios import (
    BOMB,
    CLOUD_ADJUST,
    NO_TRUMP,
    PASS,
    QUICK_BOTS_SEED,
    SHAPE_CHOICE,
    SPECIAL_CARDS,
    SPECIAL_GAMES,
    SUIT_PICKER,
    TIMER_SEED,
    WEREWOLF,
    SpecialGame,
    scripted_move,
)
from tests.games.helpers import Player


@pytest.fixture(autouse=True)
def _seed_header(settings: Any) -> None:
    """TEST_SHUFFLE_SEEDS, as the browser tests' stack runs: the header fixes a table's seed."""
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "games.fixed_seeds.from_header"]


def create(player: Player, seed: str, **options: Any) -> dict[str, Any]:
    answer = player.client.post(
        "/api/v1/games/", options, format="json", headers={"X-Test-Shuffle-Seed": seed}
    )
    assert answer.status_code == 201, answer.json()
    view: dict[str, Any] = answer.json()
    return view


def play_scripted(player: Player, game_id: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The human decides by scripted_move until the game ends (the bots answer in their eager
    tasks); each view the human acted on, with the move."""
    decisions = []
    while (view := player.view(game_id))["status"] == "active":
        assert view["to_act"] == view["you"] == 0 and view["legal"], view
        move = scripted_move(view)
        answer = player.move(game_id, {**move, "seq": view["seq"]})
        assert answer.status_code == 200, answer.json()
        decisions.append((view, move))
    assert view["status"] == "finished", view
    return decisions


def met(decisions: list[tuple[dict[str, Any], dict[str, Any]]]) -> set[str]:
    """The kinds of decision (scenarios.py) the human met."""
    found: set[str] = set()
    for view, move in decisions:
        legal = view["legal"]
        if move["type"] == "play" and "suit" in move:
            found.add(SUIT_PICKER)
        if move["type"] == "play" and "as" in move:
            found.add(SHAPE_CHOICE)
        if "passes" in legal:
            found.add(PASS)
        if "adjust" in legal:
            found.add(CLOUD_ADJUST)
        if "suits" in legal and "none" in legal["suits"]:
            found.add(NO_TRUMP)
    return found


@pytest.mark.parametrize("game", SPECIAL_GAMES, ids=lambda game: game.seed)
def test_each_special_cards_seed_deals_what_its_browser_test_meets(
    make_player: Callable[..., Player], game: SpecialGame
) -> None:
    """tests/e2e/test_special_cards.py: the human meets exactly the decisions the seed is
    chosen for, the table shows a bombed trick and a Werewolf's swap (from round 2, once the
    page is open) when it says so, and the game ends after its rounds."""
    human = make_player()
    body = {
        "seats": 4,
        "bots": 3,
        "special_cards": SPECIAL_CARDS,
        "rounds": game.rounds,
        "blind_first_round": False,
    }
    game_id = create(human, game.seed, **body)["id"]
    decisions = play_scripted(human, game_id)
    assert met(decisions) == game.meets - {BOMB, WEREWOLF}
    view = human.view(game_id)
    assert len(view["scores"]) == game.rounds
    events = human.events(game_id)
    bombed = [e for e in events if e["type"] == "trick_won" and e["payload"]["seat"] is None]
    assert bool(bombed) == (BOMB in game.meets)
    swaps = [number for number, e in in_rounds(events) if e["type"] == "werewolf"]
    assert bool(swaps) == (WEREWOLF in game.meets)
    assert all(number >= 2 for number in swaps), swaps
    # R24: the card passed to the human (by the seat on their right) is in their hand at
    # their next decision, and the one they passed is not.
    passed = [e["payload"]["cards"] for e in events if e["type"] == "cards_passed"]
    passes = [
        (view, after)
        for (view, move), (after, _) in itertools.pairwise(decisions)
        if move["type"] == "pass"
    ]
    assert len(passes) == len(passed) == (PASS in game.meets)
    for (view, after), cards in zip(passes, passed, strict=True):
        assert cards[0] not in after["hand"] and cards[-1] in after["hand"], (cards, after)
        assert len(after["hand"]) == len(view["hand"])


def in_rounds(events: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
    """Each event with the number of the round it came in."""
    number = 0
    found = []
    for event in events:
        if event["type"] == "deal":
            number = event["payload"]["round"]
        found.append((number, event))
    return found


def test_the_quick_bots_seed_gives_the_blind_trick_to_a_bot(
    make_player: Callable[..., Player],
) -> None:
    """tests/e2e/test_table_experience.py: at the lobby's "Play against bots" table, whatever
    the human bids, a bot wins the blind first round's one trick (R9), so a trick won by a bot
    is shown within two rounds; the human is the first to bid."""
    for bid in (0, 1):
        human = make_player()
        view = create(
            human, QUICK_BOTS_SEED, seats=4, bots=3, hook_rule=True, blind_first_round=True
        )
        assert view["status"] == "active" and view["round"]["number"] == 1
        assert view["round"]["dealer"] == 3 and view["to_act"] == 0, view
        human_view = human.view(view["id"])
        answer = human.move(view["id"], {"type": "bid", "bid": bid, "seq": human_view["seq"]})
        assert answer.status_code == 200, answer.json()
        won = [e for e in human.events(view["id"]) if e["type"] == "trick_won"]
        assert [e["payload"]["seat"] for e in won] == [2]


def test_the_timer_seed_makes_the_humans_bid_the_first_decision(
    make_player: Callable[..., Player],
) -> None:
    """tests/e2e/test_table_experience.py's turn-limit notice: the human's turn (a bid) comes
    first, so their turn limit runs from the start of the game."""
    human = make_player()
    view = create(human, TIMER_SEED, seats=3, bots=2, turn_seconds=5, blind_first_round=False)
    assert view["status"] == "active" and view["round"]["dealer"] == 2
    mine = human.view(view["id"])
    assert mine["to_act"] == 0 and "bids" in mine["legal"] and mine["deadline"], mine


@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (6, 10)])
def test_a_full_game_deals_rounds_one_to_sixty_over_players_each_of_its_number_of_cards(
    players: int, rounds: int
) -> None:
    """R2, R4 (from the browser tests that played whole games: a full game of four scores 15
    rounds, the phone's game of six plays rounds 1 to 10 with hands up to 10 cards, the last
    round of three deals 20 cards)."""
    assert engine.round_numbers(players) == tuple(range(1, rounds + 1))
    for number in engine.round_numbers(players):
        hands, turned_up = engine.deal_round("scenario", number, players, 0)
        assert [len(hand) for hand in hands] == [number] * players
        assert (turned_up is None) == (number == rounds)  # R6: the last deals the whole deck
