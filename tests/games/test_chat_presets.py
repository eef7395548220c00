"""Preset chat (games.chat_presets): a player sends a preset's key instead of text, and every
reader sees it in their own language, over REST (the request's language) and on the game
socket (the language of the socket's handshake: the django_language cookie, else
Accept-Language). Presets obey the chat's rules: players only, exactly one of text and
preset, the same flood limit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import translation
from django.utils.functional import lazy
from rest_framework.test import APIClient

from core.errors import Invalid
from games import chat_presets, services
from games.models import ChatMessage
from tests.games.helpers import API, Player, assert_error, game_url, seat_players
from tests.live.helpers import ALLOWED_ORIGIN, Socket, Sockets, db, session_cookie, table

LANGUAGES = ["en", "es", "cs", "hr"]
PRESETS_URL = f"{API}/chat/presets/"
KEY = "good_luck"


def chat_url(game_id: int) -> str:
    return game_url(game_id, "chat")


def post(player: Player, game_id: int, body: Any, language: str | None = None) -> Any:
    extra: dict[str, Any] = {} if language is None else {"HTTP_ACCEPT_LANGUAGE": language}
    return player.client.post(chat_url(game_id), body, format="json", **extra)


def read(player: Player, game_id: int, language: str) -> list[dict[str, Any]]:
    response = player.client.get(chat_url(game_id), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response.content
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def tagged(key: str) -> Any:
    """A stand-in catalog entry: the preset's English text followed by the active language,
    so a test sees which language a reader's text was made in even before the real .po
    catalogs translate the presets."""
    english = chat_presets.text_of(key, "en")
    return lazy(lambda: f"{english} [{translation.get_language()}]", str)()


@pytest.fixture
def tagged_catalog(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every preset's text names the language it was made in (see `tagged`)."""
    for key in list(chat_presets.PRESETS):
        monkeypatch.setitem(chat_presets.PRESETS, key, tagged(key))
    yield


@pytest.fixture
def players(make_player: Callable[..., Player]) -> list[Player]:
    return [make_player(name) for name in ("ana", "ben", "cy")]


@pytest.fixture
def game_id(players: list[Player]) -> int:
    """A running table of the three players, ana in seat 0."""
    return seat_players(players)


# -- the list of presets ----------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_presets_are_listed_in_the_callers_language(language: str) -> None:
    response = APIClient().get(PRESETS_URL, HTTP_ACCEPT_LANGUAGE=language)  # signed out too
    assert response.status_code == 200, response.content
    listed = response.json()
    assert listed == chat_presets.presets(language)
    assert [preset["key"] for preset in listed] == list(chat_presets.PRESETS)
    for preset in listed:
        assert set(preset) == {"key", "text"}
        assert preset["text"] == chat_presets.text_of(preset["key"], language)
        assert isinstance(preset["text"], str) and preset["text"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["es", "cs", "hr"])
def test_the_presets_come_from_the_languages_catalog(language: str) -> None:
    """A real check once locale/<language> translates the presets (asked of the catalog
    itself, not of games.chat_presets): until then it is skipped."""
    with translation.override(language):
        catalogued = translation.gettext("Good luck!")
    if catalogued == "Good luck!":
        pytest.skip(f"locale/{language} does not translate the chat presets yet")
    assert chat_presets.text_of(KEY, language) == catalogued
    listed = APIClient().get(PRESETS_URL, HTTP_ACCEPT_LANGUAGE=language).json()
    assert {"key": KEY, "text": catalogued} in listed
    english = APIClient().get(PRESETS_URL, HTTP_ACCEPT_LANGUAGE="en").json()
    assert {"key": KEY, "text": "Good luck!"} in english


@pytest.mark.django_db
@pytest.mark.usefixtures("tagged_catalog")
def test_the_list_follows_the_accept_language_header() -> None:
    for language in LANGUAGES:
        listed = APIClient().get(PRESETS_URL, HTTP_ACCEPT_LANGUAGE=language).json()
        hello = next(preset for preset in listed if preset["key"] == "hello")
        assert hello["text"] == f"Hello! [{language}]"
    unknown = APIClient().get(PRESETS_URL, HTTP_ACCEPT_LANGUAGE="fr").json()
    assert unknown[0]["text"] == f"Hello! [{settings.LANGUAGE_CODE}]"


# -- posting and reading over REST ------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_preset_post_answers_in_the_posters_language(
    language: str, players: list[Player], game_id: int
) -> None:
    response = post(players[1], game_id, {"preset": KEY}, language)
    assert response.status_code == 201, response.content
    message = response.json()
    assert message["preset"] == KEY and message["seat"] == 1
    assert message["username"] == players[1].username
    assert message["text"] == chat_presets.text_of(KEY, language)
    row = ChatMessage.objects.get(pk=message["id"])
    # Stored with its key; the text kept in English for the moderators.
    assert (row.preset, row.text) == (KEY, chat_presets.text_of(KEY, "en"))


@pytest.mark.django_db
@pytest.mark.usefixtures("tagged_catalog")
def test_each_reader_sees_a_preset_in_their_own_language(
    players: list[Player], game_id: int
) -> None:
    posted = post(players[0], game_id, {"preset": "thanks"}, "es")
    assert posted.status_code == 201, posted.content
    assert posted.json()["text"] == "Thanks! [es]"
    free = post(players[0], game_id, {"text": "gracias a todos"}, "es")
    assert free.status_code == 201, free.content
    assert free.json()["preset"] is None

    for reader, language in ((players[1], "cs"), (players[2], "hr"), (players[0], "en")):
        preset, text = read(reader, game_id, language)
        assert preset["id"] == posted.json()["id"] and preset["preset"] == "thanks"
        assert preset["text"] == f"Thanks! [{language}]"
        assert (text["text"], text["preset"]) == ("gracias a todos", None)  # as written


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_reader_gets_the_real_catalogs_text(
    language: str, players: list[Player], game_id: int
) -> None:
    assert post(players[0], game_id, {"preset": KEY}, "en").status_code == 201
    (message,) = read(players[2], game_id, language)
    assert message["text"] == chat_presets.text_of(KEY, language)


# -- refusals ---------------------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("preset", ["no_such_preset", "", "GOOD_LUCK", "good_luck ", 5, None])
def test_an_unknown_preset_is_invalid_and_stores_nothing(
    preset: Any, players: list[Player], game_id: int
) -> None:
    error = assert_error(post(players[0], game_id, {"preset": preset}), 400, "invalid")
    assert "preset" in error.get("fields", {}), error
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [{"text": "hi", "preset": KEY}, {}, {"text": "", "preset": KEY}],
    ids=["both", "neither", "empty text and a preset"],
)
def test_exactly_one_of_text_and_preset(body: Any, players: list[Player], game_id: int) -> None:
    assert_error(post(players[0], game_id, body), 400, "invalid")
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_the_service_takes_exactly_one_known_preset(players: list[Player], game_id: int) -> None:
    ana = User.objects.get(pk=players[0].user_id)
    for text, preset in ((None, None), ("hi", KEY), (None, "nope"), (None, 7)):
        with pytest.raises(Invalid):
            services.chat_post(game_id=game_id, user=ana, text=text, preset=preset)
    assert not ChatMessage.objects.exists()
    message = services.chat_post(game_id=game_id, user=ana, preset="wow")
    assert (message.preset, message.text) == ("wow", "😮")


@pytest.mark.django_db
def test_a_stranger_cannot_post_a_preset(
    players: list[Player], game_id: int, stranger: Player
) -> None:
    assert_error(post(stranger, game_id, {"preset": KEY}), 403, "not_a_player")
    assert_error(
        APIClient().post(chat_url(game_id), {"preset": KEY}, format="json"),
        401,
        "not_authenticated",
    )
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("free_texts", [0, 3], ids=["presets only", "mixed"])
def test_presets_count_toward_the_chat_flood_limit(
    free_texts: int, players: list[Player], game_id: int
) -> None:
    """At most 5 messages in 10 seconds (core.limits), text and presets alike; the limit is
    the service's own and holds with the API throttles off, as in these tests."""
    for n in range(5):
        body = {"text": f"line {n}"} if n < free_texts else {"preset": KEY}
        assert post(players[0], game_id, body).status_code == 201
    assert_error(post(players[0], game_id, {"preset": "sorry"}), 429, "rate_limited")
    assert_error(post(players[0], game_id, {"text": "and text"}), 429, "rate_limited")
    assert ChatMessage.objects.filter(user_id=players[0].user_id).count() == 5
    assert post(players[1], game_id, {"preset": "sorry"}).status_code == 201  # per player


# -- the game socket --------------------------------------------------------------------------
async def open_quietly(
    sockets: Sockets, game_id: int, token: str | None, headers: list[tuple[bytes, bytes]]
) -> Socket:
    socket = await sockets.open(game_id, token=token, headers=headers)
    await socket.state()
    return socket


async def next_chat(socket: Socket) -> dict[str, Any]:
    """The next chat message on the socket (the views of players coming online skipped)."""
    for _ in range(20):
        message = await socket.message()
        if message["type"] == "chat":
            chat: dict[str, Any] = message["message"]
            return chat
    raise AssertionError("no chat message came")


async def three_sockets(sockets: Sockets, game_id: int, people: list[Player]) -> list[Socket]:
    """Seat 0 by token with Accept-Language es, seat 1 by token with cs, seat 2 by a browser
    session whose django_language cookie (hr) wins over its Accept-Language (es)."""
    cookie = await db(session_cookie, people[2])
    browser = [
        (b"cookie", cookie + b"; " + f"{settings.LANGUAGE_COOKIE_NAME}=hr".encode()),
        (b"origin", ALLOWED_ORIGIN),
        (b"accept-language", b"es"),
    ]
    opened = [
        await open_quietly(sockets, game_id, people[0].token, [(b"accept-language", b"es")]),
        await open_quietly(
            sockets, game_id, people[1].token, [(b"accept-language", b"cs-CZ,cs;q=0.9")]
        ),
        await open_quietly(sockets, game_id, None, browser),
    ]
    for socket in opened:
        await socket.drain()
    return opened


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer", "tagged_catalog")
async def test_each_socket_gets_a_preset_in_its_own_language(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    opened = await three_sockets(sockets, game_id, people)

    await opened[1].send({"type": "chat", "preset": "hello"})
    heard = [await next_chat(socket) for socket in opened]
    assert len({message["id"] for message in heard}) == 1
    for message, language in zip(heard, ("es", "cs", "hr"), strict=True):
        assert message["preset"] == "hello" and message["username"] == people[1].username
        assert message["text"] == f"Hello! [{language}]"

    # A free text reaches every socket as written.
    await opened[0].send({"type": "chat", "text": "hola"})
    for socket in opened:
        message = await next_chat(socket)
        assert (message["text"], message["preset"]) == ("hola", None)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
async def test_sockets_show_a_preset_in_the_real_catalogs_languages(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    opened = await three_sockets(sockets, game_id, people)
    await opened[0].send({"type": "chat", "preset": KEY})
    for socket, language in zip(opened, ("es", "cs", "hr"), strict=True):
        message = await next_chat(socket)
        assert (message["preset"], message["text"]) == (KEY, chat_presets.text_of(KEY, language))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("in_memory_layer")
async def test_an_unknown_preset_on_the_socket_is_refused_to_its_sender_only(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3)
    opened = [await open_quietly(sockets, game_id, player.token, []) for player in people[:2]]
    for socket in opened:
        await socket.drain()
    for body in (
        {"type": "chat", "preset": "no_such_preset"},
        {"type": "chat", "preset": KEY, "text": "both"},
        {"type": "chat"},
    ):
        await opened[0].send(body)
        assert (await opened[0].error())["code"] == "invalid"
    assert await opened[1].nothing()
    assert not await db(ChatMessage.objects.exists)
