"""Threads kept from one HTTP request to the next.

Under ASGI, Django runs each request's sync work (its middleware, its view, the signals around
it) in a thread of that request's own: asgiref starts a thread for every request and stops it
afterwards, which cost a REST move more CPU than its view. Here each request borrows a
single-thread executor from a pool of idle ones and gives it back when it ends (asgiref's
ThreadSensitiveContext with an executor the caller owns), so the same few threads serve every
request: one request at a time each, as before.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext

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
