"""A user counts as connected while any socket of theirs is open (game socket or `ws/me/`),
and not once the last one closes; the sockets are kept in the socket registry (Redis, here
its in-process store)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from prometheus_client import REGISTRY
from uvicorn.protocols.utils import ClientDisconnected

from games import presence
from tests.games.elsewhere import open_elsewhere
from tests.games.helpers import seat_players
from tests.live.helpers import WAIT, db, new_players, rest_move
from wizardsite.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def connect(path: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(application, path, headers=[(b"host", b"testserver")])
    connected, _ = await communicator.connect(timeout=WAIT)
    assert connected
    return communicator


async def test_open_sockets_count_until_the_last_one_closes() -> None:
    player, other = await db(new_players, 2)
    game_id = await db(seat_players, [player, other], seats=3, bots=1, blind_first_round=False)
    assert not await db(presence.is_connected, player.user_id)
    me = await connect(f"/ws/me/?token={player.token}")
    game = await connect(f"/ws/games/{game_id}/?token={player.token}")
    await game.receive_json_from(WAIT)  # the view sent on connect
    assert await db(presence.is_connected, player.user_id)
    assert not await db(presence.is_connected, other.user_id)
    await me.disconnect()
    assert await db(presence.is_connected, player.user_id)  # the game socket is still open
    await game.disconnect()
    assert not await db(presence.is_connected, player.user_id)


async def test_a_failing_registry_neither_stops_a_socket_nor_silences_notices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    player, elsewhere = await db(new_players, 2)

    async def broken_write(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Redis down")

    def broken_read(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Redis down")

    for name in ("add", "remove", "refresh"):
        monkeypatch.setattr(type(presence.store()), name, broken_write)
    for name in ("counts", "expiries"):
        monkeypatch.setattr(type(presence.store()), name, broken_read)
    me = await connect(f"/ws/me/?token={player.token}")  # still accepted
    # This process knows its own sockets; of other processes' it knows nothing, so the
    # notices of a user with no socket here go out.
    assert await db(presence.is_connected, player.user_id) is True
    assert await db(presence.is_connected, elsewhere.user_id) is False
    await me.disconnect()
    assert await db(presence.is_connected, player.user_id) is False


async def test_sockets_of_another_process_count_through_the_registry() -> None:
    (player,) = await db(new_players, 1)
    with open_elsewhere(player.user_id):  # as another web process registers its socket
        assert await db(presence.is_connected, player.user_id)
    assert not await db(presence.is_connected, player.user_id)


async def test_a_socket_that_ends_on_a_send_to_a_client_gone_no_longer_counts() -> None:
    """uvicorn raises ClientDisconnected from a send to a client that has left (a push that
    overtook the news of the close), and no disconnect follows: the socket's counts (the
    user online, the open sockets of the metrics, the game's spectators) are taken back."""
    player, other = await db(new_players, 2)
    game_id = await db(seat_players, [player, other], seats=3, bots=1, blind_first_round=False)
    gone = asyncio.Event()

    async def server(scope: Any, receive: Any, send: Any) -> None:
        async def sending(message: dict[str, Any]) -> None:
            if gone.is_set() and message["type"] == "websocket.send":
                raise ClientDisconnected
            await send(message)

        await application(scope, receive, sending)

    opened = REGISTRY.get_sample_value("wizard_open_sockets") or 0.0
    path = f"/ws/games/{game_id}/?token={player.token}"
    seat = WebsocketCommunicator(server, path, headers=[(b"host", b"testserver")])
    watcher = WebsocketCommunicator(
        server, f"/ws/games/{game_id}/", headers=[(b"host", b"testserver")]
    )
    for socket in (seat, watcher):
        connected, _ = await socket.connect(timeout=WAIT)
        assert connected
        await socket.receive_json_from(WAIT)  # the view sent on connect
        await socket.send_json_to({"type": "sync"})  # answered once connect() has finished
        await socket.receive_json_from(WAIT)
    assert await db(presence.is_connected, player.user_id)
    assert await db(presence.watchers, game_id) == 1
    assert REGISTRY.get_sample_value("wizard_open_sockets") == opened + 2

    gone.set()
    await db(rest_move, [player, other], game_id)  # a push to both sockets
    for socket in (seat, watcher):
        with pytest.raises(ClientDisconnected):
            await socket.wait(WAIT)
    assert not await db(presence.is_connected, player.user_id)
    assert await db(presence.watchers, game_id) == 0
    assert REGISTRY.get_sample_value("wizard_open_sockets") == opened
