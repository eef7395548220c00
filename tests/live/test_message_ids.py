"""Client message ids (README, "Client message ids"): the answer to a socket message carries its
`id` — a move's in the first view of that socket that includes it, a refusal's in its error, a
sync's in its view — and only on the socket that sent it; an id of another shape is refused
and the message is not done."""

from __future__ import annotations

from typing import Any

import pytest

from tests.live.helpers import Sockets, db, game_row, next_move, open_seats, table

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("message_id", ["m1", 0, 2**53 - 1, "x" * 64])
async def test_a_move_is_echoed_in_the_view_that_includes_it_on_its_own_socket_only(
    sockets: Sockets, message_id: Any
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)
    before = await db(game_row, game_id)
    seat, body = await db(next_move, people, game_id)
    await seat_sockets[seat].send({**body, "id": message_id})
    for other, socket in enumerate(seat_sockets):
        message = await socket.message()
        assert message["type"] == "state" and message["state"]["seq"] > before.seq, message
        if other == seat:
            assert message["id"] == message_id
        else:
            assert "id" not in message
        assert message["state"] == await db(people[other].view, game_id)
    for socket in seat_sockets:
        assert await socket.nothing()


async def test_a_refused_move_is_echoed_in_its_error_and_changes_nothing(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)
    before = await db(game_row, game_id)
    seat, body = await db(next_move, people, game_id)
    stale = {**body, "seq": body["seq"] - 1, "id": "late"}
    await seat_sockets[seat].send(stale)
    message = await seat_sockets[seat].message()
    assert message["type"] == "error" and message["id"] == "late", message
    assert message["error"]["code"] == "stale_state"
    waiting = (seat + 1) % 3
    await seat_sockets[waiting].send({**body, "id": 7})
    message = await seat_sockets[waiting].message()
    assert (message["type"], message["id"], message["error"]["code"]) == (
        "error",
        7,
        "not_your_turn",
    )
    assert (await db(game_row, game_id)).seq == before.seq
    for socket in seat_sockets:
        assert await socket.nothing()


async def test_a_sync_is_echoed_in_the_view_that_answers_it(sockets: Sockets) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    (socket, *_) = await open_seats(sockets, game_id, people)
    await socket.send({"type": "sync", "id": "s1"})
    message = await socket.message()
    assert (message["type"], message["id"], message["events"]) == ("state", "s1", [])
    assert message["state"] == await db(people[0].view, game_id)
    await socket.send({"type": "sync"})
    assert "id" not in await socket.message()


@pytest.mark.parametrize("message_id", [True, None, -1, 2**53, 1.5, "", "x" * 65, [], {"n": 1}])
async def test_an_id_of_another_shape_is_refused_and_the_move_not_made(
    sockets: Sockets, message_id: Any
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)
    before = await db(game_row, game_id)
    seat, body = await db(next_move, people, game_id)
    await seat_sockets[seat].send({**body, "id": message_id})
    message = await seat_sockets[seat].message()
    assert message["type"] == "error" and "id" not in message, message
    assert message["error"]["code"] == "invalid" and "'id'" in message["error"]["message"]
    assert (await db(game_row, game_id)).seq == before.seq
    for socket in seat_sockets:
        assert await socket.nothing()


async def test_sit_out_and_back_are_echoed_whether_or_not_they_change_the_seat(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    (socket, *others) = await open_seats(sockets, game_id, people)
    await socket.send({"type": "back", "id": "b0"})  # not away: its view back at once
    message = await socket.message()
    assert (message["type"], message["id"]) == ("state", "b0")
    await socket.send({"type": "sit_out", "id": "o1"})  # R18: away now, pushed to every socket
    message = await socket.message()
    assert (message["type"], message["id"]) == ("state", "o1")
    assert message["state"]["players"][0]["away"] is True
    for other in others:
        assert "id" not in await other.message()
