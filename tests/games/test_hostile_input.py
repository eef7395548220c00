"""Bad input never costs a 5xx (the API contract, "Conventions"): JSON nested too deep, NUL and
unpaired surrogate characters, over-large bodies and odd addresses are 4xx in the error shape,
and a refused request changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from channels.testing import HttpCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from core.errors import Invalid
from core.text import json_problem
from games import services
from games.models import ChatMessage, Game
from tests.games.helpers import API, Player, assert_error, game_url, seat_players
from wizardsite.asgi import application

pytestmark = pytest.mark.django_db

DEEP = "[" * 2048 + "]" * 2048  # 4 KB of brackets: past Python's recursion limit
REFUSED_TEXTS = ['"a\\u0000b"', '"a\\ud800b"', '"\\udfff"', '"\\ude00\\ud83d"']


@pytest.fixture
def players(make_player: Callable[..., Player]) -> list[Player]:
    return [make_player() for _ in range(3)]


@pytest.fixture
def running(players: list[Player]) -> Game:
    return Game.objects.get(pk=seat_players(players, blind_first_round=False))


def post_raw(player: Player, url: str, body: str | bytes) -> object:
    return player.client.generic("POST", url, body, content_type="application/json")


@pytest.mark.parametrize("body", [DEEP, '{"text": ' + DEEP + "}", "[" * 33 + "]" * 33])
def test_json_nested_too_deep_is_invalid_on_the_move_and_chat_endpoints(
    running: Game, players: list[Player], body: str
) -> None:
    before = Game.objects.get(pk=running.pk).seq
    seat = running.to_act
    assert seat is not None
    for action in ("moves", "chat"):
        response = post_raw(players[seat], game_url(running.pk, action), body)
        assert_error(response, 400, "invalid")  # type: ignore[arg-type]
    assert Game.objects.get(pk=running.pk).seq == before
    assert not ChatMessage.objects.exists()


def test_json_nested_to_the_limit_is_parsed() -> None:
    assert json_problem([[[]]], max_depth=3) is None
    assert json_problem([[[[]]]], max_depth=3) is not None
    assert json_problem({"a": {"b": {"c": {}}}}, max_depth=3) is not None


@pytest.mark.parametrize("text", REFUSED_TEXTS)
def test_chat_with_nul_or_unpaired_surrogates_is_invalid_and_not_stored(
    running: Game, players: list[Player], text: str
) -> None:
    response = post_raw(players[0], game_url(running.pk, "chat"), '{"text": ' + text + "}")
    assert_error(response, 400, "invalid")  # type: ignore[arg-type]
    assert not ChatMessage.objects.exists()


def test_a_surrogate_pair_is_one_character_and_is_stored(
    running: Game, players: list[Player]
) -> None:
    response = post_raw(players[0], game_url(running.pk, "chat"), '{"text": "gg \\ud83d\\ude00"}')
    assert response.status_code == 201, response.content  # type: ignore[attr-defined]
    assert ChatMessage.objects.get().text == "gg \U0001f600"


@pytest.mark.parametrize("key", ['"\\u0000"', '"\\ud800"'])
def test_refused_characters_in_a_key_are_invalid(
    running: Game, players: list[Player], key: str
) -> None:
    body = '{"type": "bid", "bid": 0, ' + key + ": 1}"
    seat = running.to_act
    assert seat is not None
    response = post_raw(players[seat], game_url(running.pk, "moves"), body)
    assert_error(response, 400, "invalid")  # type: ignore[arg-type]
    assert Game.objects.get(pk=running.pk).seq == running.seq


@pytest.mark.parametrize("query", ["status=%00", "mine=%00true", "%00=1", "page=%00", "after=1%00"])
def test_nul_in_a_query_string_is_invalid(players: list[Player], running: Game, query: str) -> None:
    for url in (f"{API}/games/", game_url(running.pk, "events"), game_url(running.pk, "chat")):
        assert_error(players[0].client.get(f"{url}?{query}"), 400, "invalid")


def test_nul_in_an_api_address_is_invalid(players: list[Player]) -> None:
    assert_error(players[0].client.get(f"{API}/players/a%00b/"), 400, "invalid")


def test_nul_in_a_page_address_is_an_html_bad_request(players: list[Player]) -> None:
    for url in ("/players/a%00b/", "/lobby/?status=%00"):
        response = Client().get(url)
        assert response.status_code == 400
        assert response["Content-Type"].startswith("text/html")


def test_an_over_large_body_is_413_in_the_error_shape(players: list[Player]) -> None:
    big = '{"text": "' + "x" * (12 * 1024 * 1024) + '"}'
    for url in (f"{API}/accounts/register/", f"{API}/games/", f"{API}/reports/"):
        assert_error(post_raw(players[0], url, big), 413, "invalid")  # type: ignore[arg-type]


def test_a_body_just_under_the_limit_is_read(players: list[Player]) -> None:
    # Padded with JSON whitespace: an unknown field would be refused.
    body = '{"seats": 3' + " " * (settings.API_MAX_BODY_BYTES - 100) + "}"
    assert post_raw(players[0], f"{API}/games/", body).status_code == 201  # type: ignore[attr-defined]


def test_a_body_over_djangos_own_limit_is_413_even_where_the_middleware_allows_it(
    players: list[Player], settings: object
) -> None:
    settings.API_MAX_BODY_BYTES = 10**9  # type: ignore[attr-defined]
    big = '{"text": "' + "x" * (3 * 1024 * 1024) + '"}'
    assert_error(post_raw(players[0], f"{API}/games/", big), 413, "invalid")  # type: ignore[arg-type]


def test_a_malformed_content_length_is_invalid(players: list[Player]) -> None:
    response = players[0].client.generic(
        "POST", f"{API}/games/", b"{}", content_type="application/json", CONTENT_LENGTH="12abc"
    )
    assert_error(response, 400, "invalid")


def test_an_over_large_page_form_keeps_the_html_error(players: list[Player]) -> None:
    response = Client().post("/accounts/login/", {"username": "x" * (3 * 1024 * 1024)})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_an_over_large_chunked_body_without_content_length_is_413() -> None:
    """Over ASGI a body may come without Content-Length: it is measured as read."""
    communicator = HttpCommunicator(
        application,
        "POST",
        f"{API}/accounts/register/",
        body=b'{"username": "' + b"x" * (settings.API_MAX_BODY_BYTES + 1) + b'"}',
        headers=[(b"content-type", b"application/json")],
    )
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 413, response["body"][:200]
    headers = dict(response["headers"])
    assert headers[b"Content-Type"].startswith(b"application/json")
    assert b'"code": "invalid"' in response["body"]


@pytest.mark.parametrize("refused", ["\x00", "\ud800", "\udc00"])
def test_chat_post_refuses_refused_characters_itself(
    running: Game, players: list[Player], refused: str
) -> None:
    user = User.objects.get(pk=players[0].user_id)
    with pytest.raises(Invalid) as refusal:
        services.chat_post(game_id=running.pk, user=user, text=f"hi{refused}")
    assert refusal.value.fields == {"text": ["refused character"]}
    assert not ChatMessage.objects.exists()


def test_nul_in_the_authorization_header_is_invalid(players: list[Player]) -> None:
    client = Client(HTTP_AUTHORIZATION="Token abc\x00def")
    assert_error(client.get(f"{API}/games/"), 400, "invalid")


@pytest.mark.parametrize("url", [f"{API}/games/", "/lobby/"])
def test_nul_in_a_cookie_is_a_bad_request(url: str) -> None:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = "abcdefgh\x00"
    response = client.get(url)
    assert response.status_code == 400
