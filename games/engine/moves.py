"""The three decisions a seat makes, parsed from the API's move bodies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.cards import CARDS, parse_suit
from games.engine.errors import IllegalBid, IllegalCard, Invalid


@dataclass(frozen=True, slots=True)
class Bid:
    bid: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "bid", "bid": self.bid}


@dataclass(frozen=True, slots=True)
class Play:
    card: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "play", "card": self.card}


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    suit: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "trump", "suit": self.suit}


Move = Bid | Play | ChooseTrump
# Moves are values, so the common ones are made once and shared.
PLAYS: dict[str, Play] = {code: Play(code) for code in CARDS}
BIDS: list[Bid] = [Bid(b) for b in range(len(CARDS) // 3 + 1)]


def parse_move(body: object) -> Move:
    """A move from its JSON body (`{"type": "bid", "bid": 2}` …); raises a Refusal if bad."""
    if not isinstance(body, dict):
        raise Invalid("A move is a JSON object with a 'type'.")
    kind = body.get("type")
    if kind == "bid":
        value = body.get("bid")
        # bool is an int in Python; a bid of `true` is a type error, not a bid of 1.
        if not isinstance(value, int) or isinstance(value, bool):
            raise Invalid("'bid' must be a whole number.")
        return Bid(value)
    if kind == "play":
        code = body.get("card")
        if not isinstance(code, str):
            raise Invalid("'card' must be a card code such as 'R13'.")
        if code not in CARDS:
            raise IllegalCard(f"{code!r} is not a card code (R1).")
        return Play(code)
    if kind == "trump":
        return ChooseTrump(parse_suit(body.get("suit")))
    raise Invalid("'type' must be one of 'bid', 'play', 'trump'.")


def check_bid_range(value: int, cards: int) -> None:
    """R7: a bid is a whole number from 0 to k."""
    if not 0 <= value <= cards:
        raise IllegalBid(f"A bid in round {cards} is a whole number from 0 to {cards} (R7).")
