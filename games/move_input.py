"""A move as the doors receive it: the socket's message shapes made the REST move body, and the
body's optional `seq` taken out. services.move_apply then has the engine read the move
(parse_move, the one reader of a move body)."""

from __future__ import annotations

from typing import Any

from core.errors import Invalid
from games.engine import MOVE_TYPES

# The field that names a move's kind when a socket message leaves it out (a card is played;
# a pass, R24, says its type).
_KIND_BY_FIELD = {"bid": "bid", "card": "play", "suit": "trump", "delta": "adjust"}
# A tuple, not a set: a message's `type` may be any JSON value, a list or an object included.
MOVE_KINDS: tuple[str, ...] = MOVE_TYPES


def move_request(body: object) -> tuple[object, int | None]:
    """A move body as REST and the socket receive it: the move, for the engine to read, and
    its optional `seq`."""
    if not isinstance(body, dict) or "seq" not in body:
        return body, None
    move = dict(body)
    seq = move.pop("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        raise Invalid("'seq' must be a whole number.", fields={"seq": ["not a number"]})
    return move, seq


def socket_move_body(message: dict[str, Any]) -> dict[str, Any]:
    """The REST move body inside a socket message. The message's own `type` is "move", so the
    move's kind comes from a nested `move` object, a `move`/`kind` string, or the one field that
    names it: {"type": "move", "move": {"type": "bid", "bid": 2}} and
    {"type": "move", "bid": 2, "seq": 7} are the same move. A body spread into the message
    as it is ({"type": "bid", "bid": 2}: its own `type` replaced "move") is that move too."""
    if message.get("type") in MOVE_KINDS:
        return dict(message)
    nested = message.get("move")
    if isinstance(nested, dict):
        body = dict(nested)
        if "seq" in message and "seq" not in body:
            body["seq"] = message["seq"]
        return body
    body = {key: value for key, value in message.items() if key not in ("type", "move", "kind")}
    kind = nested if isinstance(nested, str) else message.get("kind")
    if kind is None:
        kind = next((k for field, k in _KIND_BY_FIELD.items() if field in body), None)
    body["type"] = kind
    return body
