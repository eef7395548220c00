"""Watching and presence (API.md "WebSocket", "The game view"): a signed-out visitor follows a
public table live and can change nothing; every seat says whether its player has a socket of
this site open, and the others hear within seconds when that changes."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.test import Client

from tests.games.helpers import API, create_game, register_player
from tests.live.helpers import Sockets, db, open_seats, rest_move, table
from wizardsite.asgi import application

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
        {"type": "sit_out"},
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


def table_presence(game_id: int) -> dict[str, Any]:
    response = Client().get(f"/games/{game_id}/presence/")  # the table page's, signed out
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


def spectators(game_id: int) -> int:
    count: int = table_presence(game_id)["spectators"]
    return count


async def spectators_become(game_id: int, count: int) -> None:
    """The count reaches `count` within a few seconds (a socket counts itself after its view)."""
    for _ in range(50):
        if await db(spectators, game_id) == count:
            return
        await asyncio.sleep(0.1)
    assert await db(spectators, game_id) == count


async def test_the_table_counts_its_spectators_but_not_its_players(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    await open_seats(sockets, game_id, people)
    await spectators_become(game_id, 0)
    stranger = await db(register_player, "stranger")
    signed_out = await sockets.open(game_id)
    signed_in = await sockets.open(game_id, token=stranger.token)
    await signed_out.state()
    await signed_in.state()
    await spectators_become(game_id, 2)
    await signed_out.communicator.disconnect()
    await spectators_become(game_id, 1)
    assert (await db(Client().get, f"/games/{game_id + 1}/presence/")).status_code == 404


async def test_the_table_says_how_long_an_offline_player_has_been_away(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    seats = await open_seats(sockets, game_id, people)
    assert (await db(table_presence, game_id))["offline_for"] == {}
    assert (await db(table_presence, game_id))["offline"] == []
    await seats[1].communicator.disconnect()
    await seats[0].state(timeout=5)  # the fresh view that says seat 1 went offline
    found = await db(table_presence, game_id)
    assert found["offline"] == [1], found
    away = found["offline_for"]
    assert set(away) == {"1"} and 0 <= away["1"] <= 5, away
    again = await sockets.open(game_id, token=people[1].token)
    await again.state()
    await seats[0].state(timeout=5)
    assert (await db(table_presence, game_id))["offline_for"] == {}
    assert (await db(table_presence, game_id))["offline"] == []


async def test_a_table_closed_to_spectators_refuses_their_sockets_with_4403(
    sockets: Sockets,
) -> None:
    players_only, people = await db(table, 3, spectators="players")
    stranger = await db(register_player, "outsider")
    private = (await db(create_game, people[0], seats=3, visibility="private"))["id"]
    for game_id in (players_only, private):
        for token in (None, stranger.token):
            assert await sockets.refused(game_id, token=token) == 4403, (game_id, token)
    seat = await sockets.open(players_only, token=people[0].token)
    assert (await seat.state())["you"] == 0


async def test_the_lobby_socket_never_hears_of_a_private_table() -> None:
    lobby = WebsocketCommunicator(application, "/ws/lobby/")
    connected, _ = await lobby.connect()
    assert connected
    try:
        host = await db(register_player, "private_host")
        await db(create_game, host, seats=3, visibility="private")
        assert await lobby.receive_nothing(timeout=0.5)
        public = await db(create_game, host, seats=3)
        heard = await lobby.receive_json_from(timeout=5)
        assert heard["game"] == public["id"]
    finally:
        await lobby.disconnect()


async def test_an_invitation_reaches_the_friends_me_socket_and_only_a_friend(
    sockets: Sockets,
) -> None:
    host = await db(register_player, "host_inv")
    friend = await db(register_player, "friend_inv")
    stranger = await db(register_player, "stranger_inv")
    for one, other in ((host, friend), (friend, host)):
        follow = await db(one.client.post, f"{API}/players/{other.username}/follow/")
        assert follow.status_code == 204
    game_id = (await db(create_game, host, seats=3, visibility="private"))["id"]
    me = WebsocketCommunicator(application, f"/ws/me/?token={friend.token}")
    assert (await me.connect())[0]
    try:
        invite = f"{API}/games/{game_id}/invite/"
        answer = await db(host.client.post, invite, {"username": friend.username}, format="json")
        assert answer.status_code == 204, answer.content
        heard = await me.receive_json_from(timeout=5)
        assert heard == {"type": "invite", "game": game_id, "from": host.username}
        for sender, name, code in (
            (host, stranger.username, "not_a_friend"),
            (host, "nobody_at_all", "not_a_friend"),
            (stranger, friend.username, "not_a_player"),
        ):
            refused = await db(sender.client.post, invite, {"username": name}, format="json")
            assert refused.status_code == 403 and refused.json()["error"]["code"] == code
        assert await me.receive_nothing(timeout=0.3)
    finally:
        await me.disconnect()


async def test_a_friend_is_online_while_a_socket_of_theirs_is_open(sockets: Sockets) -> None:
    ana = await db(register_player, "ana_online")
    ben = await db(register_player, "ben_online")
    for one, other in ((ana, ben), (ben, ana)):
        follow = await db(one.client.post, f"{API}/players/{other.username}/follow/")
        assert follow.status_code == 204

    async def ben_online() -> bool:
        friends = (await db(ana.client.get, f"{API}/accounts/me/friends/")).json()
        assert [friend["username"] for friend in friends] == [ben.username]
        return bool(friends[0]["online"])

    assert not await ben_online()
    me = WebsocketCommunicator(application, f"/ws/me/?token={ben.token}")
    assert (await me.connect())[0]
    try:
        assert await ben_online()
    finally:
        await me.disconnect()
    assert not await ben_online()


async def test_a_socket_hears_no_chat_of_a_player_its_user_blocked(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    blocked = await db(people[0].client.post, f"{API}/players/{people[1].username}/block/")
    assert blocked.status_code == 204
    seats = await open_seats(sockets, game_id, people)
    for socket in seats:
        await socket.drain()
    await seats[1].send({"type": "chat", "text": "can you hear me"})
    assert (await seats[2].message())["type"] == "chat"
    assert all(message["type"] != "chat" for message in await seats[0].drain())


async def test_a_block_silences_an_open_socket_at_once_and_its_lifting_restores_it(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3)
    seats = await open_seats(sockets, game_id, people)
    block = f"{API}/players/{people[1].username}/block/"

    async def heard_by_the_blocker(text: str) -> bool:
        for socket in seats:
            await socket.drain()
        await seats[1].send({"type": "chat", "text": text})
        assert (await seats[2].message())["type"] == "chat"  # the chat went out
        return any(message["type"] == "chat" for message in await seats[0].drain())

    assert await heard_by_the_blocker("before")
    assert (await db(people[0].client.post, block)).status_code == 204
    assert not await heard_by_the_blocker("during")
    assert (await db(people[0].client.delete, block)).status_code == 204
    assert await heard_by_the_blocker("after")


async def test_a_socket_whose_client_left_during_the_handshake_does_not_stay_online(
    sockets: Sockets, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The accept fails (the client is gone) and no disconnect follows: the count it took on
    connect is given back, so the player is not shown online for ever."""
    from games import presence
    from games.consumers import GameConsumer

    game_id, people = await db(table, 3)

    async def client_gone(self: Any, *args: Any, **kwargs: Any) -> None:
        raise ConnectionResetError("the client left during the handshake")

    monkeypatch.setattr(GameConsumer, "accept", client_gone)
    communicator = WebsocketCommunicator(
        application, f"/ws/games/{game_id}/?token={people[1].token}"
    )
    with pytest.raises(ConnectionResetError):
        await communicator.connect()
    assert not await db(presence.is_connected, people[1].user_id)
    assert (await db(table_presence, game_id))["offline"] == [0, 1, 2]
