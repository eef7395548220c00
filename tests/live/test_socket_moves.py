"""Moves sent over the game socket go through the same service as REST: they apply and push to
every socket; refused ones answer only the sender, as the contract's error, and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from tests.games.helpers import SPECIAL_CARDS, SPECIAL_SEED
from tests.live.helpers import (
    Sockets,
    assert_rows_consistent,
    db,
    event_rows,
    game_row,
    new_players,
    next_move,
    open_seats,
    table,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def nested(body: dict[str, Any]) -> dict[str, Any]:
    """{"type": "move", "move": {"type": "bid", "bid": 2}} (no seq)."""
    return {"type": "move", "move": {k: v for k, v in body.items() if k != "seq"}}


def flat(body: dict[str, Any]) -> dict[str, Any]:
    """{"type": "move", "bid": 2, "seq": 7}: the move's kind follows from its field."""
    return {"type": "move", **{k: v for k, v in body.items() if k != "type"}}


def decision_fields(payload: dict[str, Any]) -> dict[str, Any]:
    kind = {"bid": "bid", "play": "play", "trump_chosen": "trump"}[payload["type"]]
    field = {"bid": "bid", "play": "card", "trump": "suit"}[kind]
    return {"type": kind, field: payload[field]}


def spread(body: dict[str, Any]) -> dict[str, Any]:
    """{"type": "move", **body}: the body's own type ("bid") replaces "move"."""
    return {"type": "move", **body}


@pytest.mark.parametrize("form", [nested, flat, spread])
async def test_a_move_sent_over_the_socket_applies_and_reaches_every_socket(
    sockets: Sockets, form: Any
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    seat_sockets = await open_seats(sockets, game_id, people)
    for _ in range(2):
        before = await db(game_row, game_id)
        seat, body = await db(next_move, people, game_id)
        await seat_sockets[seat].send(form(body))
        for other, socket in enumerate(seat_sockets):
            state = await socket.state()
            assert state["seq"] > before.seq and state["you"] == other
            assert state == await db(people[other].view, game_id)
        rows = await db(assert_rows_consistent, game_id)
        decision = rows[before.seq]  # the row right after the state the mover saw
        assert (decision.seat, decision.auto) == (seat, False)
        assert decision_fields(decision.payload) == {k: v for k, v in body.items() if k != "seq"}
    for socket in seat_sockets:
        assert await socket.nothing()  # one push per move (a second one would have failed above)


async def test_refused_socket_moves_answer_only_the_sender_and_change_nothing(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    (stranger,) = await db(new_players, 1)
    seat_sockets = await open_seats(sockets, game_id, people)
    (stranger_socket,) = await open_seats(sockets, game_id, [stranger])
    before = await db(game_row, game_id)
    seat = before.to_act
    assert seat is not None
    waiting = (seat + 1) % 3
    refusals = [
        (seat_sockets[waiting], {"type": "move", "bid": 0}, "not_your_turn"),
        (seat_sockets[seat], {"type": "move", "move": {"type": "bid", "bid": 99}}, "illegal_bid"),
        (seat_sockets[seat], {"type": "move", "bid": 0, "seq": before.seq - 1}, "stale_state"),
        (seat_sockets[seat], {"type": "bid", "bid": 0, "seq": before.seq - 1}, "stale_state"),
        (seat_sockets[seat], {"type": "play", "card": "R13"}, "illegal_card"),
        (seat_sockets[seat], {"type": "move", "move": {"type": "dance"}}, "invalid"),
        (seat_sockets[seat], "{not json", "invalid"),
        (seat_sockets[seat], {"type": "dance"}, "invalid"),
        (seat_sockets[seat], {"type": {"bid": 0}, "bid": 0}, "invalid"),
        (seat_sockets[seat], {"type": ["bid"], "bid": 0}, "invalid"),
        (seat_sockets[seat], ["move"], "invalid"),
        # A field no move has is refused on this door as on REST (one reader: parse_move).
        (seat_sockets[seat], {"type": "move", "bid": 0, "card": "R13"}, "invalid"),
        (seat_sockets[seat], {"type": "bid", "bid": 0, "colour": "red"}, "invalid"),
        (seat_sockets[seat], {"type": "move", "move": {"type": "bid", "x": 1}}, "invalid"),
        (stranger_socket, {"type": "move", "bid": 0}, "not_a_player"),
    ]
    everyone = [*seat_sockets, stranger_socket]
    for sender, message, code in refusals:
        if isinstance(message, str):
            await sender.send_text(message)
        else:
            await sender.send(message)
        assert (await sender.error())["code"] == code, message
    # Each sender's next message was its error, so no state came first; and nothing is left.
    for socket in everyone:
        assert await socket.nothing(), "an error reached another socket, or a state was pushed"
    after = await db(game_row, game_id)
    assert (after.seq, after.state, after.deadline) == (before.seq, before.state, before.deadline)
    assert len(await db(event_rows, game_id)) == before.seq
    # The sockets stay open and still answer.
    await seat_sockets[seat].send({"type": "sync"})
    assert (await seat_sockets[seat].state())["seq"] == before.seq


async def test_blind_first_round_plays_its_trick_alone_and_sockets_get_round_two(
    sockets: Sockets,
) -> None:
    game_id, people = await db(table, 3)  # hook rule and blind first round on (R8, R9)
    seat_sockets = await open_seats(sockets, game_id, people)
    for socket in seat_sockets:
        await socket.send({"type": "sync"})
    states = [await socket.state() for socket in seat_sockets]
    rows = await db(event_rows, game_id)
    deal = next(row.payload for row in rows if row.type == "deal")
    assert deal["round"] == 1
    # Every seat decides from its own pushed view: R9 shows the others' cards, not its own.
    while states[0]["round"]["number"] == 1:
        seat = states[0]["to_act"]
        mine = states[seat]
        assert mine["hand"] is None and set(mine["visible_hands"]) == {"0", "1", "2"} - {str(seat)}
        (kind, options), *_ = mine["legal"].items()
        field = {"bids": "bid", "suits": "suit"}[kind]  # nobody plays a card in round 1
        await seat_sockets[seat].send({"type": "move", field: options[-1], "seq": mine["seq"]})
        states = [await socket.state() for socket in seat_sockets]
        assert len({state["seq"] for state in states}) == 1

    last_bid = max(row.seq for row in await db(event_rows, game_id) if row.type == "bid")
    rows = (await db(assert_rows_consistent, game_id))[last_bid:]
    plays = [row for row in rows if row.type == "play"]
    assert [(row.seat, row.auto) for row in plays] == [
        (seat % 3, True) for seat in range(deal["dealer"] + 1, deal["dealer"] + 4)
    ]  # R9 and R10: from the left of the dealer, each seat's one card, by nobody's hand
    assert [row.payload["card"] for row in plays] == [deal["hands"][row.seat][0] for row in plays]
    assert [row.type for row in rows[3:]][:4] == [
        "trick_won",
        "round_scored",
        "deal",
        "trump_turned",
    ]
    state = await db(game_row, game_id)
    for seat, view in enumerate(states):
        assert view["seq"] == state.seq
        assert view["round"]["number"] == 2 and view["visible_hands"] == {}
        assert set(view["hand"]) == set(engine.State.from_json(state.state).hands[seat])
        assert len(view["hand"]) == 2
        assert view["round"]["last_trick"] is None and len(view["scores"]) == 1
        assert sum(view["scores"][0]["tricks"]) == 1
        assert await seat_sockets[seat].nothing()


async def test_a_whole_game_with_every_special_card_plays_over_the_sockets(
    sockets: Sockets, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R20–R26 over the socket: the seed's game holds a Werewolf's swap, declared cards, a pass,
    # a Cloud's change and a bombed trick; each seat sends R16's or R26's move with its seq.
    monkeypatch.setattr(engine, "new_seed", lambda: SPECIAL_SEED)
    game_id, people = await db(
        table, 3, special_cards=SPECIAL_CARDS, rounds=5, blind_first_round=False
    )
    seat_sockets = await open_seats(sockets, game_id, people)
    kinds: set[str] = set()
    while (game := await db(game_row, game_id)).status == "active":
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        body = engine.auto_move(state).to_json()
        declared = body["type"] == "play" and ("suit" in body or "as" in body)
        kinds.add(body["type"] + ("+" if declared else ""))
        mover = seat_sockets[state.to_act]
        await mover.send({"type": "move", **body, "seq": game.seq})
        while (await mover.state())["seq"] <= game.seq:  # pushes of earlier moves come first
            pass
    assert {"trump", "bid", "play", "play+", "pass", "adjust"} <= kinds
    rows = await db(assert_rows_consistent, game_id)
    assert {"werewolf", "cards_passed", "adjust", "game_over"} <= {row.type for row in rows}
    for seat, socket in enumerate(seat_sockets):
        await socket.drain()
        await socket.send({"type": "sync"})
        final = await socket.state()
        assert final == await db(people[seat].view, game_id) and final["status"] == "finished"
