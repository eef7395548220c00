"""The timer and a player racing for the same turn (R16): the game row lock serialises them, so
exactly one decision is recorded for the turn, whoever wins. Needs PostgreSQL (row locks)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from games import engine, services
from games.models import Game
from tests.games.helpers import choose_move
from tests.live.helpers import assert_rows_consistent, game_row, table
from wizardsite.api import error_for

ROUNDS = 30
# Where the deadline lies when both start: long gone, or running out while they run.
DEADLINE_OFFSETS = [timedelta(seconds=-1), timedelta(milliseconds=5), timedelta(milliseconds=20)]


def race(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together by a barrier; each one's result or the
    exception it raised, in order."""
    barrier = threading.Barrier(len(calls))
    out: list[Any] = [None] * len(calls)

    def run(slot: int) -> None:
        try:
            barrier.wait(timeout=10)
            out[slot] = calls[slot]()
        except Exception as error:
            out[slot] = error
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(slot,)) for slot in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive(), "a racer hung (a lock never released?)"
    return out


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_move_racing_the_timer_for_the_same_turn_records_exactly_one_decision() -> None:
    game_id, people = table(3, blind_first_round=False)
    outcomes = set()
    for attempt in range(ROUNDS):
        before = game_row(game_id)
        state = before.engine_state()
        assert state is not None and state.to_act is not None
        late = state.to_act
        view = people[late].view(game_id)
        auto = engine.auto_move(state).to_json()
        # The player wants something other than the timer's move whenever there is a choice.
        ((kind, choices),) = view["legal"].items()
        moves = [choose_move({kind: [choice]}, None) for choice in choices]
        wanted = next((move for move in moves if move != auto), auto)
        deadline = timezone.now() + DEADLINE_OFFSETS[attempt % len(DEADLINE_OFFSETS)]
        Game.objects.filter(pk=game_id).update(deadline=deadline)
        user = User.objects.get(pk=people[late].user_id)

        moved, swept = race(
            [
                partial(
                    services.move_apply,
                    game_id=game_id,
                    user=user,
                    body=wanted,
                    expected_seq=before.seq,
                ),
                services.turns_expire,
            ]
        )

        assert not isinstance(swept, BaseException), swept
        rows = assert_rows_consistent(game_id)
        later = rows[before.seq :]
        decisions = [row for row in later if row.type in engine.PLAYER_DECISIONS]
        assert len(decisions) == 1, (attempt, [(r.seq, r.type, r.seat, r.auto) for r in later])
        (decision,) = decisions
        assert decision.seq == before.seq + 1 and decision.seat == late
        if isinstance(moved, BaseException):
            found = error_for(moved)
            assert found is not None, moved
            assert found[1]["error"]["code"] in {"stale_state", "not_your_turn"}
            assert decision.auto and decision.payload == {**auto_event(state), "auto": True}
            assert swept in (0, 1)
            outcomes.add("timer")
        else:
            assert not decision.auto and swept == 0
            outcomes.add("player")
        game = game_row(game_id)
        assert game.deadline is not None and game.deadline > timezone.now()
    assert "timer" in outcomes, outcomes


def auto_event(state: engine.State) -> dict[str, Any]:
    """The decision event of the R16 auto-move (without its auto mark)."""
    assert state.to_act is not None
    _, events = engine.take_turn(state, state.to_act, engine.auto_move(state), seed="-")
    return events[0]
