"""State.copy: every field carried over, from the same field, and nothing shared that a change
to the copy could reach."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import State, legal_moves, take_turn
from tests.engine.tables import Table, start, tables

MUTABLE = (list, dict, set)


def test_a_copy_carries_every_field_from_the_same_field() -> None:
    """Each slot holds its own name, so a field left out or copied from another shows."""
    state = State()
    for name in State.__slots__:
        setattr(state, name, [name])
    twin = state.copy()
    assert [getattr(twin, name) for name in State.__slots__] == [[name] for name in State.__slots__]


def assert_independent_copy(state: State) -> None:
    twin = state.copy()
    assert twin == state
    for name in State.__slots__:
        value = getattr(state, name)
        assert getattr(twin, name) == value, name
        if isinstance(value, MUTABLE):
            assert getattr(twin, name) is not value, f"{name} is shared with the copy"
    before = copy.deepcopy(state.snapshot())
    for name in State.__slots__:
        value = getattr(twin, name)
        if isinstance(value, list):
            value.append(None)
        elif isinstance(value, dict | set):
            value.clear()
    assert state.snapshot() == before


@settings(max_examples=10, deadline=None)
@given(table=tables, choice_seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_copy_equals_the_original_and_changing_it_leaves_the_original_alone(
    table: Table, choice_seed: int
) -> None:
    """At every step of a random game, the finished one included."""
    rng = random.Random(choice_seed)
    state, _ = start(table)
    assert_independent_copy(State())
    while not state.is_over:
        assert_independent_copy(state)
        seat = state.to_act
        assert seat is not None
        state, _ = take_turn(state, seat, rng.choice(legal_moves(state)), seed=table.seed)
    assert_independent_copy(state)
