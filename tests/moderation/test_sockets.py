"""Moderation on the live table sockets: aborts and hidden messages reach every open socket,
chat travels over the socket, and a suspended player's sockets are refused or closed (4403).

These tests are transactional (pushes are sent on commit), so the Moderators group made by
the data migration is gone after the first flush: the `moderators` fixture makes it again."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import ChatMessage
from tests.games.helpers import Player
from tests.live.helpers import (
    ALLOWED_ORIGIN,
    Sockets,
    close_code,
    db,
    new_players,
    open_seats,
    session_cookie,
    still_open,
    table,
)
from tests.moderation.helpers import chat_url, run_action

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def chat_list(player: Player, game_id: int) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = player.client.get(chat_url(game_id)).json()["results"]
    return results


# -- moderator actions reach the table -------------------------------------------------------
async def test_an_abort_from_the_admin_pushes_the_aborted_view_to_every_socket(
    sockets: Sockets, mod_client: Client
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    (spectator,) = await db(new_players, 1)
    seats = await open_seats(sockets, game_id, people)
    watcher = await sockets.open(game_id, token=spectator.token)
    await watcher.state()

    response = await db(run_action, mod_client, "game", "abort", [game_id], reason="stuck")

    assert response.status_code == 302
    for seat, socket in enumerate(seats):
        state = await socket.state()
        assert state["status"] == "aborted" and state["you"] == seat
        assert state["legal"] is None and state["to_act"] is None
    public = await watcher.state()
    assert public["status"] == "aborted" and public["you"] is None and public["hand"] is None


async def test_hiding_a_message_from_the_admin_tells_every_socket(
    sockets: Sockets, mod_client: Client
) -> None:
    game_id, people = await db(table, 3)
    seats = await open_seats(sockets, game_id, people)
    await seats[1].send({"type": "chat", "text": "rude words"})
    messages = [await socket.message() for socket in seats]
    message_id = messages[0]["message"]["id"]

    response = await db(run_action, mod_client, "chatmessage", "hide", [message_id], reason="x")

    assert response.status_code == 302
    for socket in seats:
        assert await socket.message() == {"type": "chat_hidden", "id": message_id}
    assert await db(chat_list, people[0], game_id) == []
    assert await db(ChatMessage.objects.filter(pk=message_id, hidden=True).exists)


# -- chat over the socket --------------------------------------------------------------------
async def test_chat_sent_on_a_socket_reaches_every_players_socket_of_that_game_only(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3)
    other_id, others = await db(table, 3)
    (spectator,) = await db(new_players, 1)
    seats = await open_seats(sockets, game_id, people)
    second_tab = await sockets.open(game_id, token=people[1].token)
    await second_tab.state()
    watcher = await sockets.open(game_id, token=spectator.token)
    await watcher.state()
    elsewhere = (await open_seats(sockets, other_id, others))[0]

    await seats[2].send({"type": "chat", "text": "  well played  "})

    received = [await socket.message() for socket in [*seats, second_tab]]
    stored = await db(chat_list, people[0], game_id)
    assert len(stored) == 1
    assert stored[0]["text"] == "well played" and stored[0]["seat"] == 2
    assert stored[0]["username"] == people[2].username
    for message in received:
        assert message == {"type": "chat", "message": stored[0]}
    assert await elsewhere.nothing()
    assert await watcher.nothing()  # the chat belongs to the table's players


@pytest.mark.parametrize(
    "body, code",
    [
        ({"type": "chat", "text": ""}, "invalid"),
        ({"type": "chat", "text": "x" * 301}, "invalid"),
        ({"type": "chat", "text": 42}, "invalid"),
        ({"type": "chat"}, "invalid"),
        ({"type": "shout", "text": "hi"}, "invalid"),
    ],
)
async def test_a_refused_chat_comes_back_as_an_error_to_the_sender_only(
    body: dict[str, Any], code: str, sockets: Sockets
) -> None:
    game_id, people = await db(table, 3)
    seats = await open_seats(sockets, game_id, people)

    await seats[0].send(body)

    assert (await seats[0].error())["code"] == code
    assert await seats[1].nothing()
    assert await db(ChatMessage.objects.count) == 0


async def test_socket_chat_refusals_for_strangers_and_floods(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    (spectator,) = await db(new_players, 1)
    seats = await open_seats(sockets, game_id, people)
    watcher = await sockets.open(game_id, token=spectator.token)
    await watcher.state()

    await watcher.send({"type": "chat", "text": "can I play?"})
    assert (await watcher.error())["code"] == "not_a_player"

    for n in range(5):
        await seats[0].send({"type": "chat", "text": f"m{n}"})
        assert (await seats[0].message())["type"] == "chat"
    await seats[0].send({"type": "chat", "text": "m5"})
    assert (await seats[0].error())["code"] == "rate_limited"
    assert await db(ChatMessage.objects.count) == 5


# -- a suspended player's sockets ------------------------------------------------------------
async def test_a_suspended_player_cannot_open_a_socket_by_token_or_session(
    sockets: Sockets, mod_client: Client
) -> None:
    game_id, people = await db(table, 3)
    cookie = await db(session_cookie, people[1])
    browser = [(b"cookie", cookie), (b"origin", ALLOWED_ORIGIN)]

    await db(run_action, mod_client, "user", "ban", [people[1].user_id], reason="cheating")

    assert await sockets.refused(game_id, token=people[1].token) in (4401, 4403)
    assert await sockets.refused(game_id, headers=browser) in (4401, 4403)
    assert (await (await sockets.open(game_id, token=people[0].token)).state())["you"] == 0

    await db(run_action, mod_client, "user", "lift", [people[1].user_id], reason="appeal")

    assert (await (await sockets.open(game_id, token=people[1].token)).state())["you"] == 1
    assert (await (await sockets.open(game_id, headers=browser)).state())["you"] == 1


async def test_a_suspended_players_session_socket_is_closed_with_4403_not_4401(
    sockets: Sockets, mod_client: Client
) -> None:
    game_id, people = await db(table, 3)
    cookie = await db(session_cookie, people[1])
    await db(run_action, mod_client, "user", "ban", [people[1].user_id], reason="cheating")
    browser = [(b"cookie", cookie), (b"origin", ALLOWED_ORIGIN)]
    assert await sockets.refused(game_id, headers=browser) == 4403


async def test_the_open_sockets_of_a_player_close_with_4403_when_they_are_suspended(
    sockets: Sockets, mod_client: Client
) -> None:
    game_id, people = await db(table, 3)
    other_id, _ = await db(table, 3)
    seats = await open_seats(sockets, game_id, people)
    cookie = await db(session_cookie, people[1])
    browser = await sockets.open(
        game_id, headers=[(b"cookie", cookie), (b"origin", ALLOWED_ORIGIN)]
    )
    await browser.state()
    elsewhere = await sockets.open(other_id, token=people[1].token)  # watching another table
    await elsewhere.state()

    await db(
        run_action, mod_client, "user", "suspend_for_a_week", [people[1].user_id], reason="spam"
    )

    assert await close_code(seats[1].communicator) == 4403
    assert await close_code(browser.communicator) == 4403
    assert await close_code(elsewhere.communicator) == 4403
    assert await still_open(seats[0]) and await still_open(seats[2])
