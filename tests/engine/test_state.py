"""State.copy: every field carried over, from the same field, and nothing shared that a change
to the copy could reach. State.to_act: always what seat_to_act says."""

from __future__ import annotations

import copy
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import State, legal_moves, seat_to_act, take_turn
from games.engine.state import apply_in_place
from tests.engine.tables import Table, start, tables

MUTABLE = (list, dict, set)
DECIDED = ("trump_chosen", "bid", "play")  # the blind trick's plays too (R9)


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


@settings(max_examples=20, deadline=None)
@given(table=tables, choice_seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_the_seat_to_act_after_every_event_is_seat_to_acts_answer(
    table: Table, choice_seed: int
) -> None:
    """R5, R7, R9, R10: event by event through a random game, the seat that makes the next
    decision; nobody while a rule acts next (a trick won, a score, a deal, its turned-up card)."""
    rng = random.Random(choice_seed)
    state, events = start(table)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state, caused = take_turn(state, seat, rng.choice(legal_moves(state)), seed=table.seed)
        events += caused
    folded = State()
    for index, event in enumerate(events):
        apply_in_place(folded, event)
        following = events[index + 1] if index + 1 < len(events) else None
        # The next seat to act is the one whose card, bid or trump choice comes next.
        expected = following["seat"] if following and following["type"] in DECIDED else None
        assert folded.to_act == expected, (index, event)
        if event["type"] != "deal":
            assert seat_to_act(folded) == expected, (index, event)
    assert folded == state
