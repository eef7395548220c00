"""The threads Django's HTTP requests run on under ASGI.

Django runs each request's sync work (its middleware, its view, the signals around it) in a
thread of that request's own. Two things made that cost a REST move more CPU than its view:

- asgiref started a thread for every request and stopped it afterwards. Here each request
  borrows a single-thread executor from a pool of idle ones and gives it back when it ends
  (asgiref's ThreadSensitiveContext with an executor the caller owns), so the same few threads
  serve every request, one request at a time each, as before.
- Django's ASGI handler runs the view from the event loop: the middleware chain went to the
  thread, back to the loop, and to the thread again for the view. OneHopHandler runs the
  chain in sync mode, as WSGI does: middleware and view in one call on the thread.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase

# Idle threads kept beyond this are stopped: a burst of requests leaves no crowd behind.
KEEP_IDLE = 16


class RequestThreads:
    """ASGI middleware for Django's HTTP application (one event loop: no lock needed)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.idle: list[ThreadPoolExecutor] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        executor = self.idle.pop() if self.idle else _new_thread()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.app(scope, receive, send)
        finally:
            if len(self.idle) < KEEP_IDLE:
                self.idle.append(executor)
            else:
                executor.shutdown(wait=False)


def _new_thread() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")


class OneHopHandler(ASGIHandler):
    """Django's ASGI handler with its middleware chain loaded in sync mode (every middleware
    of this site is sync): the chain and the view run in one call on the request's thread."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response)(request)


def http_application() -> RequestThreads:
    """Django set up, and its HTTP application: what get_asgi_application gives, with the
    request threads above."""
    django.setup(set_prefix=False)
    return RequestThreads(OneHopHandler())
