"""Play now on `ws/me/` (R28): when a seek is seated its player's socket hears `seated` with
the table and the seek, and `games` as for any new table; nobody else's socket hears it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.helpers import API, Player
from tests.live.helpers import Sockets, db, new_players
from tests.live.test_me_socket import me_socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def ask(player: Player) -> dict[str, Any]:
    body = {"turn_seconds": 60, "sizes": [3], "deck": "classic"}
    response = player.client.post(f"{API}/seeks/", body, format="json")
    assert response.status_code == 201, response.content
    view: dict[str, Any] = response.json()
    return view


async def test_a_seated_seek_tells_its_player_s_me_socket_where_to_go(sockets: Sockets) -> None:
    people = await db(new_players, 4)
    mine = [(await me_socket(sockets, token=player.token))[0] for player in people]
    seeks = [await db(ask, player) for player in people[:3]]
    game = seeks[-1]["game"]
    assert game is not None
    for socket, player in zip(mine[:3], people, strict=False):
        found = await socket.drain()
        seek = (await db(player.client.get, f"{API}/seeks/mine/")).json()["id"]
        assert {"type": "seated", "game": game, "seek": seek} in found
        assert {"type": "games"} in found
    assert await mine[3].nothing()
