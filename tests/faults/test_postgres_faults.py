"""PostgreSQL stopped and started again under a running web server, started as the Procfile
starts it (its own private PostgreSQL, never the machine's): while it is down every request
answers 503 `unavailable` with Retry-After (REST, pages, a socket's handshake) and an open socket
that syncs is closed with 4503 (try again later), all within the request timeout;
once it is back the very first requests succeed (no pooled connection the restart killed is
handed out) and the game goes on with no event lost.

Marked `postgres`: it runs once in CI, in .ci/run's PostgreSQL pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from tests.faults.postgres import PrivatePostgres
from tests.faults.stack import (
    Person,
    assert_sound,
    call,
    register,
    seat_three,
    stack,
    unexpected_tracebacks,
)
from tests.games.helpers import choose_move
from wizardsite.ws_guard import CLOSE_TRY_AGAIN_LATER

pytestmark = pytest.mark.postgres


def move(site: Any, game_id: int, people: list[Person]) -> int:
    """The player to act makes a legal move with the view's seq; the answer's status."""
    view = site.api(f"/games/{game_id}/", token=people[0].token).body
    mover = people[view["to_act"]]
    mine = site.api(f"/games/{game_id}/", token=mover.token).body
    body = {**choose_move(mine["legal"], None), "seq": mine["seq"]}
    status: int = site.api(f"/games/{game_id}/moves/", "POST", body, mover.token).status
    return status


def handshake_refusal(url: str) -> tuple[int, Headers, Any]:
    """The HTTP answer a socket's handshake is refused with: status, headers and JSON body."""
    with pytest.raises(InvalidStatus) as refused, connect(url, open_timeout=10, close_timeout=2):
        pytest.fail("the socket was accepted")
    response = refused.value.response
    return response.status_code, response.headers, json.loads(response.body or b"null")


def close_code_after_sync(socket: ClientConnection) -> int | str:
    """The code an open socket is closed with once it asks for its view again."""
    socket.send(json.dumps({"type": "sync"}))
    try:
        while True:
            socket.recv(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else "no close frame"


def test_postgres_down_answers_503_at_once_and_the_game_goes_on_after_it(
    private_pg: PrivatePostgres, tmp_path: Path
) -> None:
    with stack(private_pg.url, "", tmp_path) as site:
        site.start("web")
        people = [register(site, f"pg_fault_{n}") for n in range(3)]
        game_id = seat_three(site, people, turn_seconds=600)
        assert move(site, game_id, people) == 200
        before = site.api(f"/games/{game_id}/", token=people[0].token).body["seq"]
        ws = f"ws://127.0.0.1:{site.port}/ws/games/{game_id}/?token={people[0].token}"
        held = connect(ws, open_timeout=10, close_timeout=2)  # open before the outage
        # Its view on connect is read after the accept: received before the outage, or it is
        # the outage that closes it.
        assert json.loads(held.recv(timeout=10))["type"] == "state"

        private_pg.stop()
        try:
            down = site.api(f"/games/{game_id}/", token=people[0].token)
            assert down.status == 503, (down.body, site.logs())
            assert down.body["error"]["code"] == "unavailable"
            assert int(down.headers["retry-after"]) > 0
            refused_move = site.api(
                f"/games/{game_id}/moves/", "POST", {"type": "bid", "bid": 0}, people[0].token
            )
            assert refused_move.status == 503
            assert refused_move.body["error"]["code"] == "unavailable"
            page = call(site.base + "/lobby/")
            assert page.status == 503 and page.headers["content-type"].startswith("text/html")
            # uvicorn answers a handshake itself (ASGI's websocket.http.response extension).
            status, headers, body = handshake_refusal(ws)
            assert status == 503 and int(headers["Retry-After"]) > 0, (status, body)
            assert body["error"]["code"] == "unavailable"
            with held:
                assert close_code_after_sync(held) == CLOSE_TRY_AGAIN_LATER
        finally:
            held.close()
            private_pg.start()

        # The first requests after the restart: no error from a connection it killed.
        for _ in range(10):
            view = site.api(f"/games/{game_id}/", token=people[0].token)
            assert view.status == 200, (view.body, site.logs())
            assert view.body["seq"] == before
        assert move(site, game_id, people) == 200
        with connect(
            f"ws://127.0.0.1:{site.port}/ws/games/{game_id}/?token={people[1].token}",
            open_timeout=10,
        ) as socket:
            first = json.loads(socket.recv(timeout=10))
        assert first["type"] == "state" and first["state"]["seq"] > before
        assert not unexpected_tracebacks(site.logs(lines=None))
        assert_sound(site.audit())
