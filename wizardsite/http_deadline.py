"""Uvicorn's HTTP protocol (httptools) with a deadline on each request's headers.

uvicorn has no header timeout (0.55; see Kludex/uvicorn#1192 and the slowloris reports that
cite it): its only timer, --timeout-keep-alive, is armed after a response and cancelled by any
byte received, so a client that sends part of a request, then a byte now and then, holds a
connection and its memory for ever. Measured with bench/slow_requests.py: 400 half-sent
requests, all 400 still open after 25 s. ASGI middleware cannot help: the application is only
called once the headers are complete. Here the headers of every request must arrive within
HTTP_HEADERS_TIMEOUT seconds of the connection (or of the previous response), or the
connection is closed. Production runs uvicorn with `--http
wizardsite.http_deadline:HeaderDeadlineProtocol` (Procfile.production);
tests/wizardsite/test_http_deadline.py fails if uvicorn's protocol changes under it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from wizardsite.env import env_int

HEADERS_SECONDS = env_int("HTTP_HEADERS_TIMEOUT", 10)


class HeaderDeadlineProtocol(HttpToolsProtocol):
    """HttpToolsProtocol that closes a connection whose request headers are late."""

    _headers_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Idle on a kept-alive connection: the next request's headers have their deadline.
        # A pipelined request already sent its headers and is being answered.
        if not self.transport.is_closing() and not self.pipeline:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._headers_deadline = self.loop.call_later(HEADERS_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._headers_deadline is not None:
            self._headers_deadline.cancel()
            self._headers_deadline = None

    def _too_slow(self) -> None:
        self._headers_deadline = None
        if not self.transport.is_closing():
            self.transport.close()
