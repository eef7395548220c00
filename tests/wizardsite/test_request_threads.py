"""HTTP requests borrow their thread from a pool (wizardsite.request_threads): one request after
another runs its sync work in the same thread, requests at the same time each in its own, and
a request's sync calls all stay in its one thread, as Django expects."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import AsyncToSync, SyncToAsync, ThreadSensitiveContext, sync_to_async
from channels.testing import HttpCommunicator
from django.core.signals import request_finished, request_started

from wizardsite.asgi import application
from wizardsite.request_threads import KEEP_IDLE, RequestThreads

pytestmark = pytest.mark.asyncio


class SyncApp:
    """An ASGI app whose request makes two thread-sensitive sync calls (as Django's handler
    does: its middleware and view, then its signals), each noting its thread."""

    def __init__(self, hold: threading.Barrier | None = None) -> None:
        self.hold = hold
        self.threads: list[tuple[threading.Thread, threading.Thread]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        first = await sync_to_async(self._work)()
        second = await sync_to_async(threading.current_thread)()
        self.threads.append((first, second))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    def _work(self) -> threading.Thread:
        if self.hold is not None:
            self.hold.wait(timeout=5)  # both requests are in their threads at once
        return threading.current_thread()


async def get(app: Any) -> int:
    communicator = HttpCommunicator(app, "GET", "/")
    response = await communicator.get_response(timeout=5)
    status: int = response["status"]
    return status


async def test_requests_one_after_another_reuse_one_thread() -> None:
    inner = SyncApp()
    app = RequestThreads(inner)
    for _ in range(3):
        assert await get(app) == 200
    threads = [thread for pair in inner.threads for thread in pair]
    assert all(thread is threads[0] for thread in threads)
    assert threading.current_thread() not in inner.threads[0]


async def test_without_the_pool_each_request_starts_a_thread_of_its_own() -> None:
    """What the pool saves: Django's own context alone gives each request a new thread."""
    inner = SyncApp()

    async def as_django(scope: Any, receive: Any, send: Any) -> None:
        async with ThreadSensitiveContext():
            await inner(scope, receive, send)

    for _ in range(3):
        assert await get(as_django) == 200
    firsts = [first for first, _ in inner.threads]  # Thread objects: idents get reused
    assert all(a is not b for i, a in enumerate(firsts) for b in firsts[i + 1 :])


async def test_requests_at_the_same_time_each_have_their_own_thread() -> None:
    inner = SyncApp(hold=threading.Barrier(2))
    app = RequestThreads(inner)
    assert await asyncio.gather(get(app), get(app)) == [200, 200]
    (first_a, second_a), (first_b, second_b) = inner.threads
    assert first_a is second_a and first_b is second_b and first_a is not first_b
    assert len(app.idle) == 2  # both kept for the next requests


async def test_idle_threads_beyond_the_limit_are_stopped() -> None:
    inner = SyncApp(hold=threading.Barrier(KEEP_IDLE + 2))
    app = RequestThreads(inner)
    await asyncio.gather(*(get(app) for _ in range(KEEP_IDLE + 2)))
    assert len(app.idle) == KEEP_IDLE


@pytest.mark.django_db(transaction=True)
async def test_the_site_serves_http_through_the_pool() -> None:
    assert isinstance(application.application_mapping["http"], RequestThreads)
    communicator = HttpCommunicator(
        application, "GET", "/rules/", headers=[(b"host", b"testserver")]
    )
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 200


@pytest.mark.django_db(transaction=True)
async def test_a_request_runs_its_middleware_and_view_without_going_back_to_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Django's own ASGI handler calls its view from the event loop: its innermost (sync)
    middleware hands the request back to the loop through async_to_sync."""
    back_to_the_loop: list[Any] = []
    original = AsyncToSync.__call__

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        back_to_the_loop.append(self)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(AsyncToSync, "__call__", counting)
    for path in ("/api/v1/games/", "/rules/"):
        communicator = HttpCommunicator(
            application, "GET", path, headers=[(b"host", b"testserver")]
        )
        response = await communicator.get_response(timeout=10)
        assert response["status"] in (200, 401)  # the rules; the API without a token
    assert back_to_the_loop == []


@pytest.mark.django_db(transaction=True)
async def test_a_request_hops_to_its_thread_once_and_its_signals_fire_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Django's own handler hops for request_started, for the chain, for the view and to close
    the response; here it is one call on the thread, request_started to request_finished."""
    hops: list[Any] = []
    original = SyncToAsync.__call__

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(self)
        return original(self, *args, **kwargs)

    fired: list[tuple[str, threading.Thread]] = []

    def started(**kwargs: Any) -> None:
        fired.append(("started", threading.current_thread()))

    def finished(**kwargs: Any) -> None:
        fired.append(("finished", threading.current_thread()))

    request_started.connect(started)
    request_finished.connect(finished)
    monkeypatch.setattr(SyncToAsync, "__call__", counting)
    try:
        communicator = HttpCommunicator(
            application, "GET", "/rules/", headers=[(b"host", b"testserver")]
        )
        response = await communicator.get_response(timeout=10)
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)
    assert response["status"] == 200 and b"<html" in response["body"]
    assert len(hops) == 1
    assert [name for name, _ in fired] == ["started", "finished"]
    assert fired[0][1] is fired[1][1] is not threading.current_thread()
