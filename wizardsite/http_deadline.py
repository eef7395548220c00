"""Uvicorn's HTTP protocol (httptools) with a deadline on receiving each request.

uvicorn has no request timeout (0.55; see Kludex/uvicorn#1192 and the slowloris reports that
cite it): its only timer, --timeout-keep-alive, is armed after a response and cancelled by any
byte received, so a client that sends part of a request, then a byte now and then, holds a
connection and its memory for ever. Measured with bench/slow_requests.py: 400 half-sent
requests, all 400 still open after 25 s. ASGI middleware cannot help: the application is only
called once the headers are complete. Here each request, headers and body, must arrive within
HTTP_REQUEST_TIMEOUT seconds of the connection (or of the previous answer), or the connection
is closed; the answer itself may take as long as it takes, and a websocket is not limited once
upgraded. Production runs uvicorn with `--http wizardsite.http_deadline:RequestDeadlineProtocol`
(Procfile.production); tests/wizardsite/test_http_deadline.py fails if uvicorn's protocol
changes under it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from wizardsite.env import env_int

REQUEST_SECONDS = env_int("HTTP_REQUEST_TIMEOUT", 10)


class RequestDeadlineProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that closes a connection whose request is not all in on time."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Idle on a kept-alive connection: the next request has its deadline. A pipelined
        # request already arrived and is being answered.
        if not self.transport.is_closing() and not self.pipeline:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()
