"""Bots decide in their Celery task (`bot_step`), never in the request of the move before
them, and never inside a transaction (so never holding the game's lock): the task chooses on
the committed state, then locks and applies only if the game is still where it was."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from unittest import mock

import pytest
from django.db import connection

from games import engine, services, tasks
from games.engine import ExpertBot, HeuristicBot
from games.models import Event as EventRow
from tests.games.helpers import Player, choose_move, create_game, game_row

Sent = list[tuple[int, int]]


@pytest.fixture
def sent() -> Iterator[Sent]:
    """bot_step tasks are recorded, as a broker would hold them for the worker, not run."""
    recorded: Sent = []
    with mock.patch.object(
        tasks.bot_step, "apply_async", lambda args, countdown: recorded.append(args)
    ):
        yield recorded


def until_the_person_acts(game_id: int, sent: Sent) -> None:
    """Deliver the pending tasks as the worker would, until the person (seat 0) is to act."""
    while game_row(game_id).to_act != 0:
        game_id_, seq = sent.pop(0)
        services.bot_step(game_id=game_id_, seq=seq)


def thinking_forbidden(*_: Any, **__: Any) -> Any:
    raise AssertionError("a bot thought during the request")


@pytest.mark.django_db
def test_a_move_before_a_hard_bot_answers_at_once_and_leaves_the_bot_to_its_task(
    make_player: Callable[..., Player], sent: Sent
) -> None:
    solo = make_player()
    game_id = create_game(solo, seats=3, bots=2, bot_kind="hard", blind_first_round=False)["id"]
    until_the_person_acts(game_id, sent)
    view = solo.view(game_id)
    with mock.patch.object(ExpertBot, "choose", thinking_forbidden):
        response = solo.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
    assert response.status_code == 200, response.content
    answer = response.json()
    assert answer["to_act"] == 1 and answer["seq"] == view["seq"] + 1  # the person's move only
    assert sent == [(game_id, answer["seq"])]

    assert services.bot_step(game_id=game_id, seq=answer["seq"])  # the worker: the bot moves
    decision = EventRow.objects.get(game_id=game_id, seq=answer["seq"] + 1)
    assert decision.seat == 1 and not decision.auto


@pytest.mark.django_db(transaction=True)
def test_bots_think_outside_any_transaction(make_player: Callable[..., Player]) -> None:
    """Eager tasks: the bots' replies run right after the move's commit, outside it."""
    seen: list[bool] = []
    choose = HeuristicBot.choose

    def watched(bot: HeuristicBot, view: engine.View, seat: int) -> engine.Move:
        seen.append(connection.in_atomic_block)
        return choose(bot, view, seat)

    solo = make_player()
    with mock.patch.object(HeuristicBot, "choose", watched):
        game_id = create_game(solo, seats=4, bots=3, blind_first_round=False)["id"]
        for _ in range(5):
            view = solo.view(game_id)
            assert view["to_act"] == 0  # the bots' replies are in, the person is to act
            solo.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
    assert len(seen) >= 10 and not any(seen)


@pytest.mark.django_db
def test_a_step_whose_game_moved_while_the_bot_thought_does_nothing(
    make_player: Callable[..., Player], sent: Sent
) -> None:
    solo = make_player()
    game_id = create_game(solo, seats=3, bots=2, blind_first_round=False)["id"]
    until_the_person_acts(game_id, sent)
    view = solo.view(game_id)
    solo.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
    (_, seq), *_ = sent
    chosen: list[engine.Move] = []
    choose = HeuristicBot.choose

    def twin_first(bot: HeuristicBot, view: engine.View, seat: int) -> engine.Move:
        move = choose(bot, view, seat)
        chosen.append(move)
        if len(chosen) == 1:  # a twin task delivers the same step while this one thinks
            assert services.bot_step(game_id=game_id, seq=seq)
        return move

    with mock.patch.object(HeuristicBot, "choose", twin_first):
        assert not services.bot_step(game_id=game_id, seq=seq)
    steps = EventRow.objects.filter(game_id=game_id, seq__gt=seq, seat=1)
    assert steps.count() == 1  # the twin's, once; the late one changed nothing
    assert len(chosen) == 2 and chosen[0] == chosen[1]  # seeded per decision: the same move
    assert not services.bot_step(game_id=game_id, seq=seq)  # and again, late: nothing
