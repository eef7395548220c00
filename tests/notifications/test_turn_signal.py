"""games.signals.turn_started: after the commit of each change that makes a decision a
person's, with that person, the game's seq and deadline; not when the player who just decided
is to act again (they are there)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games import presence
from games.signals import turn_started
from tests.games.elsewhere import open_elsewhere
from tests.games.helpers import Player, game_row, seat_players
from tests.notifications.helpers import DAY, move, table, to_act

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
            "turn_seconds": 600,
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


@pytest.fixture
def notify_tasks() -> Iterator[list[tuple[Any, ...]]]:
    """The arguments of each turn_notify task run (tasks run eagerly in the tests)."""
    from celery.signals import task_prerun

    from notifications.tasks import turn_notify

    runs: list[tuple[Any, ...]] = []

    def record(sender: Any = None, args: tuple[Any, ...] = (), **_: Any) -> None:
        if getattr(sender, "name", None) == turn_notify.name:
            runs.append(tuple(args))

    task_prerun.connect(record, weak=False, dispatch_uid="test-turn-notify-runs")
    try:
        yield runs
    finally:
        task_prerun.disconnect(dispatch_uid="test-turn-notify-runs")


@pytest.mark.parametrize(
    ("turn_seconds", "connected", "queued"),
    [(60, True, False), (60, False, True), (DAY, True, True)],
    ids=["live-at-a-socket", "live-away-from-sockets", "correspondence-at-a-socket"],
)
def test_a_live_table_costs_no_notice_task_while_the_player_is_at_a_socket(
    make_player: Callable[..., Player],
    notify_tasks: list[tuple[Any, ...]],
    turn_seconds: int,
    connected: bool,
    queued: bool,
) -> None:
    people = [make_player() for _ in range(3)]
    with open_elsewhere(*(player.user_id for player in people if connected)):
        game_id = seat_players(people, turn_seconds=turn_seconds, blind_first_round=False)
        first = (to_act(game_id, people).user_id, game_id, game_row(game_id).seq)
        assert notify_tasks == ([first] if queued else [])


@pytest.mark.parametrize(("turn_seconds", "handed_on"), [(60, False), (DAY, True)])
def test_a_socket_of_this_process_is_known_without_the_sender_thread(
    make_player: Callable[..., Player],
    notify_tasks: list[tuple[Any, ...]],
    monkeypatch: pytest.MonkeyPatch,
    turn_seconds: int,
    handed_on: bool,
) -> None:
    """At a live table a player with a socket in this very process costs the move nothing
    more: no Redis call, nothing for the sender thread (a correspondence turn still is)."""
    from apikit import sending

    calls: list[object] = []
    real_call = sending.call
    monkeypatch.setattr(sending, "call", lambda work: (calls.append(work), real_call(work)))
    people = [make_player() for _ in range(3)]
    for player in people:
        presence._here[player.user_id] += 1
    try:
        seat_players(people, turn_seconds=turn_seconds, blind_first_round=False)
    finally:
        for player in people:
            presence._here[player.user_id] -= 1
    assert bool(calls) == handed_on
    assert bool(notify_tasks) == handed_on
