"""The threads Django's HTTP requests run on under ASGI.

Django runs each request's sync work (its middleware, its view, the signals around it) in a
thread of that request's own. Two things made that cost a REST move more CPU than its view:

- asgiref started a thread for every request and stopped it afterwards. Here each request
  borrows a single-thread executor from a pool of idle ones and gives it back when it ends
  (asgiref's ThreadSensitiveContext with an executor the caller owns), so the same few threads
  serve every request, one request at a time each, as before.
- Django's ASGI handler hops between the event loop and that thread several times a request:
  for the request_started signal, for the middleware chain, back to the loop and to the thread
  again for the view, and once more to close the response. OneHopHandler runs the chain in
  sync mode, as WSGI does, and does all of it in one call on the thread; only reading the body
  and sending the response stay in the loop.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import set_script_prefix

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
    """Django's ASGI handler, one hop to the request's thread a request (every middleware of
    this site is sync, so the chain is loaded in sync mode). A client that disconnects
    meanwhile is not listened for: a sync view cannot be stopped anyway."""

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response)(request)

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await sync_to_async(self._respond)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:  # read while it is sent: closed afterwards
                await sync_to_async(response.close)()
        finally:
            body_file.close()

    def _respond(self, scope: Any, body_file: Any) -> HttpResponseBase:
        """Everything Django does for a request between reading it and sending the answer;
        an answer read whole is closed here (request_finished: its connections go back)."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, refused = self.create_request(scope, body_file)
        if request is None:  # a body or headers Django cannot read: its 400 or 413
            assert refused is not None
            response = refused
        else:
            response = self.get_response(request)
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size  # the server chunks what it sends
        if not response.streaming:
            response.close()
        return response


def http_application() -> RequestThreads:
    """Django set up, and its HTTP application: what get_asgi_application gives, with the
    request threads above."""
    django.setup(set_prefix=False)
    return RequestThreads(OneHopHandler())
