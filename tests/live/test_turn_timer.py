"""R16 without Celery: `services.turns_expire()` (what the beat task calls) and the move that
finds an expired turn play exactly the rule's auto-move for it, start the next turn's full
limit at that auto-move, push the new views, and leave a late human move nothing to change;
a turn found long past its deadline (the timer was down) gets a fresh limit instead."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import engine, selectors, services
from games.models import Seat
from tests.live.helpers import (
    Sockets,
    assert_rows_consistent,
    db,
    event_rows,
    expire_turn,
    game_row,
    open_seats,
    rest_move,
    table,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def seat_away(game_id: int, number: int | None) -> bool:
    return Seat.objects.filter(game_id=game_id, number=number, away=True).exists()


def expired_last(game_id: int) -> bool:
    """The player to act let their last turn expire."""
    to_act = game_row(game_id).to_act
    return Seat.objects.filter(game_id=game_id, number=to_act, expiries__gt=0).exists()


def auto_move_of(game_id: int) -> tuple[int, dict[str, Any], engine.State]:
    """The seat to act, the R16 decision event the engine makes for it, and the state after."""
    game = game_row(game_id)
    before = game.engine_state()
    assert before is not None and before.to_act is not None
    move = engine.auto_move(before)
    after, events = engine.take_turn(before, before.to_act, move, seed=game.seed, auto=True)
    return before.to_act, events[0], after


async def test_turns_expire_plays_the_r16_auto_move_and_pushes_it(sockets: Sockets) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    bystander_id, _ = await db(table, 3)  # its turn has time left: the sweep leaves it alone
    bystander = await db(game_row, bystander_id)
    seat_sockets = await open_seats(sockets, game_id, people)
    kinds = set()
    for _ in range(8):  # round 1's bids and trick, into round 2: bids, plays, maybe a trump
        # A player whose last turn expired decides this one themselves: nobody lets two turns
        # in a row expire and becomes away (R18: then the medium bot decides, test_sit_out.py).
        while await db(expired_last, game_id):
            await db(rest_move, people, game_id)
            for socket in seat_sockets:
                await socket.state()
        late, expected, after = await db(auto_move_of, game_id)
        expired = await db(expire_turn, game_id)

        swept = timezone.now()
        assert await db(services.turns_expire) == 1
        assert await db(services.turns_expire) == 0  # the next turn has its own full limit

        rows = await db(assert_rows_consistent, game_id)
        decision = rows[expired.seq]
        assert decision.payload == expected and expected["seat"] == late
        assert (decision.type, decision.seat, decision.auto) == (expected["type"], late, True)
        game = await db(game_row, game_id)
        assert game.engine_state() == after
        assert game.seq == after.seq
        limit = game.turn_seconds
        # The next turn's full limit counts from the auto-move, not from the missed deadline.
        assert game.deadline is not None
        assert swept <= game.deadline - timedelta(seconds=limit) <= timezone.now()
        for seat, socket in enumerate(seat_sockets):
            state = await socket.state()
            assert state["seq"] == game.seq and state["you"] == seat
            assert state == await db(people[seat].view, game_id)
        kinds.add(expected["type"])
    assert {"bid", "play"} <= kinds
    assert not await db(Seat.objects.filter(game_id=game_id, away=True).exists)
    for socket in seat_sockets:
        assert await socket.nothing()
    assert (await db(game_row, bystander_id)).seq == bystander.seq


@pytest.mark.parametrize("humans,bots", [(3, 0), (1, 2)])
async def test_a_table_found_long_past_its_deadline_gets_a_fresh_limit_and_no_auto_move(
    sockets: Sockets, humans: int, bots: int
) -> None:
    game_id, people = await db(table, humans, bots=bots, blind_first_round=False)
    socket = await sockets.open(game_id, token=people[0].token)
    await socket.state()
    game = await db(game_row, game_id)
    limit = timedelta(seconds=game.turn_seconds)
    # The first deadline passed 2 limits + 1 s ago: the timer was down for three turn limits.
    expired = await db(expire_turn, game_id, ago=2 * limit + timedelta(seconds=1))
    assert expired.deadline is not None
    looked = timezone.now()

    await db(services.turns_expire)  # the timer's sweep, back up
    view = await db(people[0].view, game_id)

    rows = await db(assert_rows_consistent, game_id)
    assert view["seq"] == rows[-1].seq == expired.seq  # nobody was auto-moved
    assert not [row for row in rows if row.auto]
    after = await db(game_row, game_id)
    assert after.to_act == expired.to_act and after.deadline is not None
    assert looked + limit <= after.deadline <= timezone.now() + limit  # a fresh full limit
    assert view["deadline"] == selectors.iso(after.deadline)
    assert not await db(seat_away, game_id, after.to_act)  # no expiry counted (R18)
    pushed = await socket.drain()
    assert pushed and pushed[-1]["state"] == view

    # Found on time, the renewed turn expires: one auto-move, the next turn's limit from it.
    again = await db(expire_turn, game_id)
    await db(services.turns_expire)
    rows = await db(assert_rows_consistent, game_id)
    autos = [row for row in rows if row.auto and row.type in engine.PLAYER_DECISIONS]
    assert len(autos) == 1 and autos[0].seq == again.seq + 1 and autos[0].seat == again.to_act


@pytest.mark.parametrize("door", ["rest_with_seq", "rest_without_seq", "socket"])
async def test_a_human_move_after_the_deadline_is_refused_because_the_auto_move_came_first(
    sockets: Sockets, door: str
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)
    late, expected, _ = await db(auto_move_of, game_id)
    expired = await db(expire_turn, game_id)
    mine = {**expected, "type": {"trump_chosen": "trump"}.get(expected["type"], expected["type"])}
    body = {k: v for k, v in mine.items() if k not in ("seat", "auto")}
    # The late player tries something other than the auto-move, so the two can be told apart.
    if body["type"] == "bid":
        body["bid"] = next(b for b in range(2) if b != expected["bid"])

    if door == "socket":
        await seat_sockets[late].send({"type": "move", "move": body, "seq": expired.seq})
        code = (await seat_sockets[late].error())["code"]
    else:
        sent = {**body, "seq": expired.seq} if door == "rest_with_seq" else body
        response = await db(people[late].move, game_id, sent)
        assert response.status_code == 409, response.content
        code = response.json()["error"]["code"]
    assert code in {"stale_state", "not_your_turn"}

    # Straight from the rows.
    rows = await db(event_rows, game_id)
    assert len(rows) > expired.seq, "the expired turn's auto-move was not recorded"
    decision = rows[expired.seq]
    assert (decision.seat, decision.auto, decision.payload) == (late, True, expected)
    assert not [row for row in rows if row.seat == late and not row.auto]
    for seat, socket in enumerate(seat_sockets):
        state = await socket.state()
        assert state["seq"] == decision.seq and state["you"] == seat
