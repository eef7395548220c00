"""Hostile frames on the game socket (the API contract, "WebSocket"): each gets one `error`
(or, for a sync, the caller's `state`), the socket stays open, and nothing in the game changes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import limits
from games.consumers import CLOSE_UNAUTHENTICATED
from games.models import ChatMessage
from tests.games.helpers import Player
from tests.live.helpers import Sockets, db, event_rows, game_row, open_seats, table

DEEP_ARRAY = "[" * 2048 + "]" * 2048  # past Python's recursion limit

REFUSED = [
    DEEP_ARRAY,
    '{"type": "move", "move": ' + DEEP_ARRAY + "}",
    '{"type": "chat", "text": ' + "[" * 1500,
    '{"type": "sync", "x": ' + "[" * 40 + "]" * 40 + "}",
    '{"type": "chat", "text": "gg\\u0000"}',
    '{"type": "chat", "text": "gg\\ud800"}',
    '{"type": "chat", "text": "\\udc00gg"}',
    '{"type": "move", "card": "R13\\u0000"}',
    '{"type": "move", "bid": 0, "\\ud800": 1}',
    '{"type": "move", "bid": ' + "9" * 5000 + "}",
]


def assert_unchanged(game_id: int, before: Any) -> None:
    after = game_row(game_id)
    assert (after.seq, after.state, after.deadline) == (before.seq, before.state, before.deadline)
    assert len(event_rows(game_id)) == before.seq
    assert not ChatMessage.objects.filter(game_id=game_id).exists()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_refused_frames_get_an_error_and_the_socket_stays_open(sockets: Sockets) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    before = await db(game_row, game_id)
    assert before.to_act is not None
    (socket,) = await open_seats(sockets, game_id, [people[before.to_act]])
    for frame in REFUSED:
        await socket.send_text(frame)
        assert (await socket.error())["code"] == "invalid", frame[:60]
    await socket.send({"type": "sync"})
    assert (await socket.state())["seq"] == before.seq
    await db(assert_unchanged, game_id, before)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("token", ["%00", "abc%00def"])
async def test_a_token_with_a_nul_is_refused_as_unauthenticated(
    sockets: Sockets, token: str
) -> None:
    game_id, _ = await db(table, 3)
    assert await sockets.refused(game_id, token=token) == CLOSE_UNAUTHENTICATED


# -- arbitrary frames -------------------------------------------------------------------------
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63 - 8, max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["\x00", "\ud800", "a\udfffb", "R13", "green", "", " ", "x" * 400])
)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)
kinds = st.sampled_from(["sync", "move", "chat", "bid", "play", "trump"]) | values
fields = st.sampled_from(["type", "bid", "card", "suit", "seq", "move", "kind", "text"])
messages = st.fixed_dictionaries({"type": kinds}, optional={"": values}).flatmap(
    lambda base: st.dictionaries(fields, values, max_size=4).map(lambda extra: {**extra, **base})
)
moves = st.builds(
    lambda move, outer: {**outer, "type": "move", "move": move},
    st.dictionaries(fields, values, max_size=3),
    st.dictionaries(fields, values, max_size=2),
)


def as_text(value: Any, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


json_frames = st.builds(as_text, messages | moves | values, st.booleans())


def nested(depth: int, opener: str) -> str:
    closer = {"[": "]", '{"a":': "}"}[opener]
    return opener * depth + "1" + closer * depth


deep_frames = st.builds(
    nested, st.integers(limits.JSON_MAX_DEPTH, 3000), st.sampled_from(["[", '{"a":'])
)
huge_numbers = st.integers(4301, 6000).map(lambda digits: '{"bid": ' + "9" * digits + "}")
frames = st.one_of(
    json_frames,
    st.text(min_size=1, max_size=40),  # mostly not JSON
    deep_frames,
    huge_numbers,
    st.binary(min_size=1, max_size=20),
)


def unchanged(view: dict[str, Any]) -> dict[str, Any]:
    """The view but for who is online (the socket itself brings its player online)."""
    return {**view, "players": [{**p, "online": None} for p in view["players"]]}


async def exchange(game_id: int, player: Player, sent: list[str | bytes]) -> list[dict[str, Any]]:
    """Open a socket, send each frame and read exactly one reply to it, then sync; the replies."""
    sockets = Sockets()
    try:
        (socket,) = await open_seats(sockets, game_id, [player])
        replies = []
        for frame in sent:
            if isinstance(frame, bytes):
                await socket.communicator.send_to(bytes_data=frame)
            else:
                await socket.send_text(frame)
            replies.append(await socket.message())
        await socket.send({"type": "sync"})
        replies.append(await socket.message())
        # Replies come in order, so a frame's second reply would already be here.
        assert await socket.communicator.receive_nothing(0.05), "a frame got two replies"
        return replies
    finally:
        await sockets.close_all()


@pytest.mark.django_db(transaction=True)
def test_arbitrary_frames_get_a_state_or_an_error_and_change_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every well-formed chat is then refused by the flood limit: no reply is a `chat` message.
    monkeypatch.setattr(limits, "CHAT_RATE_COUNT", 0)
    game_id, people = table(3, blind_first_round=False, turn_seconds=limits.MAX_TURN_SECONDS)
    before = game_row(game_id)
    assert before.to_act is not None
    waiting = people[(before.to_act + 1) % 3]  # every move of theirs is refused
    view = waiting.view(game_id)

    @settings(
        max_examples=100,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(sent=st.lists(frames, min_size=1, max_size=4))
    def check(sent: list[str | bytes]) -> None:
        replies = async_to_sync(exchange)(game_id, waiting, sent)
        for reply in replies:
            assert reply["type"] in {"state", "error"}, reply
            if reply["type"] == "state":
                assert set(reply) == {"type", "state", "events"}
                assert unchanged(reply["state"]) == unchanged(view)
                assert reply["events"] == []  # a sync, or nothing new
            else:
                assert set(reply) == {"type", "error"}
                assert {"code", "message"} <= set(reply["error"]) <= {"code", "message", "fields"}
        assert replies[-1]["type"] == "state"  # the socket is still open and answering
        assert_unchanged(game_id, before)

    check()
