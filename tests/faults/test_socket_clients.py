"""The sockets as a real client meets them: a websocket client against uvicorn, run as the
Procfile runs it (`make run`), on a SQLite file. A refused socket is accepted and then closed
with the contract's code (4401 signed out, 4403 not allowed, 4404 no such game or tournament),
since a server refused the handshake answers HTTP 403 and no client ever sees the code."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from core import limits
from tests.faults.stack import Person, Stack, register

WAIT = 10.0  # seconds for an answer from the local server
ANONYMOUS_LIMIT = 3  # signed-out sockets from one address (MAX_ANONYMOUS_SOCKETS_PER_ADDRESS)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    folder = tmp_path_factory.mktemp("socket-clients")
    running = Stack(
        database_url=f"sqlite:///{folder / 'db.sqlite3'}",
        redis_url="",
        folder=folder,
        extra_env={
            "RATE_LIMITS_ENABLED": "true",
            "MAX_ANONYMOUS_SOCKETS_PER_ADDRESS": str(ANONYMOUS_LIMIT),
        },
    )
    try:
        running.migrate()
        running.start("web")
        yield running
    finally:
        running.stop_all()


@pytest.fixture(scope="module")
def people(site: Stack) -> list[Person]:
    return [register(site, name) for name in ("host", "stranger")]


def url(site: Stack, path: str, token: str | None = None) -> str:
    return f"ws://127.0.0.1:{site.port}{path}" + (f"?token={token}" if token else "")


def opened(address: str, **options: Any) -> ClientConnection:
    return connect(address, open_timeout=WAIT, close_timeout=WAIT, **options)


def close_code(address: str, **options: Any) -> int:
    """The code the server closes this socket with, before it sends anything."""
    with opened(address, **options) as socket, pytest.raises(ConnectionClosed) as closed:
        sent = socket.recv(timeout=WAIT)
        pytest.fail(f"the socket was sent {sent!r}")
    assert closed.value.rcvd is not None, "closed without a code"
    return closed.value.rcvd.code


def first_message(address: str, **options: Any) -> dict[str, Any]:
    with opened(address, **options) as socket:
        message: dict[str, Any] = json.loads(socket.recv(timeout=WAIT))
        return message


def next_of(socket: ClientConnection, kind: str) -> dict[str, Any]:
    """The next message of this type (views, as on connect or when someone came online, may
    come first)."""
    while (message := json.loads(socket.recv(timeout=WAIT)))["type"] != kind:
        assert message["type"] in ("state", "tournament"), message
    found: dict[str, Any] = message
    return found


def created(site: Stack, path: str, body: dict[str, Any], token: str) -> int:
    answer = site.api(path, "POST", body, token)
    assert answer.status == 201, answer.body
    found: int = answer.body["id"]
    return found


def tournament(site: Stack, host: Person, **options: Any) -> int:
    starts_at = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    body = {"name": "Friday", "format": "swiss", "rounds": 3, "starts_at": starts_at, **options}
    return created(site, "/tournaments/", body, host.token)


def serving(socket: ClientConnection) -> bool:
    """Whether the socket is open and reads frames (a malformed one gets its error)."""
    socket.send("not json")
    return next_of(socket, "error")["error"]["code"] == "invalid"


def test_every_refusal_reaches_a_real_client_as_its_close_code(
    site: Stack, people: list[Person]
) -> None:
    host, stranger = people
    players_only = created(site, "/games/", {"seats": 3, "spectators": "players"}, host.token)
    private = tournament(site, host, visibility="private")
    game = f"/ws/games/{players_only}/"

    assert close_code(url(site, game, "not-a-token")) == 4401
    assert close_code(url(site, "/ws/me/")) == 4401
    assert close_code(url(site, game, stranger.token)) == 4403
    assert close_code(url(site, game)) == 4403
    assert close_code(url(site, f"/ws/tournaments/{private}/", stranger.token)) == 4403
    assert close_code(url(site, "/ws/games/999999/", host.token)) == 4404
    assert close_code(url(site, "/ws/tournaments/999999/")) == 4404
    # A page of another site rides on no credentials: closed before anything is read.
    foreign = {"origin": "http://evil.example"}
    assert close_code(url(site, game, host.token), **foreign) == 4403
    assert close_code(url(site, "/ws/lobby/"), **foreign) == 4403

    # The same doors open to those they admit.
    assert first_message(url(site, game, host.token))["state"]["you"] == 0
    own_origin = {"origin": site.base}
    assert first_message(url(site, game, host.token), **own_origin)["type"] == "state"
    assert first_message(url(site, f"/ws/tournaments/{private}/", host.token))["type"] == (
        "tournament"
    )


def test_a_frame_past_the_bound_gets_an_error_and_one_past_the_servers_closes_it_1009(
    site: Stack, people: list[Person]
) -> None:
    """The application refuses a frame longer than any message unread, and the socket serves
    on; uvicorn (--ws-max-size, as the Procfile runs it) closes a socket whose message is too
    big even to hold, before the application gets it."""
    host, _ = people
    game = created(site, "/games/", {"seats": 3}, host.token)
    with opened(url(site, f"/ws/games/{game}/", host.token)) as socket:
        assert next_of(socket, "state")["state"]["you"] == 0
        socket.send(json.dumps({"type": "sync", "pad": "x" * limits.SOCKET_MESSAGE_MAX_LENGTH}))
        assert next_of(socket, "error")["error"]["code"] == "invalid"
        socket.send(json.dumps({"type": "sync"}))
        assert next_of(socket, "state")["state"]["id"] == game

        socket.send(json.dumps({"type": "chat", "text": "x" * limits.SOCKET_SERVER_MAX_BYTES}))
        with pytest.raises(ConnectionClosed) as closed:
            next_of(socket, "error")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_one_address_holds_only_so_many_signed_out_sockets_of_every_kind(
    site: Stack, people: list[Person]
) -> None:
    host, _ = people
    game = f"/ws/games/{created(site, '/games/', {'seats': 3}, host.token)}/"
    paths = ["/ws/lobby/", game, f"/ws/tournaments/{tournament(site, host)}/"]
    assert len(paths) == ANONYMOUS_LIMIT
    with ExitStack() as held:
        sockets = [held.enter_context(opened(url(site, path))) for path in paths]
        assert all(serving(socket) for socket in sockets)
        for path in paths:
            assert close_code(url(site, path)) == 4429, path
        # Signed in, a socket counts among its user's instead.
        assert first_message(url(site, game, host.token))["type"] == "state"
        assert all(serving(socket) for socket in sockets)
    # Closed, they count no more (the server takes each back once it has seen the close).
    deadline = time.monotonic() + WAIT
    while True:
        with opened(url(site, "/ws/lobby/")) as again:
            try:
                assert serving(again)
                break
            except ConnectionClosed:
                assert again.close_code == 4429 and time.monotonic() < deadline
        time.sleep(0.1)
