"""games.signals.turn_started: after the commit of each change that makes a decision a
person's, with that person, the game's seq and deadline; not when the player who just decided
is to act again (they are there)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.signals import turn_started
from tests.games.helpers import Player, game_row
from tests.notifications.helpers import move, table, to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def announced() -> Iterator[list[dict[str, Any]]]:
    calls: list[dict[str, Any]] = []

    def record(sender: object, **kwargs: Any) -> None:
        calls.append(kwargs)

    turn_started.connect(record, weak=False, dispatch_uid="test-turn-signal")
    try:
        yield calls
    finally:
        turn_started.disconnect(dispatch_uid="test-turn-signal")


def test_each_new_turn_of_a_person_is_announced_once_and_a_repeat_turn_not(
    make_player: Callable[..., Player], announced: list[dict[str, Any]]
) -> None:
    game_id, people = table(make_player, 600)
    game = game_row(game_id)
    assert announced == [
        {
            "signal": turn_started,
            "game_id": game_id,
            "user_id": to_act(game_id, people).user_id,
            "seq": game.seq,
            "deadline": game.deadline,
        }
    ]
    repeats = handed_on = 0
    for _ in range(300):  # until both cases were seen (a deal decides when a repeat comes)
        if repeats and handed_on >= 5:
            break
        announced.clear()
        mover = move(game_id, people)
        game = game_row(game_id)
        if game.status != "active":
            break
        after = to_act(game_id, people)
        if after is mover:
            repeats += 1
            assert announced == []
        else:
            handed_on += 1
            assert [(c["user_id"], c["seq"], c["deadline"]) for c in announced] == [
                (after.user_id, game.seq, game.deadline)
            ]
    # The walk met a player who was to act again (a trick won, a new round) and handed-on turns.
    assert repeats and handed_on >= 5
