"""Under ASGI every middleware runs in the request's one thread: no middleware runs in async
mode, where Django's MiddlewareMixin hops between the event loop and a thread for each of its
request and response hooks (a REST move paid for several such hops before the sync-only
middlewares went innermost)."""

from __future__ import annotations

from typing import Any

import pytest
from axes.middleware import AxesMiddleware
from django.test import AsyncClient
from django.utils.deprecation import MiddlewareMixin

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_no_middleware_runs_in_async_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    in_async_mode: list[str] = []

    def recording(original: Any) -> Any:
        async def acall(self: Any, request: Any) -> Any:
            in_async_mode.append(type(self).__name__)
            return await original(self, request)

        return acall

    monkeypatch.setattr(MiddlewareMixin, "__acall__", recording(MiddlewareMixin.__acall__))
    monkeypatch.setattr(AxesMiddleware, "__acall__", recording(AxesMiddleware.__acall__))
    for path in ("/api/v1/games/", "/"):
        response = await AsyncClient().get(path)
        assert response.status_code in (200, 401)  # the lobby; the API without a token
    assert in_async_mode == []
