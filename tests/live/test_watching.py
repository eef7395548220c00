"""Watching and presence (API.md "WebSocket", "The game view"): a signed-out visitor follows a
public table live and can change nothing; every seat says whether its player has a socket of
this site open, and the others hear within seconds when that changes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.live.helpers import Sockets, db, open_seats, rest_move, table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def online(view: dict[str, Any]) -> dict[int, bool]:
    return {player["seat"]: player["online"] for player in view["players"]}


async def test_a_signed_out_socket_follows_each_move_and_never_sees_a_hand(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    watcher = await sockets.open(game_id)
    assert (await watcher.state())["you"] is None
    await open_seats(sockets, game_id, people)
    for _ in range(4):
        _seat, answer = await db(rest_move, people, game_id)
        state, events = await watcher.state_and_events()
        while state["seq"] < answer["seq"]:  # a presence refresh may come first
            state, events = await watcher.state_and_events()
        assert state["seq"] == answer["seq"] and events
        assert state["you"] is None and state["hand"] is None and state["visible_hands"] == {}
        assert all(not row["payload"].get("hand") for row in events)
        assert all(not row["payload"].get("visible_hands") for row in events)


async def test_a_signed_out_socket_may_sync_but_not_move_chat_or_come_back(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    watcher = await sockets.open(game_id)
    before = await watcher.state()
    for body in (
        {"type": "bid", "bid": 0, "seq": before["seq"]},
        {"type": "chat", "text": "hello"},
        {"type": "back"},
    ):
        await watcher.send(body)
        assert (await watcher.error())["code"] == "not_authenticated"
    await watcher.send({"type": "sync"})
    assert (await watcher.state())["seq"] == before["seq"]
    assert (await db(people[0].view, game_id))["seq"] == before["seq"]


async def test_a_signed_out_socket_hears_no_table_chat(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    watcher = await sockets.open(game_id)
    await watcher.state()
    seats = await open_seats(sockets, game_id, people)
    for socket in (*seats, watcher):
        await socket.drain()  # the fresh views that told who is online
    await seats[0].send({"type": "chat", "text": "players only"})
    assert (await seats[1].message())["type"] == "chat"
    assert all(message["type"] != "chat" for message in await watcher.drain())


async def test_seats_say_who_has_a_socket_open_and_bots_always_do(sockets: Sockets) -> None:
    game_id, people = await db(table, 2, bots=1)
    assert online(await db(people[0].view, game_id)) == {0: False, 1: False, 2: True}
    first = await sockets.open(game_id, token=people[0].token)
    assert online(await first.state()) == {0: True, 1: False, 2: True}
    assert online(await db(people[1].view, game_id)) == {0: True, 1: False, 2: True}


async def test_the_others_see_a_player_go_offline_and_come_back(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    seats = await open_seats(sockets, game_id, people)
    await seats[0].drain()
    assert online(await db(people[0].view, game_id)) == {0: True, 1: True, 2: True}

    await seats[2].communicator.disconnect()
    state = await seats[0].state(timeout=5)
    assert online(state) == {0: True, 1: True, 2: False}
    assert online(await db(people[1].view, game_id))[2] is False

    again = await sockets.open(game_id, token=people[2].token)
    await again.state()
    assert online(await seats[0].state(timeout=5)) == {0: True, 1: True, 2: True}


async def test_a_second_socket_of_the_same_player_changes_nobodys_view(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3)
    seats = await open_seats(sockets, game_id, people)
    await seats[0].drain()
    extra = await sockets.open(game_id, token=people[1].token)
    await extra.state()
    await extra.communicator.disconnect()
    assert await seats[0].nothing()  # still online: no fresh view for anyone
    assert online(await db(people[0].view, game_id))[1] is True
