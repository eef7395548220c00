"""Bots and the blind trick (R9) act one step at a time: each step its own task, transaction
and push, BOT_MOVE_DELAY_MS after the previous one (TRICK_PAUSE_MS more after a trick), and a
duplicated or late task moves nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone

from games import services, tasks
from games.models import Event as EventRow
from tests.games.helpers import Player, choose_move, create_game, game_row

pytestmark = pytest.mark.django_db

Scheduled = list[tuple[tuple[int, int], float]]


@pytest.fixture
def scheduled(settings: Any) -> Iterator[Scheduled]:
    """Bots paced at 700 ms (1500 ms more after a trick); each task sent is recorded, not run."""
    settings.BOT_MOVE_DELAY_MS, settings.TRICK_PAUSE_MS = 700, 1500
    sent: Scheduled = []
    with mock.patch.object(
        tasks.bot_step, "apply_async", lambda args, countdown: sent.append((args, countdown))
    ):
        yield sent


def run_next(scheduled: Scheduled, capture: Callable[..., Any]) -> bool:
    """Deliver the oldest task as the worker would (its commit sends the next one)."""
    (game_id, seq), _ = scheduled.pop(0)
    with capture(execute=True):
        return services.bot_step(game_id=game_id, seq=seq)


def test_a_bots_turn_is_a_scheduled_task_and_a_duplicate_or_late_one_moves_nothing(
    make_player: Callable[..., Player],
    scheduled: Scheduled,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    solo = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        game_id = create_game(solo, seats=4, bots=3, blind_first_round=False)["id"]
    game = game_row(game_id)
    while game.to_act == 0:  # let the human act until a bot is to act
        view = solo.view(game_id)
        with django_capture_on_commit_callbacks(execute=True):
            solo.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
        game = game_row(game_id)
    seq = game.seq
    # Nothing of the bot's was applied inline: its decision waits for the task, 0.7 s on.
    assert not EventRow.objects.filter(game_id=game_id, seq__gt=seq).exists()
    assert scheduled[-1] == ((game_id, seq), 0.7)

    duplicate = scheduled[-1]
    assert run_next(scheduled[-1:], django_capture_on_commit_callbacks)
    decisions = EventRow.objects.filter(game_id=game_id, seq__gt=seq, seat=game.to_act)
    assert decisions.count() == 1 and not decisions.get().auto

    # The same task delivered twice, or late after the game moved on: nothing moves.
    moved = game_row(game_id).seq
    assert not services.bot_step(game_id=duplicate[0][0], seq=duplicate[0][1])
    assert game_row(game_id).seq == moved


def test_after_a_complete_trick_the_next_bot_waits_the_trick_pause(
    make_player: Callable[..., Player],
    scheduled: Scheduled,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    solo = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        game_id = create_game(solo, seats=3, bots=2, blind_first_round=False)["id"]
    pauses = []
    # Until a bot has led after a trick (a deal may give the person every early trick).
    while {0.7, 2.2} - set(pauses) and game_row(game_id).status == "active":
        if scheduled:
            pauses.append(scheduled[0][1])
            run_next(scheduled, django_capture_on_commit_callbacks)
        else:
            view = solo.view(game_id)
            assert view["legal"] is not None, "neither a task nor a human decision is pending"
            with django_capture_on_commit_callbacks(execute=True):
                solo.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
    assert set(pauses) == {0.7, 2.2}  # 0.7 s between bots, 2.2 s after a trick was won


def test_the_blind_trick_plays_itself_one_card_per_step_and_hides_the_own_card(
    make_player: Callable[..., Player],
    scheduled: Scheduled,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    solo = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        game_id = create_game(solo, seats=3, bots=2, blind_first_round=True)["id"]
    while game_row(game_id).engine_state().phase in ("bidding", "choosing_trump"):  # type: ignore[union-attr]
        if scheduled:
            run_next(scheduled, django_capture_on_commit_callbacks)
        else:
            view = solo.view(game_id)
            with django_capture_on_commit_callbacks(execute=True):
                solo.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
    plays = []
    while game_row(game_id).engine_state().round == 1:  # type: ignore[union-attr]
        view = solo.view(game_id)
        assert view["legal"] is None and view["hand"] is None  # R9: the own card stays hidden
        seq = view["seq"]
        assert run_next(scheduled, django_capture_on_commit_callbacks)
        plays.append(list(EventRow.objects.filter(game_id=game_id, seq__gt=seq, type="play")))
    assert [len(step) for step in plays] == [1, 1, 1]
    assert all(step[0].auto for step in plays)


def test_a_lost_task_is_sent_again_by_the_timer_sweep(
    make_player: Callable[..., Player],
    scheduled: Scheduled,
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    solo = make_player()
    with django_capture_on_commit_callbacks(execute=True):
        game_id = create_game(solo, seats=3, bots=2, blind_first_round=False)["id"]
    game = game_row(game_id)
    if game.to_act == 0:
        view = solo.view(game_id)
        with django_capture_on_commit_callbacks(execute=True):
            solo.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
        game = game_row(game_id)
    scheduled.clear()  # the broker lost the task
    assert game.deadline is not None and game.deadline < timezone.now() + timedelta(seconds=10)
    seq = game.seq

    later = game.deadline + timedelta(milliseconds=1)
    with mock.patch.object(services.moves.timezone, "now", lambda: later):
        assert services.turns_expire() == 0  # nothing applied under the lock
    # The sweep never lets the bot think under the game's lock: it sends the task again.
    assert scheduled == [((game_id, seq), 0)]
    assert game_row(game_id).seq == seq
    assert game_row(game_id).deadline > later  # type: ignore[operator]

    assert run_next(scheduled, django_capture_on_commit_callbacks)
    bot_decisions = EventRow.objects.filter(game_id=game_id, seq__gt=seq, seat=game.to_act)
    assert bot_decisions.exists()


def test_a_human_turn_near_its_deadline_gets_a_task_at_it_that_a_later_move_voids(
    make_player: Callable[..., Player],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    people = [make_player() for _ in range(3)]
    sent: list[tuple[tuple[int, int], Any]] = []
    with (
        mock.patch.object(
            tasks.turn_expire, "apply_async", lambda args, eta: sent.append((args, eta))
        ),
        django_capture_on_commit_callbacks(execute=True),
    ):
        game_id = create_game(people[0], seats=3)["id"]
        for player in people[1:]:
            player.join(game_id)
        game = game_row(game_id)
        assert game.deadline is not None
        assert sent == []  # a turn far from its deadline costs no task yet
        soon = game.deadline - services.clock.EXPIRY_LOOKAHEAD / 2
        with mock.patch.object(services.moves.timezone, "now", lambda: soon):
            assert services.turns_expire() == 0  # the sweep: nothing due, this turn soon
    assert sent == [((game_id, game.seq), game.deadline)]  # R16: due at the deadline

    # Delivered early, or after someone moved, the task moves nothing.
    assert services.turn_expire(game_id=game_id, seq=game.seq) == 0
    later = game.deadline + timedelta(milliseconds=1)  # type: ignore[operator]
    with mock.patch.object(services.moves.timezone, "now", lambda: later):
        assert services.turn_expire(game_id=game_id, seq=game.seq - 1) == 0
        assert services.turn_expire(game_id=game_id, seq=game.seq) == 1
        assert services.turn_expire(game_id=game_id, seq=game.seq) == 0  # a duplicate
    moved = EventRow.objects.get(game_id=game_id, seq=game.seq + 1)
    assert moved.auto and moved.seat == game.to_act
