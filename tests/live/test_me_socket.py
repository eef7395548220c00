"""`ws/me/`: one socket per user across all their tables says when a decision becomes theirs
anywhere and when their list of games changes; `my_turn=true` lists those games; and a game
socket's `{"type": "sit_out"}` makes its player away and `{"type": "back"}` ends it (R18)."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from games.models import Seat
from tests.games.helpers import API, Player, create_game, seat_players
from tests.live.helpers import (
    ALLOWED_ORIGIN,
    WAIT,
    Socket,
    Sockets,
    db,
    game_row,
    new_players,
    rest_move,
    session_cookie,
)
from wizardsite.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def me_socket(
    sockets: Sockets, *, token: str | None = None, headers: list[tuple[bytes, bytes]] = ()
) -> tuple[Socket, bool, int]:
    path = "/ws/me/" + (f"?token={token}" if token else "")
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"host", b"testserver"), *headers]
    )
    sockets.communicators.append(communicator)
    connected, code = await communicator.connect(timeout=WAIT)
    return Socket(communicator), connected, code


def my_turns(player: Player) -> list[int]:
    response = player.client.get(f"{API}/games/?mine=true&my_turn=true")
    assert response.status_code == 200, response.content
    return [game["id"] for game in response.json()["results"]]


async def test_turns_at_two_tables_reach_the_players_me_socket_and_nobody_elses(
    sockets: Sockets,
) -> None:
    people = await db(new_players, 3)
    mine = [(await me_socket(sockets, token=player.token))[0] for player in people]
    tables = [
        await db(seat_players, people, blind_first_round=False, turn_seconds=3600) for _ in range(2)
    ]
    for socket in mine:
        found = await socket.drain()
        # Each table: created, joined twice, started — seen by whoever sat there then.
        assert {"type": "games"} in found
        assert {message["type"] for message in found} <= {"games", "turn"}
    game_socket = await sockets.open(tables[0], token=people[0].token)
    await game_socket.state()
    for _ in range(6):
        for game_id in tables:
            mover, view = await db(rest_move, people, game_id)
            acting = view["to_act"]
            turn = await mine[acting].message()
            assert turn == {"type": "turn", "game": game_id, "deadline": view["deadline"]}
            if mover != acting:  # one game fewer awaits the mover
                assert await mine[mover].message() == {"type": "games"}
                assert game_id not in await db(my_turns, people[mover])
            for socket in mine:
                assert await socket.nothing()
            assert game_id in await db(my_turns, people[acting])
    # The game socket gets views only, never the ws/me messages.
    assert {message["type"] for message in await game_socket.drain()} == {"state"}


async def test_my_turn_lists_only_the_callers_games_soonest_deadline_first() -> None:
    people = await db(new_players, 3)
    slow = await db(seat_players, people, blind_first_round=False, turn_seconds=7200)
    quick = await db(seat_players, people, blind_first_round=False, turn_seconds=60)
    for player in people:
        expected = [
            game_id
            for game_id in (quick, slow)
            if (await db(game_row, game_id)).to_act == people.index(player)
        ]
        assert await db(my_turns, player) == expected
    assert await db(lambda: people[0].client.get(f"{API}/games/?my_turn=true").status_code) == 200


async def test_joining_and_leaving_a_table_changes_ones_list_of_games(sockets: Sockets) -> None:
    host, guest = await db(new_players, 2)
    guest_socket, connected, _ = await me_socket(sockets, token=guest.token)
    assert connected
    game_id = (await db(create_game, host, seats=3))["id"]
    assert await guest_socket.nothing()  # not their table
    assert (await db(guest.join, game_id)).status_code == 200
    assert await guest_socket.message() == {"type": "games"}
    assert (await db(guest.leave, game_id)).status_code == 200
    assert await guest_socket.message() == {"type": "games"}


async def test_me_sockets_follow_the_game_sockets_rules_of_sign_in(sockets: Sockets) -> None:
    (player,) = await db(new_players, 1)
    assert await sockets.refusal("/ws/me/") == 4401
    cookie = await db(session_cookie, player)
    signed_in = [(b"cookie", cookie), (b"origin", ALLOWED_ORIGIN)]
    assert (await me_socket(sockets, headers=signed_in))[1]
    foreign = [(b"cookie", cookie), (b"origin", b"http://evil.example")]
    assert await sockets.refusal("/ws/me/", headers=foreign) == 4403


async def test_back_on_the_game_socket_ends_being_away_and_sends_the_view(
    sockets: Sockets,
) -> None:
    people = await db(new_players, 3)
    game_id = await db(seat_players, people, blind_first_round=False)
    socket = await sockets.open(game_id, token=people[0].token)
    await socket.state()
    await socket.send({"type": "back"})  # not away: the socket still gets its view
    state = await socket.state()
    assert state["players"][0]["away"] is False
    await db(Seat.objects.filter(game_id=game_id, number=0).update, away=True, expiries=2)
    await socket.send({"type": "back"})
    state = await socket.state()
    assert state["players"][0]["away"] is False
    assert await socket.nothing()
    assert not await db(Seat.objects.filter(game_id=game_id, away=True).exists)


async def test_sit_out_on_the_game_socket_makes_its_player_away_for_every_socket(
    sockets: Sockets,
) -> None:
    people = await db(new_players, 3)
    game_id = await db(seat_players, people, blind_first_round=False)
    mine = await sockets.open(game_id, token=people[1].token)
    theirs = await sockets.open(game_id, token=people[0].token)
    for socket in (mine, theirs):
        await socket.drain()  # the fresh views that told who is online
    await mine.send({"type": "sit_out"})
    assert (await mine.state())["players"][1]["away"] is True
    assert (await theirs.state())["players"][1]["away"] is True  # everyone sees it (R18)
    await mine.send({"type": "sit_out"})  # already away: only this socket hears its view
    assert (await mine.state())["players"][1]["away"] is True
    assert await theirs.nothing()
    await mine.send({"type": "back"})
    assert (await mine.state())["players"][1]["away"] is False
    assert not await db(Seat.objects.filter(game_id=game_id, away=True).exists)
