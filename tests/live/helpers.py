"""Helpers for the live-play tests: game sockets on the ASGI app, and sync set-up that async
tests run through database_sync_to_async."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games import engine, push
from games.models import Event as EventRow
from games.models import Game
from tests.games.helpers import Player, choose_move, register_player, seat_players, strings_in
from wizardsite.asgi import application

T = TypeVar("T")
WAIT = 5.0  # seconds a push may take in-process before the test gives up
QUIET = 0.3  # seconds of silence that count as "nothing was sent"
ALLOWED_ORIGIN = b"http://testserver"  # "testserver" is in the default ALLOWED_HOSTS

_names = itertools.count(1)


async def db(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run sync (ORM, test client) code from an async test."""
    return await database_sync_to_async(call)(*args, **kwargs)


class Socket:
    """One open game socket, read and written as JSON."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.events: list[dict[str, Any]] = []  # the rows that came with the last state

    async def message(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = await self.communicator.receive_json_from(timeout)
        return message

    async def state(self, timeout: float = WAIT) -> dict[str, Any]:
        """The next message, which must be a pushed or requested game view."""
        state, _events = await self.state_and_events(timeout)
        return state

    async def state_and_events(
        self, timeout: float = WAIT
    ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The next message, a game view, and the event rows it carries."""
        message = await self.message(timeout)
        assert message["type"] == "state" and set(message) == {"type", "state", "events"}, message
        state: dict[str, Any] = message["state"]
        events: list[dict[str, Any]] = message["events"]
        return state, events

    async def error(self) -> dict[str, Any]:
        """The next message, which must be the contract's error object."""
        message = await self.message()
        assert message["type"] == "error" and set(message) == {"type", "error"}, message
        error: dict[str, Any] = message["error"]
        assert {"code", "message"} <= set(error) <= {"code", "message", "fields"}, error
        assert isinstance(error["message"], str) and error["message"]
        return error

    async def nothing(self) -> bool:
        """True when nothing more arrives for a moment."""
        quiet: bool = await self.communicator.receive_nothing(QUIET)
        return quiet

    async def drain(self) -> list[dict[str, Any]]:
        """Every message already sent, oldest first."""
        found = []
        while not await self.communicator.receive_nothing(QUIET):
            found.append(await self.message())
        return found

    async def send(self, body: Any) -> None:
        await self.communicator.send_json_to(body)

    async def send_text(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)


async def close_code(communicator: WebsocketCommunicator) -> int:
    """The code the server closes this socket with (other messages before it are skipped)."""
    for _ in range(10):
        output = await communicator.receive_output(WAIT)
        if output["type"] == "websocket.close":
            return int(output["code"])
    raise AssertionError("the socket was not closed")


async def still_open(socket: Socket) -> bool:
    """The socket still answers a sync with the game view."""
    await socket.send({"type": "sync"})
    return (await socket.state())["id"] is not None


class Sockets:
    """Connects to /ws/games/{id}/ on wizardsite.asgi.application; closes everything it opened."""

    def __init__(self) -> None:
        self.communicators: list[WebsocketCommunicator] = []

    async def attempt(
        self, game_id: int, *, token: str | None = None, headers: list[tuple[bytes, bytes]] = ()
    ) -> tuple[WebsocketCommunicator, bool, Any]:
        path = f"/ws/games/{game_id}/" + (f"?token={token}" if token is not None else "")
        # As a browser at http://testserver would connect: its Host, plus whatever is given.
        communicator = WebsocketCommunicator(
            application, path, headers=[(b"host", b"testserver"), *headers]
        )
        self.communicators.append(communicator)
        connected, detail = await communicator.connect(timeout=WAIT)
        return communicator, connected, detail

    async def open(
        self, game_id: int, *, token: str | None = None, headers: list[tuple[bytes, bytes]] = ()
    ) -> Socket:
        """An accepted socket whose first message (the caller's view on connect) is unread."""
        communicator, connected, detail = await self.attempt(game_id, token=token, headers=headers)
        assert connected, f"connection refused with close code {detail}"
        return Socket(communicator)

    async def refused(
        self, game_id: int, *, token: str | None = None, headers: list[tuple[bytes, bytes]] = ()
    ) -> int:
        """The close code of a connection the server must refuse."""
        path = f"/ws/games/{game_id}/" + (f"?token={token}" if token is not None else "")
        return await self.refusal(path, headers=headers)

    async def refusal(self, path: str, *, headers: list[tuple[bytes, bytes]] = ()) -> int:
        """The code a socket the server refuses is closed with: accepted first (a server that
        is refused the handshake answers HTTP 403, and a real client sees no code), then
        closed before it is sent anything."""
        communicator = WebsocketCommunicator(
            application, path, headers=[(b"host", b"testserver"), *headers]
        )
        self.communicators.append(communicator)
        connected, detail = await communicator.connect(timeout=WAIT)
        assert connected, f"the handshake was refused ({detail}): no client would see a code"
        closed = await communicator.receive_output(WAIT)
        assert closed["type"] == "websocket.close", f"a refused socket was sent {closed}"
        code: int = closed["code"]
        return code

    async def me(self, token: str) -> Socket:
        """An accepted `ws/me/` socket of the user with this API token."""
        communicator = WebsocketCommunicator(
            application, f"/ws/me/?token={token}", headers=[(b"host", b"testserver")]
        )
        self.communicators.append(communicator)
        connected, detail = await communicator.connect(timeout=WAIT)
        assert connected, f"connection refused with close code {detail}"
        return Socket(communicator)

    async def close_all(self) -> None:
        for communicator in self.communicators:
            await communicator.disconnect(timeout=WAIT)


async def open_seats(sockets: Sockets, game_id: int, people: list[Player]) -> list[Socket]:
    """A socket per player (by token), each past its connect-time view and the fresh views
    that told it the players opened after it came online."""
    opened, last = [], []
    for player in people:
        socket = await sockets.open(game_id, token=player.token)
        last.append(await socket.state())
        opened.append(socket)
    names = {player.username for player in people}
    for socket, state in zip(opened, last, strict=True):
        while not all(seat["online"] for seat in state["players"] if seat["username"] in names):
            state = await socket.state()
    return opened


# -- sync set-up (run through `db`) -----------------------------------------------------------
def new_players(count: int) -> list[Player]:
    return [register_player(f"live{next(_names)}") for _ in range(count)]


def session_cookie(player: Player) -> bytes:
    """The Cookie header of a browser signed in as `player` (a session, no token)."""
    client = Client()
    client.force_login(User.objects.get(pk=player.user_id))
    name = settings.SESSION_COOKIE_NAME
    return f"{name}={client.cookies[name].value}".encode()


def table(count: int, **options: Any) -> tuple[int, list[Player]]:
    """A started table of `count` players (plus bots, if asked); player i sits in seat i."""
    people = new_players(count)
    return seat_players(people, **options), people


def game_row(game_id: int) -> Game:
    return Game.objects.get(pk=game_id)


def event_rows(game_id: int) -> list[EventRow]:
    return list(EventRow.objects.filter(game_id=game_id).order_by("seq"))


def hands(game_id: int) -> list[tuple[str, ...]]:
    """Every seat's cards now, from the cached engine state (what no view may leak)."""
    state = game_row(game_id).engine_state()
    assert state is not None
    return state.hands


def next_move(people: list[Player], game_id: int) -> tuple[int, dict[str, Any]]:
    """The seat to act and a legal move for it with the seq it saw (from its own view)."""
    view = people[0].view(game_id)
    seat = view["to_act"]
    assert seat is not None, view
    mine = people[seat].view(game_id)
    return seat, {**choose_move(mine["legal"], None), "seq": mine["seq"]}


def rest_move(people: list[Player], game_id: int) -> tuple[int, dict[str, Any]]:
    """The seat to act makes a legal move through REST; its seat and the 200 response body."""
    seat, body = next_move(people, game_id)
    response = people[seat].move(game_id, body)
    assert response.status_code == 200, response.content
    view: dict[str, Any] = response.json()
    return seat, view


def expire_turn(game_id: int, *, ago: timedelta = timedelta(seconds=1)) -> Game:
    """Move the running turn's deadline into the past (as if the clock ran out `ago`)."""
    Game.objects.filter(pk=game_id).update(deadline=timezone.now() - ago)
    return game_row(game_id)


def assert_rows_consistent(game_id: int) -> list[EventRow]:
    """Seqs 1..n without a gap, Game.seq the last one, the cached state their replay."""
    rows = event_rows(game_id)
    game = game_row(game_id)
    assert [row.seq for row in rows] == list(range(1, len(rows) + 1))
    assert game.seq == rows[-1].seq
    replayed = engine.replay(row.payload for row in rows)
    assert game.engine_state() == replayed
    assert game.to_act == replayed.to_act
    return rows


def group_members(game_id: int) -> set[str]:
    """The channels of a game's sockets in the in-memory layer (its game group)."""
    layer = get_channel_layer()
    groups = getattr(layer, "groups", {})
    return set(groups.get(push.game_group(game_id), {}))


def cards_of(seats: list[tuple[str, ...]]) -> set[str]:
    return {code for hand in seats for code in hand}


def leaked(view: dict[str, Any], secret: set[str]) -> set[str]:
    """The secret card codes that appear anywhere in a view."""
    return secret & set(strings_in(view))
