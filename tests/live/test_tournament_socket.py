"""`ws/tournaments/{id}/`: the tournament's view on connect and after every change; a private
one only with its code; and `ws/me/` tells a player they were seated at a new table."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from channels.testing import WebsocketCommunicator
from django.test import override_settings

from tests.games.helpers import Player
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


class _Queries(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sql: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.sql.append(str(getattr(record, "sql", record.getMessage())))


@contextmanager
def queries_of_every_thread() -> Iterator[list[str]]:
    """The SQL that every thread runs meanwhile (the sockets' own threads too): Django logs
    each query to `django.db.backends` while DEBUG is on."""
    logger = logging.getLogger("django.db.backends")
    queries, level, propagate = _Queries(), logger.level, logger.propagate
    logger.addHandler(queries)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        with override_settings(DEBUG=True):
            yield queries.sql
    finally:
        logger.removeHandler(queries)
        logger.setLevel(level)
        logger.propagate = propagate


async def test_a_change_is_read_once_however_many_sockets_watch(sockets: Sockets) -> None:
    """The view is built once where the change is pushed, not by every socket: a join costs
    the same queries with six sockets watching as with one."""
    host, *joining = await db(new_players, 3)
    created = await db(create_tournament, host)
    watching: list[Socket] = []

    async def queries_of_a_join(player: Player, sockets_watching: int) -> int:
        while len(watching) < sockets_watching:
            socket, connected, _ = await tournament_socket(sockets, created["id"])
            assert connected and (await socket.message())["type"] == "tournament"
            watching.append(socket)
        with queries_of_every_thread() as queries:
            assert (await db(join, player, created["id"])).status_code == 200
            for socket in watching:
                pushed = await socket.message()
                assert pushed["tournament"]["standings"][-1]["username"] == player.username
        return len(queries)

    assert (await db(join, host, created["id"])).status_code == 200  # the first join warms up
    alone = await queries_of_a_join(joining[0], 1)
    assert await queries_of_a_join(joining[1], 6) == alone


async def test_after_a_change_only_a_private_tournaments_insiders_are_sent_its_code(
    sockets: Sockets,
) -> None:
    host, player, stranger = await db(new_players, 3)
    created = await db(create_tournament, host, visibility="private")
    code = created["invite"]
    mine, connected, _ = await tournament_socket(sockets, created["id"], f"?token={host.token}")
    held, held_too, _ = await tournament_socket(
        sockets, created["id"], f"?invite={code}&token={stranger.token}"
    )
    assert connected and held_too
    assert (await mine.message())["tournament"]["invite"] == code
    assert (await held.message())["tournament"]["invite"] is None
    assert (await db(join, player, created["id"], invite=code)).status_code == 200
    assert (await mine.message())["tournament"]["invite"] == code
    assert (await held.message())["tournament"]["invite"] is None
