"""At most MAX_SOCKETS_PER_USER sockets a user, `ws/games/` and `ws/me/` together: one more
closes the user's oldest with 4429; closed sockets stop counting; other users are unaffected."""

from __future__ import annotations

from typing import Any

import pytest

from games.socket_quota import CLOSE_TOO_MANY_SOCKETS
from tests.live.helpers import WAIT, Socket, Sockets, close_code, db, still_open, table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

LIMIT = 3


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    settings.RATE_LIMITS_ENABLED = True
    settings.MAX_SOCKETS_PER_USER = LIMIT


async def game_sockets(sockets: Sockets, game_id: int, token: str, count: int) -> list[Socket]:
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
