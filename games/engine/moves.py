"""The decisions a seat makes, parsed from the API's move bodies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from games.engine.cards import (
    CARDS,
    DECK,
    NAMES_A_SUIT,
    SHAPES,
    SHAPESHIFTER,
    SUITS,
    declaration_key,
    face,
)
from games.engine.errors import IllegalBid, IllegalCard, Invalid

NO_TRUMP: Final = "none"  # only the Werewolf's holder may choose it (R23)
TRUMP_CHOICES: Final = (*SUITS, NO_TRUMP)


@dataclass(frozen=True, slots=True)
class Bid:
    bid: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "bid", "bid": self.bid}


@dataclass(frozen=True, slots=True)
class Play:
    """A card played; `declared` is the suit named for a Juggler or Cloud (R24) or the shape
    of a Shapeshifter (R25), None for every other card."""

    card: str
    declared: str | None = None

    @property
    def face(self) -> str:
        return face(self.card, self.declared)

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"type": "play", "card": self.card}
        if self.declared is not None:
            body[declaration_key(self.card)] = self.declared
        return body


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    suit: str  # a suit, or NO_TRUMP

    def to_json(self) -> dict[str, Any]:
        return {"type": "trump", "suit": self.suit}


@dataclass(frozen=True, slots=True)
class Pass:
    """The card passed to the player on the left after a Juggler's trick (R24)."""

    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass", "card": self.card}


@dataclass(frozen=True, slots=True)
class Adjust:
    """The Cloud's change of bid, +1 or -1 (R24)."""

    delta: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "adjust", "delta": self.delta}


Move = Bid | Play | ChooseTrump | Pass | Adjust
# The fields of each kind of move body; any other field is refused.
FIELDS: Final[dict[str, frozenset[str]]] = {
    "bid": frozenset({"type", "bid"}),
    "play": frozenset({"type", "card", "suit", "as"}),
    "trump": frozenset({"type", "suit"}),
    "pass": frozenset({"type", "card"}),
    "adjust": frozenset({"type", "delta"}),
}
MOVE_TYPES: Final = tuple(FIELDS)
# Moves are values, so the common ones are made once and shared.
PLAYS: dict[str, Play] = {code: Play(code) for code in CARDS}
BIDS: list[Bid] = [Bid(b) for b in range(len(DECK) // 3 + 1)]


def declarations(code: str) -> tuple[str | None, ...]:
    """What may be declared on playing this card: a suit (R24), a shape (R25), or nothing."""
    if code in NAMES_A_SUIT:
        return SUITS
    if code == SHAPESHIFTER:
        return SHAPES
    return (None,)


def parse_move(body: object) -> Move:
    """A move from its JSON body (`{"type": "bid", "bid": 2}` …), the only reader of one;
    raises a Refusal if bad: `invalid` for a malformed body, with its `fields` where it can."""
    if not isinstance(body, dict):
        raise Invalid("A move is a JSON object with a 'type'.")
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise Invalid(
            f"'type' must be one of {', '.join(repr(t) for t in MOVE_TYPES)}.",
            fields={"type": [f"one of {', '.join(MOVE_TYPES)}"]},
        )
    unknown = sorted(str(name) for name in body if name not in FIELDS[kind])
    if unknown:
        raise Invalid(
            f"A {kind!r} move has no field {', '.join(map(repr, unknown))}.",
            fields={name: ["unknown field"] for name in unknown},
        )
    if kind == "bid":
        value = body.get("bid")
        # bool is an int in Python; a bid of `true` is a type error, not a bid of 1.
        if not isinstance(value, int) or isinstance(value, bool):
            raise Invalid("'bid' must be a whole number.", fields={"bid": ["a whole number"]})
        return Bid(value)
    if kind == "play":
        code = _card_code(body.get("card"))
        return Play(code, _declared(code, body))
    if kind == "trump":
        suit = body.get("suit")
        if suit not in TRUMP_CHOICES:
            raise Invalid(
                f"{suit!r} is not a suit; choose one of {', '.join(SUITS)} (R5).",
                fields={"suit": [f"one of {', '.join(TRUMP_CHOICES)}"]},
            )
        return ChooseTrump(str(suit))
    if kind == "pass":
        return Pass(_card_code(body.get("card")))
    delta = body.get("delta")
    if delta not in (1, -1) or isinstance(delta, bool):
        raise Invalid("'delta' is 1 or -1 (R24).", fields={"delta": ["1 or -1"]})
    return Adjust(int(delta))


def _card_code(code: object) -> str:
    if not isinstance(code, str):
        raise Invalid("'card' must be a card code such as 'R13'.", fields={"card": ["a card code"]})
    if code not in CARDS:
        raise IllegalCard(f"{code!r} is not a card code (R1, R20).")
    return code


def _declared(code: str, body: dict[Any, Any]) -> str | None:
    """R24, R25: the suit named for a Juggler or Cloud, the shape of a Shapeshifter; no other
    card takes either."""
    allowed = declarations(code)
    key = declaration_key(code)
    declared = body.get(key)
    other = body.get("suit" if key == "as" else "as")
    if other is not None or (allowed == (None,) and declared is not None):
        raise IllegalCard(
            "Only a Juggler or Cloud takes a 'suit', only the Shapeshifter an 'as' (R24, R25)."
        )
    if declared not in allowed:
        choices = " or ".join(str(a) for a in allowed)
        raise IllegalCard(f"Playing {code}, say '{key}': {choices} (R24, R25).")
    return declared if isinstance(declared, str) else None


def check_bid_range(value: int, cards: int) -> None:
    """R7: a bid is a whole number from 0 to k."""
    if not 0 <= value <= cards:
        raise IllegalBid(f"A bid in round {cards} is a whole number from 0 to {cards} (R7).")
