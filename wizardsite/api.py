"""The HTTP mapping of refusals: each machine code's status, and DRF's errors in the contract's
one JSON shape."""

from __future__ import annotations

import math
from typing import Any, cast

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response

from apikit.unavailable import refusal_or_unavailable
from core.errors import UNAVAILABLE_RETRY_AFTER, Error, RateLimited, Unavailable, error_body

# The HTTP status of every machine code (the refusals of core.errors and of the engine).
STATUS_OF_CODE = {
    "invalid": status.HTTP_400_BAD_REQUEST,
    "illegal_card": status.HTTP_400_BAD_REQUEST,
    "illegal_bid": status.HTTP_400_BAD_REQUEST,
    "hook_rule": status.HTTP_400_BAD_REQUEST,
    "not_authenticated": status.HTTP_401_UNAUTHORIZED,
    "forbidden": status.HTTP_403_FORBIDDEN,
    "suspended": status.HTTP_403_FORBIDDEN,
    "email_taken": status.HTTP_409_CONFLICT,
    "not_a_player": status.HTTP_403_FORBIDDEN,
    "invite_required": status.HTTP_403_FORBIDDEN,
    "reliability_too_low": status.HTTP_403_FORBIDDEN,
    "blocked": status.HTTP_403_FORBIDDEN,
    "not_a_friend": status.HTTP_403_FORBIDDEN,
    "not_found": status.HTTP_404_NOT_FOUND,
    "not_your_turn": status.HTTP_409_CONFLICT,
    "stale_state": status.HTTP_409_CONFLICT,
    "game_full": status.HTTP_409_CONFLICT,
    "game_not_active": status.HTTP_409_CONFLICT,
    "too_many_open_tables": status.HTTP_409_CONFLICT,
    "too_many_bot_games": status.HTTP_409_CONFLICT,
    "tournament_not_open": status.HTTP_409_CONFLICT,
    "tournament_full": status.HTTP_409_CONFLICT,
    "already_seated": status.HTTP_409_CONFLICT,
    "rate_limited": status.HTTP_429_TOO_MANY_REQUESTS,
    "unavailable": status.HTTP_503_SERVICE_UNAVAILABLE,
}


def error_for(exc: Exception) -> tuple[int, Error] | None:
    """The status and body for a refusal raised anywhere (REST and websocket alike)."""
    body = refusal_or_unavailable(exc)
    if body is None:
        return None
    return STATUS_OF_CODE.get(body["error"]["code"], status.HTTP_400_BAD_REQUEST), body


_DRF_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "not_authenticated"),
    (exceptions.PermissionDenied, "forbidden"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "rate_limited"),
    (exceptions.ParseError, "invalid"),
    (exceptions.ValidationError, "invalid"),
]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Every API error as `{"error": {"code", "message", "fields"?}}` (the API contract, README);
    a database that cannot be reached is 503 `unavailable` with Retry-After, never a 500."""
    found = error_for(exc)
    if found is not None:
        response = Response(found[1], status=found[0])
        if isinstance(exc, RateLimited | Unavailable):
            response["Retry-After"] = str(exc.retry_after)
        elif found[1]["error"]["code"] == Unavailable.code:
            response["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER)
        return response
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None
    code = next((c for kind, c in _DRF_CODES if isinstance(exc, kind)), "invalid")
    fields: dict[str, Any] | None = None
    if isinstance(exc, exceptions.ValidationError):
        message = "Some fields are not valid."
        detail = exc.detail  # a serializer's errors are keyed by field name
        fields = (
            cast(dict[str, Any], detail)
            if isinstance(detail, dict)
            else {"non_field_errors": detail}
        )
    else:
        message = str(exc.detail)
    response = Response(error_body(code, message, fields), status=exc.status_code)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response["WWW-Authenticate"] = 'Token realm="api"'
        response.status_code = status.HTTP_401_UNAUTHORIZED
    if isinstance(exc, exceptions.Throttled):
        response["Retry-After"] = str(max(1, math.ceil(getattr(exc, "wait", None) or 1)))
    return response
