"""`ws/tournaments/{id}/`: the tournament's view on connect and after every change; a private
one only with its code; and `ws/me/` tells a player they were seated at a new table."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from tests.live.helpers import WAIT, Socket, Sockets, db, new_players
from tests.live.test_me_socket import me_socket
from tests.tournaments.helpers import create_tournament, join, tournament_url
from wizardsite.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def tournament_socket(
    sockets: Sockets, tournament_id: int, query: str = ""
) -> tuple[Socket, bool, int]:
    communicator = WebsocketCommunicator(
        application, f"/ws/tournaments/{tournament_id}/{query}", headers=[(b"host", b"testserver")]
    )
    sockets.communicators.append(communicator)
    connected, code = await communicator.connect(timeout=WAIT)
    return Socket(communicator), connected, code


async def test_the_socket_sends_the_view_then_every_change_and_seating_reaches_ws_me(
    sockets: Sockets,
) -> None:
    people = await db(new_players, 3)
    created = await db(create_tournament, people[0], table_size=3, rounds=1)
    socket, connected, _ = await tournament_socket(sockets, created["id"])
    assert connected
    first = await socket.message()
    assert first["type"] == "tournament" and first["tournament"]["players"] == 0
    mine = [(await me_socket(sockets, token=player.token))[0] for player in people]
    for player in people:
        assert (await db(join, player, created["id"])).status_code == 200
        pushed = await socket.message()
        assert pushed["type"] == "tournament"
    assert pushed["tournament"]["players"] == 3
    started = await db(people[0].client.post, tournament_url(created["id"], "start"))
    assert started.status_code == 200
    found = await socket.drain()
    last = found[-1]["tournament"]
    assert last["status"] == "running" and len(last["tables"]) == 1
    for me in mine:
        assert {"type": "games"} in await me.drain()  # seated at the new table


async def test_a_private_tournament_socket_needs_its_code(sockets: Sockets) -> None:
    (host,) = await db(new_players, 1)
    created = await db(create_tournament, host, visibility="private")
    assert await sockets.refusal(f"/ws/tournaments/{created['id']}/") == 4403
    socket, connected, _ = await tournament_socket(
        sockets, created["id"], f"?invite={created['invite']}"
    )
    assert connected
    assert (await socket.message())["tournament"]["invite"] is None  # a stranger's view
    assert await sockets.refusal("/ws/tournaments/999999/") == 4404
