"""The second opinion on a decision: a legal choice of the expert's, a gain never below zero
(the choice made is scored on the same deals), the same answer for the same seed."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    Bid,
    ChooseTrump,
    Play,
    legal_moves,
    round_history,
    seat_view,
    start_game,
    take_turn,
)
from games.engine.opinion import second_opinion


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_opinions_are_legal_non_negative_and_repeatable(players: int) -> None:
    rng = random.Random(players)
    state, _ = start_game(players=players, seed=f"opinion-{players}", blind_first_round=True)
    asked = 0
    while not state.is_over and state.round <= 4:
        seat = state.to_act
        if seat is None:  # the blind trick plays itself
            break
        legal = legal_moves(state)
        chosen = rng.choice(legal)
        view, history = seat_view(state, seat), round_history(state, seat)
        opinion = second_opinion(view, seat, history, chosen, seed="s", budget_ms=1, samples=6)
        assert opinion.best in legal and opinion.gain >= 0
        assert type(opinion.best) is type(chosen)
        again = second_opinion(view, seat, history, chosen, seed="s", budget_ms=1000, samples=6)
        assert again == second_opinion(
            view, seat, history, chosen, seed="s", budget_ms=1000, samples=6
        )
        if len(legal) == 1:
            assert opinion.best == chosen and opinion.gain == 0
        if opinion.best == chosen:
            assert opinion.gain == 0
        asked += 1
        state, _ = take_turn(state, seat, chosen, seed=f"opinion-{players}")
    assert asked >= 10


def test_a_budget_of_zero_still_answers() -> None:
    state, _ = start_game(players=4, seed="zero", blind_first_round=False)
    while state.round < 3:
        seat = state.to_act
        assert seat is not None
        state, _ = take_turn(state, seat, legal_moves(state)[0], seed="zero")
    seat = state.to_act
    assert seat is not None
    chosen = legal_moves(state)[-1]
    opinion = second_opinion(
        seat_view(state, seat), seat, round_history(state, seat), chosen, seed=1, budget_ms=0
    )
    assert opinion.best in legal_moves(state)
    assert isinstance(opinion.best, Bid | Play | ChooseTrump)
