"""Hand-written infrastructure of the site as a whole: the HTTP door (Django's WSGI handler on a
pool of threads behind the ASGI server) and a workaround for a kombu bug.

Why each is here, and what it was measured against: docs/architecture.md ("Hand-written
infrastructure").

The kombu workaround: a Celery worker must survive a lost broker connection (Redis restarted or
killed). With kombu 5.7.0, the newest release, it does not: on the lost connection the worker
first collects the connection and then closes it; the close restores the unacked messages (the
ETA tasks the worker holds) through the collected connection, fails with AttributeError, and the
worker stops ("Unrecoverable error") instead of reconnecting. No kombu release fixes it and no
upstream report matches it (the nearest, celery/celery#10205, is a reset connection's
restore_visible); kombu is pinned to 5.7 (KOMBU_PIN) so that a new kombu is checked before the
pin moves (tests/faults/test_process_faults.py kills Redis under a worker). It skips that restore
when the connection is already gone: the messages stay in Redis's unacked set, which Redis's
visibility timeout gives back (after a Redis restart they are gone anyway), and the turn timer's
sweep stands in for any of them meanwhile (R16)."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sys
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from tempfile import SpooledTemporaryFile
from typing import IO, Any

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------- the HTTP door

DJANGO_PIN = (5, 2)  # pyproject.toml: django>=5.2,<5.3
STREAM_AFTER = 64 * 1024  # a response this large is sent as it is made, not whole at the end
ASGIMessage = dict[str, Any]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class ClientNotReading(Exception):
    """A part of the answer waited longer than the send timeout for the client to take it."""


class WSGIOnThreads:
    """An ASGI app that runs a WSGI app on a fixed pool of threads, one hand-off a request; Django's
    ASGI handler starts a thread a request and hops between it and the event loop three times.
    A client that takes no part of its answer for `send_timeout` seconds is cut off, so no
    client that stops reading holds a thread (a streamed answer's thread waits on each part)."""

    def __init__(
        self, app: WSGIApp, *, threads: int, spool_bytes: int, send_timeout: float
    ) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="http")
        self.spool_bytes = spool_bytes
        self.send_timeout = send_timeout

    async def __call__(self, scope: ASGIMessage, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"{type(self).__name__} serves HTTP, not {scope['type']!r}")
        with SpooledTemporaryFile(max_size=self.spool_bytes) as body:
            if not await _read_body(receive, body):
                return  # the client left before its request was all in
            size = body.tell()
            body.seek(0)
            loop = asyncio.get_running_loop()
            response = _Response(loop, send, self.send_timeout)
            run = contextvars.copy_context().run  # each request in the context it came with
            environ = wsgi_environ(scope, body, size)
            # An exception goes up to the server: a 500 if nothing was sent, else a cut connection.
            try:
                await loop.run_in_executor(self.pool, run, response.run, self.app, environ)
                await response.flush(more=False)
            except ClientNotReading:
                # The answer is left unfinished, so the server cuts the connection: the client
                # cannot take a part of it for the whole.
                log.warning("client read none of its answer for %s s: dropped", self.send_timeout)


async def _read_body(receive: Any, body: IO[bytes]) -> bool:
    """The whole request body into `body`, before any thread is taken (a slow upload holds
    none); False if the client disconnected first."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return False
        body.write(message.get("body", b""))
        if not message.get("more_body", False):
            return True


def wsgi_environ(scope: ASGIMessage, body: IO[bytes], size: int) -> dict[str, Any]:
    """The PEP 3333 environ of an ASGI HTTP request whose body, `size` bytes, is in `body`."""
    root = scope.get("root_path", "")
    path = scope["path"][len(root) :] if scope["path"].startswith(root) else scope["path"]
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode().decode("latin-1"),
        "PATH_INFO": path.encode().decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": server[0],
        "SERVER_PORT": str(server[1] or 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": body,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if scope.get("client"):
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = scope["client"][0], str(scope["client"][1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper()
        if "_" in name:
            continue  # as WSGI servers do: "X_Forwarded_For" must not pass for X-Forwarded-For
        key = name.replace("-", "_")
        key = key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"
        value = raw_value.decode("latin-1")
        joiner = "; " if key == "HTTP_COOKIE" else ","
        environ[key] = f"{environ[key]}{joiner}{value}" if key in environ else value
    if size or "CONTENT_LENGTH" in environ:
        environ["CONTENT_LENGTH"] = str(size)  # what was read: a chunked body is counted too
    return environ


class _Response:
    """One WSGI response: made in a pool thread, sent on the event loop (whole at the end, or
    as it is made once it passes STREAM_AFTER)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, send: Any, send_timeout: float) -> None:
        self.loop, self.send, self.send_timeout = loop, send, send_timeout
        self.start: ASGIMessage | None = None
        self.started = False  # the start message is sent
        self.chunks: list[bytes] = []
        self.size = 0

    def start_response(
        self, status: str, headers: list[tuple[str, str]], exc_info: Any = None
    ) -> Callable[[bytes], None]:
        if exc_info is not None and self.started:
            raise exc_info[1].with_traceback(exc_info[2])
        self.start = {
            "type": "http.response.start",
            "status": int(status.split(" ", 1)[0]),
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers],
        }
        return self.write

    def write(self, chunk: bytes) -> None:
        """Each chunk of the response (in the pool thread)."""
        if chunk:
            self.chunks.append(chunk)
            self.size += len(chunk)
        if self.size >= STREAM_AFTER:
            asyncio.run_coroutine_threadsafe(self.flush(more=True), self.loop).result()

    def run(self, app: WSGIApp, environ: dict[str, Any]) -> None:
        """The app's response, made in the pool thread; closed there (Django's request_finished
        gives the thread's database connection back)."""
        chunks = app(environ, self.start_response)
        try:
            for chunk in chunks:
                self.write(chunk)
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()

    async def flush(self, *, more: bool) -> None:
        """Send what was made so far; the last call (`more=False`) ends the response. A client
        that takes none of it within the send timeout raises ClientNotReading: a streamed
        answer's thread waits on each part and must not wait for ever."""
        try:
            async with asyncio.timeout(self.send_timeout):
                await self._send_made(more=more)
        except TimeoutError:
            raise ClientNotReading from None

    async def _send_made(self, *, more: bool) -> None:
        if not self.started:
            if self.start is None:
                raise RuntimeError("The WSGI application answered without a status.")
            self.started = True
            await self.send(self.start)
        body, self.chunks, self.size = b"".join(self.chunks), [], 0
        if body or not more:
            await self.send({"type": "http.response.body", "body": body, "more_body": more})


# --------------------------------------------------------------------------- the kombu workaround

KOMBU_PIN = (5, 7)  # pyproject.toml: kombu>=5.7,<5.8

_restore_unacked: Any = kombu_redis.QoS.restore_unacked


def _restore_unless_disconnected(self: Any, client: Any = None) -> Any:
    if client is None and getattr(self.channel.connection, "client", None) is None:
        log.warning("broker connection lost: unacked tasks are left to the visibility timeout")
        return None
    return _restore_unacked(self, client)


def install_kombu_workaround() -> None:
    """Once per process, before the worker starts."""
    kombu_redis.QoS.restore_unacked = _restore_unless_disconnected  # type: ignore[method-assign]
