"""The signed-in player of an API request, and paginated lists in the contract's shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import Invalid, NotAuthenticated
from core.errors import NotFound as ApplicationNotFound


def player(request: Request) -> User:
    """The signed-in user of an API request (the views' permission has already checked it)."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise NotAuthenticated("Sign in first: send Authorization: Token <key>.")
    return user


_FLAGS = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def flag(request: Request, name: str) -> bool:
    """A boolean query parameter (`true` or `false`, as the schema says; `1`/`0`, `yes`/`no`
    too): anything else, or the parameter twice, is 400 `invalid`."""
    values = request.query_params.getlist(name)
    if not values:
        return False
    flag = _FLAGS.get(values[0].lower()) if len(values) == 1 else None
    if flag is None:
        raise Invalid(f"'{name}' must be true or false.", fields={name: ["true or false"]})
    return flag


def whole_number(request: Request, name: str, low: int, high: int | None = None) -> int | None:
    """The query parameter `name` as a whole number from `low` to `high`, None when absent;
    anything else is 400 `invalid` (the schema gives the same bounds)."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    value = int(raw) if raw.isascii() and raw.isdigit() else None
    if value is None or value < low or (high is not None and value > high):
        bounds = f"from {low} to {high}" if high is not None else f"≥ {low}"
        raise Invalid(f"'{name}' must be a whole number {bounds}.", fields={name: [bounds]})
    return value


class Pagination(PageNumberPagination):
    """`{"count", "next", "previous", "results"}` pages; `page` ≥ 1, `page_size` 1 to 1000
    (out of range is 400 `invalid`); a page past the last is 404 `not_found`."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 1000

    def get_page_size(self, request: Request) -> int:
        size = whole_number(request, self.page_size_query_param, 1, self.max_page_size)
        return self.page_size if size is None else size

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> list[Any] | None:
        """One page of the list."""
        whole_number(request, self.page_query_param, 1)
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as error:
            raise ApplicationNotFound(str(error.detail)) from None


def paginate(
    request: Request, items: Any, view: Any, *, present: Callable[[list[Any]], list[Any]]
) -> Response:
    """One page of `items` (a queryset or list), shown by `present` (the page's items at once,
    so what they share is read once), in the list shape."""
    paginator = Pagination()
    page: list[Any] = paginator.paginate_queryset(items, request, view=view) or []
    return paginator.get_paginated_response(present(page))
