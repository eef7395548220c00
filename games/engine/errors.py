"""Refusals: the one exception tree of the site, rooted here so the engine's own are part of it
(core.errors adds the site's); each carries a machine code of the API contract."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """A refused request or move, nothing changed; `code` is the machine code clients see
    (/api/v1/schema/)."""

    code: str = "invalid"

    def __init__(self, message: str, *, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields


class Invalid(Refusal):
    """Malformed input: a wrong type, an unknown move type or suit."""

    code = "invalid"


class NotYourTurn(Refusal):
    """The seat acting is not the seat whose decision it is."""

    code = "not_your_turn"


class GameNotActive(Refusal):
    """The game is over (or not started): no move is possible."""

    code = "game_not_active"


class IllegalCard(Refusal):
    """An unknown card code, a card not in hand, a card R12 forbids, or a play out of phase."""

    code = "illegal_card"


class IllegalBid(Refusal):
    """A bid outside 0…k (R7) or a bid out of phase."""

    code = "illegal_bid"


class HookRule(IllegalBid):
    """The dealer's one bid that would make the bids sum to k (R8)."""

    code = "hook_rule"
