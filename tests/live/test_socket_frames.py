"""Every socket reads its frames the same way (API.md "WebSocket": a malformed message gets an
`error` and the socket stays open): a game's, the lobby's, a tournament's and `ws/me/` each
answer a frame that is not JSON, a binary one, JSON nested too deep and one longer than any
message of the contract with the same `invalid` error, and go on serving."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

import pytest
from channels.testing import WebsocketCommunicator

from core import limits
from tests.games.helpers import create_game
from tests.live.helpers import WAIT, Socket, Sockets, db, new_players, table
from tests.tournaments.helpers import create_tournament, join
from wizardsite.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

# A sync, which the game socket would answer with its view, padded past the bound: refused
# unread, so never answered as a sync.
OVERSIZED = json.dumps({"type": "sync", "pad": "x" * limits.SOCKET_MESSAGE_MAX_LENGTH})
MALFORMED: dict[str, str | bytes] = {
    "not-json": "{'type': 'sync'",
    "binary": b"\x80\xff not text",
    "nested": "[" * 2048 + "]" * 2048,
    "oversized": OVERSIZED,
    "oversized-binary": OVERSIZED.encode(),
}

# Each socket, opened past its first message, and a change that it then hears of (so it is
# still open and serving): the message type it hears.
Opened = tuple[Socket, Callable[[], Awaitable[object]], str]


async def open_socket(sockets: Sockets, path: str) -> Socket:
    communicator = WebsocketCommunicator(application, path, headers=[(b"host", b"testserver")])
    sockets.communicators.append(communicator)
    connected, code = await communicator.connect(timeout=WAIT)
    assert connected, f"closed with {code}"
    return Socket(communicator)


async def game_socket(sockets: Sockets) -> Opened:
    game_id, people = await db(table, 3)
    socket = await sockets.open(game_id, token=people[0].token)
    await socket.state()
    return socket, lambda: socket.send({"type": "sync"}), "state"


async def lobby_socket(sockets: Sockets) -> Opened:
    (host,) = await db(new_players, 1)
    socket = await open_socket(sockets, "/ws/lobby/")
    return socket, lambda: db(create_game, host, seats=3), "lobby"


async def tournament_socket(sockets: Sockets) -> Opened:
    host, player = await db(new_players, 2)
    created = await db(create_tournament, host)
    socket = await open_socket(sockets, f"/ws/tournaments/{created['id']}/")
    assert (await socket.message())["type"] == "tournament"
    return socket, lambda: db(join, player, created["id"]), "tournament"


async def me_socket(sockets: Sockets) -> Opened:
    (player,) = await db(new_players, 1)
    socket = await sockets.me(player.token)
    return socket, lambda: db(create_game, player, seats=3), "games"


@pytest.mark.parametrize(
    "opener", [game_socket, lobby_socket, tournament_socket, me_socket], ids=lambda f: f.__name__
)
async def test_a_malformed_frame_gets_an_error_and_the_socket_stays_open(
    sockets: Sockets, opener: Callable[[Sockets], Awaitable[Opened]]
) -> None:
    socket, change, heard = await opener(sockets)
    for name, frame in MALFORMED.items():
        if isinstance(frame, bytes):
            await socket.communicator.send_to(bytes_data=frame)
        else:
            await socket.send_text(frame)
        error = await socket.error()
        assert error["code"] == "invalid", (name, error)
    await change()
    assert (await socket.message())["type"] == heard


async def test_the_longest_valid_chat_message_is_within_the_bound(sockets: Sockets) -> None:
    """A chat message of CHAT_MAX_LENGTH emoji, each written as an escaped surrogate pair (the
    longest JSON a valid message can be), is still read and posted."""
    game_id, people = await db(table, 3)
    socket = await sockets.open(game_id, token=people[0].token)
    await socket.state()
    text = "\U0001f600" * limits.CHAT_MAX_LENGTH
    frame = json.dumps({"type": "chat", "text": text, "client_id": "x" * 64})
    assert len(frame) <= limits.SOCKET_MESSAGE_MAX_LENGTH
    await socket.send_text(frame)
    message = await socket.message()
    while message["type"] == "state":  # who came online
        message = await socket.message()
    assert message["type"] == "chat" and message["message"]["text"] == text
