"""Log lines for operators: plain text, or JSON lines (LOG_FORMAT=json), each with its request
id and game; and never a secret or a card of a running game in any of them."""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from core import logcontext

REQUEST_ID_HEADER = "X-Request-ID"
# A proxy's id is kept if it is short and plain (it lands in every line and a response header).
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
MASK = "***"

# Names whose values are never written: credentials, and what would show a hand or a move.
SECRET_NAMES = ("authorization", "token", "password", "secret", "cookie", "sessionid")
CARD_NAMES = ("hand", "hands", "cards", "card", "legal", "body", "move", "payload")
_NAMES = "|".join(SECRET_NAMES + CARD_NAMES)
# `name: value`, `name=value`, `"name": value` (a value up to the next comma, brace or end; a
# list as a whole), in any case.
_NAMED_VALUE = re.compile(
    rf"""(?P<name>["']?\b(?:{_NAMES})\b["']?\s*[:=]\s*)"""
    r"""(?P<value>\[[^\]]*\]|\{[^}]*\}|"[^"]*"|'[^']*'|[^,;}\s]+(?:\s+[^,;}\s]+)?)""",
    re.IGNORECASE,
)
# A credential after its scheme, wherever it appears (`Token abc…`, `Bearer abc…`).
_SCHEMED = re.compile(r"\b(Token|Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+", re.IGNORECASE)


def mask(text: str) -> str:
    """The text with every named secret or card list replaced by ***."""
    text = _SCHEMED.sub(lambda m: f"{m.group(1)} {MASK}", text)
    return _NAMED_VALUE.sub(lambda m: f"{m.group('name')}{MASK}", text)


class RedactFilter(logging.Filter):
    """Masks secrets and cards in the message, its traceback and any extra field, before any
    handler formats the record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = mask(record.getMessage()), None
        if record.exc_info:
            text = record.exc_text or logging.Formatter().formatException(record.exc_info)
            record.exc_info, record.exc_text = None, mask(text)
        elif record.exc_text:
            record.exc_text = mask(record.exc_text)
        for name in list(vars(record)):
            if any(word in name.lower() for word in SECRET_NAMES + CARD_NAMES):
                setattr(record, name, MASK)
        if hasattr(record, "request"):  # django.request's; its repr holds the query string
            record.request = mask(repr(record.request))
        return True


class ContextFilter(logging.Filter):
    """Adds the request id and the game id of the request, socket or task being served."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = logcontext.request_id.get()
        record.game_id = logcontext.game_id.get()
        return True


def request_id_of(request: HttpRequest) -> str:
    """The caller's X-Request-ID if it is sane, else a new one."""
    given = request.headers.get(REQUEST_ID_HEADER, "")
    return given if SANE_REQUEST_ID.fullmatch(given) else uuid.uuid4().hex


class RequestContextMiddleware:
    """Each request's lines carry its id (echoed in X-Request-ID) and, where the URL names
    one, its game."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Set, not reset afterwards: Django logs an error answer after the middleware returns.
        # Each request sets both anew (under ASGI each runs in a context of its own).
        request_id = request_id_of(request)
        logcontext.request_id.set(request_id)
        logcontext.game_id.set(None)
        response = self.get_response(request)
        response[REQUEST_ID_HEADER] = request_id
        return response

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> None:
        game_id = kwargs.get("game_id")
        if isinstance(game_id, int):
            logcontext.game_id.set(game_id)


def logging_config(*, json_lines: bool, level: str) -> dict[str, Any]:
    """settings.LOGGING: one console handler, both filters, text or JSON lines."""
    formatter: dict[str, Any] = (
        {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s %(game_id)s",
            "rename_fields": {"levelname": "level", "name": "logger", "asctime": "time"},
        }
        if json_lines
        else {"format": "%(levelname)s %(name)s %(message)s"}
    )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "redact": {"()": "wizardsite.logs.RedactFilter"},
            "context": {"()": "wizardsite.logs.ContextFilter"},
        },
        "formatters": {"line": formatter},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": "line",
                "filters": ["context", "redact"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "django": {"handlers": ["console"], "propagate": False},
            # uvicorn's own lines name each websocket's URL, `?token=` of an app's included:
            # through the masking handler too.
            "uvicorn": {"handlers": ["console"], "propagate": False},
            "uvicorn.access": {"handlers": ["console"], "propagate": False},
            # httpx writes each request's URL at INFO: APNs' holds the device's token.
            "httpx": {"level": "WARNING"},
        },
    }
