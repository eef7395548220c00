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


def player(request: Request) -> User:
    """The signed-in user of an API request (the views' permission has already checked it)."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise NotAuthenticated("Sign in first: send Authorization: Token <key>.")
    return user


class Pagination(PageNumberPagination):
    """`{"count", "next", "previous", "results"}` pages; `page_size` up to 1000."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 1000

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> list[Any] | None:
        """One page; a page number that is not one of the list's pages is 400 `invalid`."""
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound as error:
            raise Invalid(str(error.detail), fields={"page": [str(error.detail)]}) from None


def paginate(request: Request, items: Any, view: Any, *, present: Callable[[Any], Any]) -> Response:
    """One page of `items` (a queryset or list), each shown by `present`, in the list shape."""
    paginator = Pagination()
    page: list[Any] = paginator.paginate_queryset(items, request, view=view) or []
    return paginator.get_paginated_response([present(item) for item in page])
