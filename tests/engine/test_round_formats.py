"""R19, round formats: the whole game, only the odd rounds, or rounds 1 to N. Round k still
deals k cards; the dealer moves one seat left for each round played; the last round played
turns up no card only when it deals the whole deck (R6)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import rules
from games.engine.errors import Invalid
from games.engine.events import Event
from games.engine.state import State, replay, round_numbers, rounds_for
from tests.engine.test_rules import SEED, of_type, play_game


def played_rounds(history: list[Event]) -> list[int]:
    return [event["round"] for event in of_type(history, "deal")]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r19_odd_plays_rounds_1_3_5_and_ends_after_the_last_odd_one(players: int) -> None:
    state, history = play_game(players, SEED, rounds="odd")
    odd = list(range(1, rounds_for(players) + 1, 2))
    assert played_rounds(history) == odd
    assert [score["round"] for score in state.scores] == odd
    assert state.is_over and len(of_type(history, "game_over")) == 1


@pytest.mark.parametrize(("players", "last"), [(3, 1), (4, 5), (6, 10)])
def test_r19_a_number_plays_rounds_1_to_n(players: int, last: int) -> None:
    state, history = play_game(players, SEED, rounds=last)
    assert played_rounds(history) == list(range(1, last + 1))
    assert len(state.scores) == last and state.is_over


def test_r19_round_k_deals_k_cards_and_the_dealer_moves_one_seat_a_round_played() -> None:
    _, history = play_game(4, SEED, rounds="odd")
    deals = of_type(history, "deal")
    first = deals[0]["dealer"]
    for played, deal in enumerate(deals):
        assert all(len(hand) == deal["round"] for hand in deal["hands"])
        assert deal["dealer"] == (first + played) % 4  # R3, not one seat per round number


@pytest.mark.parametrize(("players", "turned_in_last"), [(4, False), (3, True), (5, True)])
def test_r19_the_last_round_turns_up_a_card_unless_it_deals_the_whole_deck(
    players: int, turned_in_last: bool
) -> None:
    # Odd rounds: 4 players end on 15 (60 cards dealt); 3 end on 19, 5 on 11 (R6 does not apply).
    _, history = play_game(players, SEED, rounds="odd")
    last_turned = of_type(history, "trump_turned")[-1]["card"]
    assert (last_turned is not None) == turned_in_last


def test_r19_a_short_game_replays_and_restores_to_the_same_state() -> None:
    state, history = play_game(5, SEED, rounds=4)
    assert replay(history) == state
    assert State.from_json(state.to_json()) == state
    assert of_type(history, "game_started")[0]["rounds"] == [1, 2, 3, 4]


def test_r19_a_game_started_before_the_option_plays_every_round() -> None:
    state, history = play_game(3, SEED)
    opening = {key: value for key, value in history[0].items() if key != "rounds"}
    assert replay([opening, *history[1:]]) == state  # type: ignore[list-item]
    data = state.to_json()
    del data["round_numbers"]
    assert State.from_json(data).round_numbers == tuple(range(1, 21))


@pytest.mark.parametrize("rounds", [0, 21, -1, "even", "5", True, None, 2.0])
def test_r19_any_other_format_is_refused(rounds: Any) -> None:
    with pytest.raises(Invalid):
        rules.start_game(players=3, seed=SEED, rounds=rounds)
    with pytest.raises(ValueError):
        round_numbers(3, rounds)
