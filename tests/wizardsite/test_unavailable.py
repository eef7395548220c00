"""A database that cannot be reached answers 503 `unavailable` with Retry-After, never a 500:
over REST (in a view or in the middleware before it), on pages, and on socket handshakes.
The outage is simulated here; tests/faults/test_postgres_faults.py stops a real server."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User
from django.db import InterfaceError, OperationalError
from django.test import Client
from redis.exceptions import TimeoutError as RedisTimeout

from apikit import throttles
from tests.games.helpers import API, Player, assert_error, choose_move, seat_players
from wizardsite.asgi import application
from wizardsite.ws_guard import CLOSE_TRY_AGAIN_LATER

pytestmark = pytest.mark.django_db


def _down(*args: Any, **kwargs: Any) -> None:
    raise OperationalError("connection refused")


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_rest_answers_503_unavailable_with_retry_after(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch, error: type[Exception]
) -> None:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)

    def fails(*args: Any, **kwargs: Any) -> None:
        raise error("the connection was closed")

    monkeypatch.setattr("games.selectors.game_get", fails)  # the view's read of the game
    response = players[0].client.get(f"{API}/games/{game_id}/")
    body = assert_error(response, 503, "unavailable")
    assert "connection" not in body["message"]  # the driver's words stay in the log
    assert int(response["Retry-After"]) > 0


def test_a_failure_in_the_middleware_before_the_view_is_503_too(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    player = make_player()
    client = Client(raise_request_exception=False)
    client.force_login(player_user(player))
    monkeypatch.setattr("accounts.authentication.suspension_of_id", _down)
    api = client.get(f"{API}/games/")
    assert_error(api, 503, "unavailable")
    assert int(api["Retry-After"]) > 0
    page = client.get("/lobby/")
    assert page.status_code == 503 and int(page["Retry-After"]) > 0
    assert page["Content-Type"].startswith("text/html")


def test_a_page_whose_view_fails_is_a_plain_503_page(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)
    client = Client()
    client.force_login(player_user(players[0]))
    monkeypatch.setattr("games.selectors.game_view", _down)
    page = client.get(f"/games/{game_id}/")
    assert page.status_code == 503 and int(page["Retry-After"]) > 0
    assert b"Back in a moment" in page.content


# Socket database work runs in threads of its own (games.consumers.in_db): they see the test's
# rows only once committed.
@pytest.mark.django_db(transaction=True)
def test_a_move_over_the_socket_while_the_database_is_down_is_refused_as_unavailable(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)

    async def play() -> dict[str, Any]:
        url = f"/ws/games/{game_id}/?token={players[0].token}"
        socket = WebsocketCommunicator(application, url)
        assert (await socket.connect())[0]
        assert (await socket.receive_json_from())["type"] == "state"
        monkeypatch.setattr("games.services.move_apply", _down)
        await socket.send_json_to({"type": "move", "bid": 0, "seq": 0})
        answer: dict[str, Any] = await socket.receive_json_from()
        await socket.disconnect()
        return answer

    answer = async_run(play)
    assert answer["type"] == "error" and answer["error"]["code"] == "unavailable"


def test_a_socket_handshake_while_the_database_is_down_closes_with_try_again_later(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    player = make_player()
    monkeypatch.setattr("games.consumers._game_standing", _down)

    async def connect() -> dict[str, Any]:
        socket = WebsocketCommunicator(application, f"/ws/games/1/?token={player.token}")
        connected, _ = await socket.connect()
        assert connected  # accepted only to say why it closes (no handshake 503 here)
        closed: dict[str, Any] = await socket.receive_output()
        await socket.wait()
        return closed

    closed = async_run(connect)
    assert closed == {"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER}


def test_a_server_with_handshake_responses_answers_the_handshake_503(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    player = make_player()
    monkeypatch.setattr("games.consumers._game_standing", _down)

    async def connect() -> list[dict[str, Any]]:
        socket = WebsocketCommunicator(application, f"/ws/games/1/?token={player.token}")
        socket.scope["extensions"] = {"websocket.http.response": {}}
        await socket.send_input({"type": "websocket.connect"})
        answer = [await socket.receive_output(), await socket.receive_output()]
        await socket.wait()
        return answer

    start, body = async_run(connect)
    assert start["type"] == "websocket.http.response.start" and start["status"] == 503
    assert int(dict(start["headers"])[b"retry-after"]) > 0
    assert b'"unavailable"' in body["body"]


def player_user(player: Player) -> User:
    return User.objects.get(pk=player.user_id)


def async_run(make: Callable[[], Any]) -> Any:
    return async_to_sync(make)()


def test_throttles_whose_cache_cannot_be_reached_let_requests_through(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)
    view = players[0].view(game_id)
    mover = players[view["to_act"]]
    body = {**choose_move(mover.view(game_id)["legal"], None), "seq": view["seq"]}
    settings.RATE_LIMITS_ENABLED = True

    def frozen(*args: Any, **kwargs: Any) -> None:
        raise RedisTimeout("Timeout reading from socket")

    monkeypatch.setattr("rest_framework.throttling.SimpleRateThrottle.cache.get", frozen)
    response = mover.move(game_id, body)  # the moves endpoint is throttled
    assert response.status_code == 200, response.content
    assert throttles.hit("socket", str(mover.user_id)) is None


def test_throttles_let_requests_through_when_the_cache_server_refuses(
    make_player: Callable[..., Player], settings: Any
) -> None:
    """The production cache backend (django-redis) raises its own error for a Redis that
    cannot be reached: the throttles count nothing and the move is answered."""
    players = [make_player() for _ in range(3)]
    game_id = seat_players(players)
    view = players[0].view(game_id)
    mover = players[view["to_act"]]
    body = {**choose_move(mover.view(game_id)["legal"], None), "seq": view["seq"]}
    settings.RATE_LIMITS_ENABLED = True
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens on the discard port
            "OPTIONS": {"SOCKET_TIMEOUT": 0.5, "SOCKET_CONNECT_TIMEOUT": 0.5},
        }
    }
    response = mover.move(game_id, body)
    assert response.status_code == 200, response.content
    assert throttles.hit("socket", str(mover.user_id)) is None
