"""Each push carries the event rows its change appended, as the recipient may see them
(the API contract, "WebSocket"): the same rows as `GET /events/`, and no card a rule hides (R9)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.helpers import create_game, strings_in
from tests.live.helpers import (
    Sockets,
    db,
    event_rows,
    hands,
    new_players,
    open_seats,
    rest_move,
    table,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def _seqs(events: list[dict[str, Any]]) -> list[int]:
    return [event["seq"] for event in events]


async def test_a_push_carries_exactly_the_rows_its_move_appended(sockets: Sockets) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    (stranger,) = await db(new_players, 1)
    seat_sockets = await open_seats(sockets, game_id, people)
    (stranger_socket,) = await open_seats(sockets, game_id, [stranger])
    before = (await db(event_rows, game_id))[-1].seq

    for _move in range(4):  # a few bids and plays, each its own change
        _mover, response = await db(rest_move, people, game_id)
        appended = [row.seq for row in await db(event_rows, game_id) if row.seq > before]
        for seat, socket in enumerate(seat_sockets):
            state, events = await socket.state_and_events()
            assert state["seq"] == response["seq"] == appended[-1]
            assert _seqs(events) == appended
            assert events == await db(people[seat].events, game_id, before)
        state, events = await stranger_socket.state_and_events()
        assert events == await db(stranger.events, game_id, before)
        before = appended[-1]


async def test_sync_answers_with_no_events(sockets: Sockets) -> None:
    game_id, people = await db(table, 3)
    (socket,) = await open_seats(sockets, game_id, people[:1])
    await socket.send({"type": "sync"})
    state, events = await socket.state_and_events()
    assert events == [] and state["you"] == 0


async def test_blind_round_events_never_show_a_seat_its_own_card(sockets: Sockets) -> None:
    """R9: the deal shows a seat the others' cards, never its own; its card shows only when
    the trick plays itself after the last bid."""
    host, second, third = await db(new_players, 3)
    game_id = (await db(create_game, host, seats=3))["id"]
    sockets_by_seat = await open_seats(sockets, game_id, [host])
    assert (await db(second.join, game_id)).status_code == 200
    await sockets_by_seat[0].state()
    sockets_by_seat += await open_seats(sockets, game_id, [second])
    assert (await db(third.join, game_id)).status_code == 200  # the last seat: the game starts
    dealt = await db(hands, game_id)

    started = (await db(event_rows, game_id))[-1].seq
    events = await _events_until(sockets_by_seat[0], started)
    (deal,) = [event for event in events if event["type"] == "deal"]
    assert deal["payload"]["hand"] is None
    assert deal["payload"]["visible_hands"] == {"1": list(dealt[1]), "2": list(dealt[2])}
    assert "hands" not in deal["payload"]
    assert dealt[0][0] not in _strings(events)  # whole codes: Y1 is not in Y12

    events = await _events_until(sockets_by_seat[1], started)
    (deal,) = [event for event in events if event["type"] == "deal"]
    assert deal["payload"]["hand"] is None and "1" not in deal["payload"]["visible_hands"]
    assert dealt[1][0] not in _strings(events)

    players = [host, second, third]
    revealed: list[list[dict[str, Any]]] = []
    # Three bids, and first the dealer's choice of trump when a Wizard was turned up (R5);
    # after the last bid the blind trick plays itself.
    while not revealed or not any(event["type"] == "play" for event in revealed[-1]):
        assert len(revealed) < 4, revealed
        _seat, response = await db(rest_move, players, game_id)
        revealed.append(await _events_until(sockets_by_seat[0], response["seq"]))
        await _events_until(sockets_by_seat[1], response["seq"])
    assert [event["type"] for events in revealed for event in events].count("bid") == 3
    for events in revealed[:-1]:
        assert dealt[0][0] not in _strings(events)  # whole codes: Y1 is not in Y12
    plays = [event for event in revealed[-1] if event["type"] == "play"]
    assert {event["payload"]["card"] for event in plays} == {hand[0] for hand in dealt}
    assert all(event["auto"] for event in plays)
    # The next round's deal shows seat 0 its own hand only.
    (deal,) = [event for event in revealed[-1] if event["type"] == "deal"]
    now = await db(hands, game_id)
    assert set(deal["payload"]["hand"]) == set(now[0]) and deal["payload"]["visible_hands"] == {}
    assert not (set(now[1]) | set(now[2])) & set(_strings(deal))


async def _events_until(socket: Any, seq: int) -> list[dict[str, Any]]:
    """The events of every push up to the one whose view reaches `seq` (a join may push twice)."""
    found: list[dict[str, Any]] = []
    while True:
        state, events = await socket.state_and_events()
        found += events
        if state["seq"] >= seq:
            return found


def _strings(value: Any) -> list[str]:
    return list(strings_in(value))
