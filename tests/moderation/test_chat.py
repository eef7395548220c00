"""Table chat over REST (the API contract, "Chat and reports"): players write 1–300 characters, at
most 5 in 10 seconds; everyone reads the visible messages after an id, page by page; text stays
text."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import ChatMessage, Game
from moderation import services as moderation
from tests.games.helpers import Player, assert_error, seat_players
from tests.moderation.helpers import chat, chat_texts, chat_url, user_of

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"


def test_a_player_posts_a_message_and_gets_it_back(running: Game, players: list[Player]) -> None:
    before = timezone.now()
    response = chat(players[2], running.pk, "  good luck, all  ")

    assert response.status_code == 201, response.content
    message = response.json()
    assert set(message) == {"id", "seat", "username", "text", "preset", "at"}
    assert message["seat"] == 2 and message["username"] == players[2].username
    assert message["text"] == "good luck, all"
    at = datetime.fromisoformat(message["at"].replace("Z", "+00:00"))
    assert before - timedelta(seconds=1) <= at <= timezone.now()
    row = ChatMessage.objects.get(pk=message["id"])
    assert (row.game_id, row.user_id, row.seat, row.text) == (
        running.pk,
        players[2].user_id,
        2,
        "good luck, all",
    )
    assert players[0].client.get(chat_url(running.pk)).json()["results"] == [message]


def test_someone_not_at_the_table_can_neither_write_nor_read(
    running: Game, make_player: Callable[..., Player]
) -> None:
    stranger = make_player()
    assert_error(chat(stranger, running.pk, "hello"), 403, "not_a_player")
    assert not ChatMessage.objects.exists()
    # Nor read: the chat belongs to the table's players.
    assert_error(stranger.client.get(chat_url(running.pk)), 403, "not_a_player")


def test_chat_needs_a_signed_in_player_and_an_existing_game(
    running: Game, players: list[Player]
) -> None:
    assert_error(
        APIClient().post(chat_url(running.pk), {"text": "hi"}, format="json"),
        401,
        "not_authenticated",
    )
    assert_error(APIClient().get(chat_url(running.pk)), 401, "not_authenticated")
    assert_error(chat(players[0], running.pk + 1000, "hi"), 404, "not_found")
    assert_error(players[0].client.get(chat_url(running.pk + 1000)), 404, "not_found")


@pytest.mark.parametrize(
    "text",
    ["", "   ", "\n\t ", "x" * 301, " " + "x" * 301 + " "],
    ids=["empty", "spaces", "whitespace", "301", "301 trimmed"],
)
def test_empty_or_too_long_messages_are_invalid(
    text: str, running: Game, players: list[Player]
) -> None:
    error = assert_error(chat(players[0], running.pk, text), 400, "invalid")
    assert "text" in error["fields"]
    assert not ChatMessage.objects.exists()


def test_exactly_300_characters_after_trimming_is_fine(
    running: Game, players: list[Player]
) -> None:
    text = "\t  " + "é" * 299 + "!" + "  \n"
    response = chat(players[0], running.pk, text)
    assert response.status_code == 201, response.content
    assert response.json()["text"] == "é" * 299 + "!"


@pytest.mark.parametrize("text", [5, None, True, ["hi"], {"text": "hi"}])
def test_text_that_is_not_a_string_is_invalid(
    text: Any, running: Game, players: list[Player]
) -> None:
    assert_error(chat(players[0], running.pk, text), 400, "invalid")
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize("body", [{}, ["hi"], "hi", 5])
def test_a_body_without_text_is_invalid(body: Any, running: Game, players: list[Player]) -> None:
    response = players[0].client.post(chat_url(running.pk), body, format="json")
    assert_error(response, 400, "invalid")
    assert not ChatMessage.objects.exists()


def test_the_sixth_message_within_ten_seconds_is_rate_limited(
    running: Game, players: list[Player]
) -> None:
    for n in range(5):
        assert chat(players[0], running.pk, f"message {n}").status_code == 201
    assert_error(chat(players[0], running.pk, "one too many"), 429, "rate_limited")
    assert ChatMessage.objects.count() == 5
    assert chat(players[1], running.pk, "my turn to talk").status_code == 201  # per player

    # Ten seconds later the window has passed.
    ChatMessage.objects.filter(user_id=players[0].user_id).update(
        created_at=timezone.now() - timedelta(seconds=11)
    )
    assert chat(players[0], running.pk, "calm again").status_code == 201


def test_the_rate_limit_counts_messages_at_every_table(players: list[Player]) -> None:
    first = seat_players(players)
    second = seat_players([players[1], players[0], players[2]])
    for n in range(3):
        assert chat(players[0], first, f"a{n}").status_code == 201
    for n in range(2):
        assert chat(players[0], second, f"b{n}").status_code == 201
    assert_error(chat(players[0], second, "b2"), 429, "rate_limited")


def test_reading_after_an_id_returns_only_later_visible_messages_page_by_page(
    running: Game, players: list[Player], moderator: User
) -> None:
    ids = [chat(players[n % 3], running.pk, f"m{n}").json()["id"] for n in range(5)]
    moderation.chat_hide(moderator=moderator, message=ChatMessage.objects.get(pk=ids[3]))

    assert chat_texts(players[0], running.pk) == ["m0", "m1", "m2", "m4"]
    assert chat_texts(players[0], running.pk, after=ids[1]) == ["m2", "m4"]
    assert chat_texts(players[0], running.pk, after=ids[4]) == []

    page = players[1].client.get(chat_url(running.pk), {"after": ids[0], "page_size": 2}).json()
    assert set(page) == {"count", "next", "previous", "results"}
    assert page["count"] == 3 and page["previous"] is None
    assert [m["text"] for m in page["results"]] == ["m1", "m2"]
    rest = players[1].client.get(page["next"]).json()
    assert [m["text"] for m in rest["results"]] == ["m4"] and rest["next"] is None


@pytest.mark.parametrize("after", ["-1", "abc", "1.5"])
def test_a_malformed_after_is_invalid(after: str, running: Game, players: list[Player]) -> None:
    response = players[0].client.get(chat_url(running.pk), {"after": after})
    assert_error(response, 400, "invalid")


def test_messages_only_reach_their_own_table(players: list[Player], running: Game) -> None:
    other = seat_players([players[2], players[1], players[0]])
    chat(players[0], running.pk, "here")
    chat(players[0], other, "there")
    assert chat_texts(players[1], running.pk) == ["here"]
    assert chat_texts(players[1], other) == ["there"]


def test_markup_is_stored_and_served_as_text_and_the_table_page_never_renders_it(
    running: Game, players: list[Player]
) -> None:
    response = chat(players[1], running.pk, SCRIPT)
    assert response.status_code == 201
    assert response.json()["text"] == SCRIPT
    assert ChatMessage.objects.get().text == SCRIPT
    assert chat_texts(players[0], running.pk) == [SCRIPT]

    browser = Client()
    browser.force_login(user_of(players[0]))
    page = browser.get(f"/games/{running.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert SCRIPT not in html and "alert(1)" not in html

    # The page's script adds each message as text, never as markup.
    script = (Path(settings.BASE_DIR) / "static" / "js" / "chat.js").read_text()
    assert not re.search(r"\.(inner|outer)HTML\s*\+?=|insertAdjacentHTML|document\.write", script)
    assert "text.textContent = message.text" in script


def test_a_suspended_player_cannot_write(running: Game, players: list[Player]) -> None:
    moderation.user_suspend(
        moderator=None,
        user=user_of(players[0]),
        reason="spam",
        until=timezone.now() + timedelta(hours=1),
    )
    assert_error(chat(players[0], running.pk, "let me in"), 403, "suspended")
    assert not ChatMessage.objects.exists()
