"""The API's shared pieces: the error tree, its one JSON shape, and pagination."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired, TypedDict

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from games.engine import EngineError


class ApplicationError(Exception):
    """A refused request: `code` is the contract's machine code, `status` its HTTP status."""

    code: str = "invalid"
    status: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, message: str, *, fields: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields


class Invalid(ApplicationError):
    code, status = "invalid", status.HTTP_400_BAD_REQUEST


class NotAuthenticated(ApplicationError):
    code, status = "not_authenticated", status.HTTP_401_UNAUTHORIZED


class Forbidden(ApplicationError):
    code, status = "forbidden", status.HTTP_403_FORBIDDEN


class Suspended(ApplicationError):
    code, status = "suspended", status.HTTP_403_FORBIDDEN


class NotAPlayer(ApplicationError):
    code, status = "not_a_player", status.HTTP_403_FORBIDDEN


class NotFound(ApplicationError):
    code, status = "not_found", status.HTTP_404_NOT_FOUND


class StaleState(ApplicationError):
    code, status = "stale_state", status.HTTP_409_CONFLICT


class GameFull(ApplicationError):
    code, status = "game_full", status.HTTP_409_CONFLICT


class GameNotActive(ApplicationError):
    code, status = "game_not_active", status.HTTP_409_CONFLICT


class RateLimited(ApplicationError):
    code, status = "rate_limited", status.HTTP_429_TOO_MANY_REQUESTS


# The engine's refusals keep their own codes; these are their statuses.
ENGINE_STATUS = {
    "invalid": status.HTTP_400_BAD_REQUEST,
    "illegal_card": status.HTTP_400_BAD_REQUEST,
    "illegal_bid": status.HTTP_400_BAD_REQUEST,
    "hook_rule": status.HTTP_400_BAD_REQUEST,
    "not_your_turn": status.HTTP_409_CONFLICT,
    "game_not_active": status.HTTP_409_CONFLICT,
}


def player(request: Request) -> User:
    """The signed-in user of an API request (the views' permission has already checked it)."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise NotAuthenticated("Sign in first: send Authorization: Token <key>.")
    return user


class ErrorDetail(TypedDict):
    code: str
    message: str
    fields: NotRequired[dict[str, Any]]


class Error(TypedDict):
    """The contract's error object: `code` is a machine code such as not_your_turn."""

    error: ErrorDetail


def error_body(code: str, message: str, fields: dict[str, Any] | None = None) -> Error:
    """The contract's error object."""
    error: ErrorDetail = {"code": code, "message": message}
    if fields:
        error["fields"] = fields
    return {"error": error}


def error_for(exc: Exception) -> tuple[int, Error] | None:
    """The status and body for a refusal raised anywhere (REST and websocket alike)."""
    if isinstance(exc, ApplicationError):
        return exc.status, error_body(exc.code, exc.message, exc.fields)
    if isinstance(exc, EngineError):
        return ENGINE_STATUS.get(exc.code, 400), error_body(exc.code, exc.message)
    return None


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
    """Every API error as `{"error": {"code", "message", "fields"?}}` (API.md conventions)."""
    found = error_for(exc)
    if found is not None:
        return Response(found[1], status=found[0])
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return None
    code = next((c for kind, c in _DRF_CODES if isinstance(exc, kind)), "invalid")
    fields = None
    if isinstance(exc, exceptions.ValidationError):
        message = "Some fields are not valid."
        fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    else:
        message = str(exc.detail)
    response = Response(error_body(code, message, fields), status=exc.status_code)
    if isinstance(exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        response["WWW-Authenticate"] = 'Token realm="api"'
        response.status_code = status.HTTP_401_UNAUTHORIZED
    return response


class Pagination(PageNumberPagination):
    """`{"count", "next", "previous", "results"}` pages; `page_size` up to 1000."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 1000


def paginate(request: Request, items: Any, view: Any, *, present: Callable[[Any], Any]) -> Response:
    """One page of `items` (a queryset or list), each shown by `present`, in the list shape."""
    paginator = Pagination()
    page: list[Any] = paginator.paginate_queryset(items, request, view=view) or []
    return paginator.get_paginated_response([present(item) for item in page])
