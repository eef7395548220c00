"""A game socket on the Redis layer that missed a push in its first moments (another process
did not know yet that it listens) is sent, a moment later, the view and the rows it missed, as
the push would have brought them; a socket that missed nothing is sent nothing more."""

from __future__ import annotations

import uuid
from typing import Any
from unittest import mock

import pytest
from django.db import transaction

from games import consumers, push
from games.locks import lock_table
from games.outcome import Outcome
from tests.live.helpers import QUIET, Sockets, db, event_rows, open_seats, rest_move, table
from tests.live.test_redis import layer_settings

pytestmark = [pytest.mark.redis, pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

CATCH_UP_AFTER = 0.5


@pytest.fixture(autouse=True)
def _redis_layer_and_a_short_wait(redis_url: str, settings: Any) -> Any:
    # Game ids repeat between test runs' databases: groups of a prefix of this run's own.
    settings.CHANNEL_LAYERS = layer_settings(redis_url, prefix=f"catch-up-{uuid.uuid4().hex}")
    with mock.patch.object(consumers, "CATCH_UP_AFTER", CATCH_UP_AFTER):
        yield


async def test_a_socket_that_missed_a_push_gets_the_view_and_the_rows_it_missed(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)

    with mock.patch.object(push, "send_many"):  # the move's push never reaches them
        mover, _ = await db(rest_move, people, game_id)

    rows = await db(event_rows, game_id)
    for seat, socket in enumerate(seat_sockets):
        state, events = await socket.state_and_events(timeout=CATCH_UP_AFTER + 5)
        assert state == await db(people[seat].view, game_id)
        assert [row["seq"] for row in events] == [rows[-1].seq]
        # The first move is a bid, a card, or the trump a dealer names under a turned-up Wizard.
        assert events[0]["seat"] == mover
        assert events[0]["type"] in ("bid", "play", "trump_chosen")

    # The push that was on its way all along arrives after all: nobody hears the view twice.
    await db(push_again, game_id)
    for socket in seat_sockets:
        assert await socket.nothing()


def push_again(game_id: int) -> None:
    """The game's views pushed once more, as they stand (the same seq)."""
    with transaction.atomic():
        table = lock_table(game_id)
    unchanged = Outcome(table.game, table.seats, table.game.engine_state())
    push.send_many(push.messages_of(unchanged))


async def test_a_socket_that_missed_nothing_is_sent_nothing_more(sockets: Sockets) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)
    await db(rest_move, people, game_id)
    for socket in seat_sockets:
        await socket.state()  # the move's own push

    for socket in seat_sockets:
        assert await socket.communicator.receive_nothing(CATCH_UP_AFTER + 2 * QUIET)
