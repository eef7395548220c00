"""At most MAX_SOCKETS_PER_USER sockets a user, `ws/games/` and `ws/me/` together: one more
closes the user's oldest with 4429, in whichever process it is; closed sockets stop counting;
other users are unaffected. Signed out, at most MAX_ANONYMOUS_SOCKETS_PER_ADDRESS an address:
one more is refused with 4429."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from channels.layers import get_channel_layer

from games import presence
from games.presence import CLOSE_TOO_MANY_SOCKETS
from tests.games.elsewhere import count, put
from tests.live.helpers import WAIT, Socket, Sockets, close_code, db, still_open, table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

LIMIT = 3


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.RATE_LIMITS_ENABLED = True
    settings.MAX_SOCKETS_PER_USER = LIMIT
    settings.MAX_ANONYMOUS_SOCKETS_PER_ADDRESS = LIMIT


async def game_sockets(
    sockets: Sockets, game_id: int, token: str | None, count: int
) -> list[Socket]:
    opened = []
    for _ in range(count):
        socket = await sockets.open(game_id, token=token)
        await socket.state()
        opened.append(socket)
    return opened


async def test_one_socket_past_the_limit_closes_the_users_oldest(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    token = people[0].token
    first, second, third = await game_sockets(sockets, game_id, token, LIMIT)
    others = await game_sockets(sockets, game_id, people[1].token, LIMIT)
    for socket in (first, second, third):
        await socket.state()  # the fresh view that told it the other player came online

    await sockets.me(token)  # the fourth, of another kind

    assert await close_code(first.communicator) == CLOSE_TOO_MANY_SOCKETS
    # It stopped counting at once, before its client has seen the close.
    assert count(presence.user_key(people[0].user_id)) == LIMIT
    assert await second.nothing() and await still_open(second) and await still_open(third)
    assert all([await still_open(socket) for socket in others])

    (fifth,) = await game_sockets(sockets, game_id, token, 1)
    assert await close_code(second.communicator) == CLOSE_TOO_MANY_SOCKETS
    assert await still_open(third) and await still_open(fifth)


async def test_a_closed_socket_no_longer_counts(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    token = people[0].token
    first, second, third = await game_sockets(sockets, game_id, token, LIMIT)
    await second.communicator.disconnect(timeout=WAIT)

    (fourth,) = await game_sockets(sockets, game_id, token, 1)

    assert await first.nothing()
    assert all([await still_open(socket) for socket in (first, third, fourth)])


async def test_without_rate_limits_no_socket_is_closed(sockets: Sockets, settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = False
    game_id, people = await db(table, 3)
    opened = await game_sockets(sockets, game_id, people[0].token, LIMIT + 2)
    assert await opened[0].nothing()
    assert all([await still_open(socket) for socket in opened])


async def test_the_oldest_socket_past_the_limit_is_told_to_close_in_another_process(
    sockets: Sockets,
) -> None:
    """A socket held by another web process is told through the channel layer."""
    game_id, people = await db(table, 3)
    layer = get_channel_layer()
    elsewhere = await layer.new_channel()
    put(presence.user_key(people[0].user_id), channel=elsewhere, opened=time.time() - 60)
    held = await game_sockets(sockets, game_id, people[0].token, LIMIT - 1)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(layer.receive(elsewhere), 0.3)  # at the limit, not past it

    await sockets.me(people[0].token)

    assert await asyncio.wait_for(layer.receive(elsewhere), WAIT) == {"type": "socket.evicted"}
    assert all([await still_open(socket) for socket in held])


async def test_one_address_holds_only_so_many_signed_out_sockets(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    watching = await game_sockets(sockets, game_id, None, LIMIT)
    assert await sockets.refused(game_id) == CLOSE_TOO_MANY_SOCKETS
    (signed_in,) = await game_sockets(sockets, game_id, people[0].token, 1)  # not counted so
    assert all([await still_open(socket) for socket in (*watching, signed_in)])

    await watching[0].communicator.disconnect(timeout=WAIT)
    (again,) = await game_sockets(sockets, game_id, None, 1)  # the refused one never counted
    assert await still_open(again)
    assert await sockets.refused(game_id) == CLOSE_TOO_MANY_SOCKETS
