"""Why the engine refused a move: one exception per error code of the API contract."""

from __future__ import annotations


class EngineError(Exception):
    """A refused move or bad input; `code` is the machine code of the API contract
    (/api/v1/schema/), state unchanged."""

    code = "invalid"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Invalid(EngineError):
    """Malformed input: a wrong type, an unknown move type or suit."""

    code = "invalid"


class NotYourTurn(EngineError):
    """The seat acting is not the seat whose decision it is."""

    code = "not_your_turn"


class GameNotActive(EngineError):
    """The game is over (or not started): no move is possible."""

    code = "game_not_active"


class IllegalCard(EngineError):
    """An unknown card code, a card not in hand, a card R12 forbids, or a play out of phase."""

    code = "illegal_card"


class IllegalBid(EngineError):
    """A bid outside 0…k (R7) or a bid out of phase."""

    code = "illegal_bid"


class HookRule(IllegalBid):
    """The dealer's one bid that would make the bids sum to k (R8)."""

    code = "hook_rule"
