"""What every log line of a request, socket or task carries: its request id and its game."""

from __future__ import annotations

from contextvars import ContextVar

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
game_id: ContextVar[int | None] = ContextVar("game_id", default=None)
