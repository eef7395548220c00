"""Refusals: each carries the contract's machine code; wizardsite maps codes to HTTP statuses."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from games.engine.errors import EngineError


class ApplicationError(Exception):
    """A refused request; nothing was changed. `code` is the machine code clients see."""

    code: str = "invalid"

    def __init__(self, message: str, *, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields


class Invalid(ApplicationError):
    code = "invalid"


class NotAuthenticated(ApplicationError):
    code = "not_authenticated"


class Forbidden(ApplicationError):
    code = "forbidden"


class Suspended(ApplicationError):
    code = "suspended"


class EmailTaken(ApplicationError):
    """The address is verified by another account already (one account an address)."""

    code = "email_taken"


class NotAPlayer(ApplicationError):
    code = "not_a_player"


class NotFound(ApplicationError):
    code = "not_found"


class StaleState(ApplicationError):
    code = "stale_state"


class GameFull(ApplicationError):
    code = "game_full"


class GameNotActive(ApplicationError):
    code = "game_not_active"


class TooMany(ApplicationError):
    """The user already holds as many of something at once as one may (open tables, games
    with bots): finish or leave one first. A conflict (409), not a rate: waiting alone does
    not help."""


class TooManyOpenTables(TooMany):
    code = "too_many_open_tables"


class TooManyBotGames(TooMany):
    code = "too_many_bot_games"


class RateLimited(ApplicationError):
    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after  # seconds, sent as Retry-After


UNAVAILABLE_MESSAGE = "The service is briefly unavailable: try again in a few seconds."
UNAVAILABLE_RETRY_AFTER = 5  # seconds: a database restart takes about that


class Unavailable(ApplicationError):
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
    if isinstance(exc, ApplicationError):
        return error_body(exc.code, exc.message, exc.fields)
    if isinstance(exc, EngineError):
        return error_body(exc.code, exc.message)
    return None
