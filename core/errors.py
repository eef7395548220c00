"""The site's refusals, on the engine's root `Refusal` (one tree); wizardsite maps each code to
its HTTP status."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from games.engine.errors import GameNotActive as GameNotActive
from games.engine.errors import Invalid as Invalid
from games.engine.errors import Refusal as Refusal


class NotAuthenticated(Refusal):
    code = "not_authenticated"


class Forbidden(Refusal):
    code = "forbidden"


class Suspended(Refusal):
    code = "suspended"


class EmailTaken(Refusal):
    """The address is verified by another account already (one account an address)."""

    code = "email_taken"


class NotAPlayer(Refusal):
    code = "not_a_player"


class NotFound(Refusal):
    code = "not_found"


class StaleState(Refusal):
    code = "stale_state"


class InviteRequired(Refusal):
    """A private table is joined only with its invitation code."""

    code = "invite_required"


class ReliabilityTooLow(Refusal):
    """The table asks for a reliability its joiner has not reached."""

    code = "reliability_too_low"


class NotAFriend(Refusal):
    """Invitations go to friends (mutual follows) only."""

    code = "not_a_friend"


class Blocked(Refusal):
    """One of two players blocked the other: they do not meet."""

    code = "blocked"


class GameFull(Refusal):
    code = "game_full"


class TournamentNotOpen(Refusal):
    """The tournament takes no such step now: it has started, ended, or is not ready (T5, T6)."""

    code = "tournament_not_open"


class TournamentFull(Refusal):
    code = "tournament_full"


class AlreadySeated(Refusal):
    """A seek that was seated cannot be cancelled: its table is waiting (R28)."""

    code = "already_seated"


class TooMany(Refusal):
    """The user already holds as many of something at once as one may (open tables, games
    with bots): finish or leave one first. A conflict (409), not a rate: waiting alone does
    not help."""


class TooManyOpenTables(TooMany):
    code = "too_many_open_tables"


class TooManyBotGames(TooMany):
    code = "too_many_bot_games"


class RateLimited(Refusal):
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds, sent as Retry-After


UNAVAILABLE_MESSAGE = "The service is briefly unavailable: try again in a few seconds."
UNAVAILABLE_RETRY_AFTER = 5  # seconds: a database restart takes about that


class Unavailable(Refusal):
    """The database cannot be reached just now (down, restarting, or its pool exhausted):
    nothing was changed, and the same request may be sent again after `retry_after`."""

    code = "unavailable"

    def __init__(
        self, message: str = UNAVAILABLE_MESSAGE, *, retry_after: int = UNAVAILABLE_RETRY_AFTER
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds, sent as Retry-After


class ErrorDetail(TypedDict):
    code: str
    message: str
    fields: NotRequired[dict[str, Any]]


class Error(TypedDict):
    """The contract's error object: `code` is a machine code such as not_your_turn."""

    error: ErrorDetail


def error_body(code: str, message: str, fields: dict[str, Any] | None = None) -> Error:
    """The contract's error object, the same over REST and the socket."""
    error: ErrorDetail = {"code": code, "message": message}
    if fields:
        error["fields"] = fields
    return {"error": error}


def refusal_body(exc: Exception) -> Error | None:
    """The error object of a refusal raised by a service or the engine; None for anything else."""
    if isinstance(exc, Refusal):
        return error_body(exc.code, exc.message, exc.fields)
    return None
