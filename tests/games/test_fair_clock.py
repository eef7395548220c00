"""Fair clocks (R16, R18) on a controlled clock: a turn's limit counts from the commit that
made it, never from a missed deadline; a turn found long after its deadline (the timer was
down) gets a fresh full limit once instead of an auto-move; one push per transaction."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest

from games import push, services
from games.models import Event as EventRow
from games.models import Game, Seat
from games.services.clock import OUTAGE_GRACE
from tests.games.helpers import Player, choose_move, game_row, seat_players, services_clock_at

LIMIT = 20


at = services_clock_at


def sweep_at(game_id: int, moment: datetime) -> Game:
    """The timer's sweep runs with its clock at `moment` (R16); the game after it."""
    with at(moment):
        services.turns_expire()
    return game_row(game_id)


@pytest.fixture
def table(make_player: Callable[..., Player]) -> tuple[int, list[Player]]:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, turn_seconds=LIMIT, blind_first_round=False)
    view = people[0].view(game_id)
    if view["round"]["phase"] == "choosing_trump":  # a Wizard was turned up (R5)
        dealer = people[view["round"]["dealer"]]
        assert dealer.move(game_id, {"type": "trump", "suit": "green"}).status_code == 200
    return game_id, people


def running(game_id: int) -> tuple[int, int, datetime]:
    game = game_row(game_id)
    assert game.to_act is not None and game.deadline is not None
    return game.seq, game.to_act, game.deadline


def expiries(game_id: int, seat: int) -> tuple[int, bool]:
    row = Seat.objects.get(game_id=game_id, number=seat)
    return row.expiries, row.away


def test_the_turn_after_an_auto_move_gets_its_full_limit_from_that_auto_move(
    table: tuple[int, list[Player]],
) -> None:
    game_id, _ = table
    seq, seat, deadline = running(game_id)
    found = deadline + timedelta(seconds=2)  # the timer a little late, within its grace
    after = sweep_at(game_id, found)
    assert after.seq == seq + 1 and after.to_act != seat
    assert EventRow.objects.get(game_id=game_id, seq=seq + 1).auto
    # Not deadline + LIMIT (what the missed deadline would leave): the full limit from now.
    assert after.deadline == found + timedelta(seconds=LIMIT)


def test_a_turn_found_long_past_its_deadline_gets_a_fresh_limit_once_then_expires(
    table: tuple[int, list[Player]],
) -> None:
    game_id, _ = table
    seq, seat, deadline = running(game_id)
    outage_over = deadline + OUTAGE_GRACE + timedelta(minutes=10)
    renewed = sweep_at(game_id, outage_over)
    assert renewed.seq == seq and renewed.to_act == seat  # nobody was auto-moved
    assert renewed.deadline == outage_over + timedelta(seconds=LIMIT)
    assert expiries(game_id, seat) == (0, False)  # no expiry counted (R18)
    # The renewed turn is the limit, whatever happens to the timer again (R16).
    again = sweep_at(game_id, renewed.deadline + OUTAGE_GRACE + timedelta(minutes=10))
    assert again.seq == seq + 1 and again.to_act != seat
    assert EventRow.objects.get(game_id=game_id, seq=seq + 1).auto
    assert expiries(game_id, seat) == (1, False)
    assert again.turn_renewed is False  # the next turn may be renewed after an outage too


def test_after_an_outage_a_table_nobody_watched_auto_moves_nobody(
    table: tuple[int, list[Player]],
) -> None:
    game_id, _ = table
    seq, _, deadline = running(game_id)
    # Hours later: the chain of missed deadlines is not played out in the players' absence.
    sweep_at(game_id, deadline + timedelta(hours=3))
    assert game_row(game_id).seq == seq
    assert not EventRow.objects.filter(game_id=game_id, auto=True).exists()


def test_a_player_who_could_not_move_during_the_outage_may_move_after_it(
    table: tuple[int, list[Player]],
) -> None:
    game_id, people = table
    seq, seat, deadline = running(game_id)
    mine = people[seat].view(game_id)
    body = {**choose_move(mine["legal"], None), "seq": seq}
    with at(deadline + OUTAGE_GRACE + timedelta(seconds=30)):
        response = people[seat].move(game_id, body)
    assert response.status_code == 200, response.content
    row = EventRow.objects.get(game_id=game_id, seq=seq + 1)
    assert (row.seat, row.auto) == (seat, False)


def test_an_auto_move_and_the_move_that_found_it_push_once(
    table: tuple[int, list[Player]], django_capture_on_commit_callbacks: Any
) -> None:
    game_id, people = table
    seq, late, deadline = running(game_id)
    mover = people[(late + 1) % 3]  # next to bid once the late seat's bid is made (R7)
    sent: list[list[tuple[str, Any]]] = []

    def send_many(messages: list[tuple[str, Any]], then: Callable[[], None] | None = None) -> None:
        sent.append(messages)
        if then is not None:
            then()

    with (
        mock.patch.object(push, "send_many", send_many),
        django_capture_on_commit_callbacks(execute=True),
        at(deadline + timedelta(seconds=1)),
    ):
        # The move finds the late seat's turn expired: its auto-move is made first, under
        # the same lock and in the same transaction (R16), then the move itself.
        response = mover.move(game_id, {"type": "bid", "bid": 0})
    assert response.status_code == 200, response.content
    assert len(sent) == 1
    groups = [group for group, _ in sent[0]]
    assert len(groups) == len(set(groups))  # each group gets one message
    state = next(m for g, m in sent[0] if g == push.game_group(game_id))
    own = push.decode(state, mover.user_id)
    rows = [(row["seq"], row["seat"], row["auto"]) for row in own["events"]]
    assert rows[:2] == [(seq + 1, late, True), (seq + 2, (late + 1) % 3, False)]
