"""Pushes after committed changes (the API contract, "WebSocket"): every seat's socket gets its own
view and nothing of another hand, strangers get the public view, and `sync` repairs a lost push."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer

from games import push
from tests.games.helpers import create_game
from tests.live.helpers import (
    Sockets,
    cards_of,
    db,
    group_members,
    hands,
    leaked,
    new_players,
    open_seats,
    rest_move,
    table,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_rest_move_reaches_every_seat_with_its_own_view_and_strangers_with_the_public_one(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    (stranger,) = await db(new_players, 1)
    seat_sockets = await open_seats(sockets, game_id, people)
    (stranger_socket,) = await open_seats(sockets, game_id, [stranger])

    mover, response = await db(rest_move, people, game_id)

    now = await db(hands, game_id)
    for seat, socket in enumerate(seat_sockets):
        state = await socket.state()
        assert state["seq"] == response["seq"]
        assert state["you"] == seat
        assert state["hand"] == sorted(state["hand"]) and set(state["hand"]) == set(now[seat])
        assert state["visible_hands"] == {}
        others = cards_of([hand for other, hand in enumerate(now) if other != seat])
        assert not leaked(state, others)
        assert state == await db(people[seat].view, game_id)
        if seat == mover:
            assert state == response
        assert await socket.nothing()  # one change, one push
    public = await stranger_socket.state()
    assert public["seq"] == response["seq"]
    assert (public["you"], public["hand"], public["visible_hands"]) == (None, None, {})
    assert public["legal"] is None
    assert not leaked(public, cards_of(now))
    assert public == await db(stranger.view, game_id)
    assert await stranger_socket.nothing()


async def test_joining_pushes_the_table_to_sockets_opened_before_the_join(
    sockets: Sockets,
) -> None:
    host, early, late = await db(new_players, 3)
    game_id = (await db(create_game, host, seats=3))["id"]  # blind first round (R9) by default
    host_socket, late_socket = await open_seats(sockets, game_id, [host, late])

    assert (await db(early.join, game_id)).status_code == 200
    for socket in (host_socket, late_socket):
        state = await socket.state()
        assert state["status"] == "open"
        assert [p["username"] for p in state["players"]] == [host.username, early.username]
    assert state["you"] is None  # the late player does not sit here yet

    assert (await db(late.join, game_id)).status_code == 200
    now = await db(hands, game_id)
    late_view = await late_socket.state()
    assert late_view["status"] == "active" and late_view["you"] == 2
    # R9: in the blind first round one sees every other hand and not one's own.
    assert late_view["hand"] is None
    assert late_view["visible_hands"] == {"0": list(now[0]), "1": list(now[1])}
    assert not leaked(late_view, set(now[2]))
    assert late_view == await db(late.view, game_id)
    host_view = await host_socket.state()
    assert host_view["you"] == 0 and set(host_view["visible_hands"]) == {"1", "2"}
    assert host_view["seq"] == late_view["seq"]


async def test_sync_after_a_lost_push_restores_the_full_current_state(sockets: Sockets) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    lost = await sockets.open(game_id, token=people[0].token)
    first = await lost.state()
    (lost_channel,) = group_members(game_id)
    idle = await sockets.open(game_id, token=people[1].token)
    await idle.state()
    await lost.state()  # the fresh view that told it the second player came online
    # The channel layer drops messages (at-most-once delivery, expired group membership):
    # take the first socket out of the game's group so the next pushes never reach it.
    for group in (push.seat_group(game_id, people[0].user_id), push.game_group(game_id)):
        await get_channel_layer().group_discard(group, lost_channel)

    _, once = await db(rest_move, people, game_id)
    _, twice = await db(rest_move, people, game_id)

    assert await lost.nothing()
    await lost.send({"type": "sync"})
    synced = await lost.state()
    assert synced["seq"] == twice["seq"] > once["seq"] > first["seq"]
    assert synced == await db(people[0].view, game_id)
    assert await lost.nothing()

    # The other socket was not reading meanwhile: its backlog ends at the same state.
    backlog = await idle.drain()
    assert [message["state"]["seq"] for message in backlog] == [once["seq"], twice["seq"]]
    await idle.send({"type": "sync"})
    assert await idle.state() == backlog[-1]["state"] == await db(people[1].view, game_id)
