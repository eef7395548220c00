"""wizardsite.infra.WSGIOnThreads, the HTTP door: the request's body is read on the event loop,
the WSGI app runs on the pool's few threads with the environ a WSGI server gives, a small answer
goes out whole, a large one as it is made, and Django gives the thread's database connection
back after each request."""

from __future__ import annotations

import asyncio
import contextvars
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.signals import request_finished

from wizardsite import infra

pytestmark = pytest.mark.asyncio

WAIT = 10  # seconds: the most a step may take, never a measure of speed

Environ = dict[str, Any]
seen: contextvars.ContextVar[str] = contextvars.ContextVar("seen", default="unset")


def scope(path: str = "/", method: str = "GET", **extra: Any) -> dict[str, Any]:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": [],
        "client": ("203.0.113.7", 50123),
        "server": ("127.0.0.1", 8000),
        **extra,
    }


def echo(environ: Environ, start_response: Any) -> list[bytes]:
    """A WSGI app that answers with what it was given."""
    body = environ["wsgi.input"].read()
    start_response("201 Created", [("Content-Type", "text/plain"), ("X-Thread", thread_name())])
    return [body, b"|", environ.get("CONTENT_LENGTH", "-").encode()]


def thread_name() -> str:
    return threading.current_thread().name


def door(app: Any, threads: int = 2, send_timeout: float = WAIT) -> infra.WSGIOnThreads:
    return infra.WSGIOnThreads(app, threads=threads, spool_bytes=1024, send_timeout=send_timeout)


async def answer(communicator: ApplicationCommunicator) -> tuple[dict[str, Any], bytes]:
    """The start message and the whole body of a response."""
    start = await communicator.receive_output(WAIT)
    body = b""
    while True:
        message = await communicator.receive_output(WAIT)
        body += message["body"]
        if not message.get("more_body", False):
            return start, body


async def test_a_body_in_pieces_reaches_the_app_whole_and_counted() -> None:
    communicator = ApplicationCommunicator(door(echo), scope(method="POST"))
    for piece in (b"one ", b"two ", b"three"):  # chunked: no Content-Length header
        await communicator.send_input({"type": "http.request", "body": piece, "more_body": True})
    await communicator.send_input({"type": "http.request", "body": b"", "more_body": False})
    start, body = await answer(communicator)
    assert start["status"] == 201
    assert body == b"one two three|13"
    headers = dict(start["headers"])
    assert headers[b"Content-Type"] == b"text/plain"  # as the app named it, as Django ASGI did
    assert headers[b"X-Thread"].startswith(b"http")  # a pool thread, not the event loop's


async def test_the_app_runs_on_the_same_few_threads() -> None:
    app = door(echo, threads=2)
    names = set()
    for _ in range(6):
        communicator = ApplicationCommunicator(app, scope())
        await communicator.send_input({"type": "http.request", "body": b""})
        start, _ = await answer(communicator)
        names.add(dict(start["headers"])[b"X-Thread"])
    assert 1 <= len(names) <= 2


async def test_a_slow_upload_holds_no_thread() -> None:
    app = door(echo, threads=1)
    slow = ApplicationCommunicator(app, scope(method="POST"))
    await slow.send_input({"type": "http.request", "body": b"half", "more_body": True})
    quick = ApplicationCommunicator(app, scope())
    await quick.send_input({"type": "http.request", "body": b""})
    start, body = await answer(quick)  # served on the one thread while the upload waits
    assert (start["status"], body) == (201, b"|-")
    await slow.send_input({"type": "http.request", "body": b" done"})
    assert (await answer(slow))[1] == b"half done|9"


async def test_a_client_gone_before_its_body_ends_never_reaches_the_app() -> None:
    called = []

    def app(environ: Environ, start_response: Any) -> list[bytes]:
        called.append(environ)
        return echo(environ, start_response)

    communicator = ApplicationCommunicator(door(app), scope(method="POST"))
    await communicator.send_input({"type": "http.request", "body": b"x", "more_body": True})
    await communicator.send_input({"type": "http.disconnect"})
    await communicator.wait(WAIT)
    assert called == []
    assert await communicator.receive_nothing()


async def test_the_environ_is_what_a_wsgi_server_gives() -> None:
    given: list[Environ] = []

    def app(environ: Environ, start_response: Any) -> list[bytes]:
        given.append(dict(environ))
        start_response("204 No Content", [])
        return []

    headers = [
        (b"host", b"wizard.example"),
        (b"accept", b"text/html"),
        (b"accept", b"application/json"),
        (b"cookie", b"a=1"),
        (b"cookie", b"b=2"),
        (b"x-forwarded-for", b"198.51.100.1"),
        (b"x_forwarded_for", b"192.0.2.66"),  # would pass for the header above: dropped
        (b"content-type", b"application/json"),
    ]
    request = scope(
        "/app/tables/ä", root_path="/app", query_string=b"page=2&q=%C3%A4", headers=headers
    )
    communicator = ApplicationCommunicator(door(app), request)
    await communicator.send_input({"type": "http.request", "body": b""})
    start, body = await answer(communicator)
    assert (start["status"], body) == (204, b"")
    environ = given[0]
    assert environ["REQUEST_METHOD"] == "GET"
    assert environ["SCRIPT_NAME"] == "/app"
    assert environ["PATH_INFO"].encode("latin-1").decode() == "/tables/ä"
    assert environ["QUERY_STRING"] == "page=2&q=%C3%A4"
    assert environ["HTTP_HOST"] == "wizard.example"
    assert environ["HTTP_ACCEPT"] == "text/html,application/json"
    assert environ["HTTP_COOKIE"] == "a=1; b=2"
    assert environ["HTTP_X_FORWARDED_FOR"] == "198.51.100.1"
    assert environ["CONTENT_TYPE"] == "application/json"
    assert "CONTENT_LENGTH" not in environ  # no body, none declared
    assert (environ["REMOTE_ADDR"], environ["REMOTE_PORT"]) == ("203.0.113.7", "50123")
    assert (environ["SERVER_NAME"], environ["SERVER_PORT"]) == ("127.0.0.1", "8000")
    assert environ["SERVER_PROTOCOL"] == "HTTP/1.1"
    assert environ["wsgi.url_scheme"] == "http"


async def test_a_small_answer_goes_out_whole() -> None:
    communicator = ApplicationCommunicator(door(echo), scope(method="POST"))
    await communicator.send_input({"type": "http.request", "body": b"hello"})
    await communicator.receive_output(WAIT)  # the start
    message = await communicator.receive_output(WAIT)
    assert message == {"type": "http.response.body", "body": b"hello|5", "more_body": False}
    assert await communicator.receive_nothing()


async def test_a_large_answer_goes_out_as_it_is_made_and_is_closed_on_its_thread() -> None:
    first_sent = threading.Event()
    closed_on: list[str] = []

    class Chunks:
        def __iter__(self) -> Iterator[bytes]:
            yield b"a" * infra.STREAM_AFTER
            assert first_sent.wait(WAIT), "the first part was held back"
            yield b"end"

        def close(self) -> None:
            closed_on.append(thread_name())

    def app(environ: Environ, start_response: Any) -> Chunks:
        start_response("200 OK", [("Content-Type", "application/json")])
        return Chunks()

    communicator = ApplicationCommunicator(door(app), scope())
    await communicator.send_input({"type": "http.request", "body": b""})
    assert (await communicator.receive_output(WAIT))["status"] == 200
    part = await communicator.receive_output(WAIT)
    assert (len(part["body"]), part["more_body"]) == (infra.STREAM_AFTER, True)
    first_sent.set()
    rest = b""
    while (message := await communicator.receive_output(WAIT))["more_body"]:
        rest += message["body"]
    assert rest + message["body"] == b"end"
    assert len(closed_on) == 1 and closed_on[0].startswith("http")


async def test_a_client_that_reads_none_of_a_streamed_answer_is_dropped_and_frees_its_thread() -> (
    None
):
    closed = threading.Event()

    class Endless:
        """An answer as long as the client takes it."""

        def __iter__(self) -> Iterator[bytes]:
            while True:
                yield b"a" * infra.STREAM_AFTER

        def close(self) -> None:
            closed.set()

    def app(environ: Environ, start_response: Any) -> Any:
        if environ["PATH_INFO"] != "/export":
            return echo(environ, start_response)
        start_response("200 OK", [("Content-Type", "application/json")])
        return Endless()

    sent: list[dict[str, Any]] = []

    async def not_reading(message: dict[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body":
            await asyncio.Event().wait()  # the client's window stays full: never sent

    async def request(scope: Any = None) -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    app_door = door(app, threads=1, send_timeout=0.2)
    await asyncio.wait_for(app_door(scope("/export"), request, not_reading), WAIT)
    assert closed.is_set()  # the app's answer was closed on its thread, which is free again
    bodies = [message for message in sent if message["type"] == "http.response.body"]
    assert bodies and all(message["more_body"] for message in bodies)  # cut, never "complete"
    quick = ApplicationCommunicator(app_door, scope())
    await quick.send_input({"type": "http.request", "body": b""})
    assert (await answer(quick))[0]["status"] == 201


async def test_an_app_that_fails_leaves_the_answer_to_the_server() -> None:
    def app(environ: Environ, start_response: Any) -> list[bytes]:
        raise ZeroDivisionError

    communicator = ApplicationCommunicator(door(app), scope())
    await communicator.send_input({"type": "http.request", "body": b""})
    with pytest.raises(ZeroDivisionError):  # the server answers 500 to what the app raised
        await communicator.wait(WAIT)


async def test_each_request_runs_in_the_context_it_came_with() -> None:
    def app(environ: Environ, start_response: Any) -> list[bytes]:
        before = seen.get()
        seen.set("leaked")  # must not reach the next request on this thread
        start_response("200 OK", [])
        return [before.encode()]

    app_door = door(app, threads=1)

    async def setting(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.set(scope["path"])  # as a server's or a middleware's context would
        await app_door(scope, receive, send)

    bodies = []
    for app_of_request, path in ((setting, "/one"), (app_door, "/two")):
        request = ApplicationCommunicator(app_of_request, scope(path))
        await request.send_input({"type": "http.request", "body": b""})
        bodies.append((await answer(request))[1])
    assert bodies == [b"/one", b"unset"]


@pytest.mark.django_db(transaction=True)
async def test_django_finishes_each_request_on_its_own_thread() -> None:
    """request_finished, where Django gives the thread's database connection back, runs on the
    thread that served the request, once its answer is made."""
    from wizardsite.wsgi import application

    finished_on: list[str] = []

    def record(**kwargs: Any) -> None:
        finished_on.append(thread_name())

    request_finished.connect(record)
    try:
        communicator = ApplicationCommunicator(door(application, threads=1), scope("/healthz"))
        await communicator.send_input({"type": "http.request", "body": b""})
        start, body = await answer(communicator)
    finally:
        request_finished.disconnect(record)
    assert start["status"] == 200, body[:200]
    assert len(finished_on) == 1 and finished_on[0].startswith("http")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/healthz", {"status": "ok"}),
        ("/readyz", {"database": "ok", "cache": "ok", "broker": "ok", "migrations": "ok"}),
    ],
)
async def test_the_probes_answer_while_every_http_thread_is_busy(
    path: str, body: dict[str, str]
) -> None:
    """The site's own ASGI app with each of its HTTP_THREADS threads held (as by clients that
    do not read, or by slow answers): a load balancer still sees the process serve."""
    from django.conf import settings

    from wizardsite import asgi

    started, release = threading.Semaphore(0), threading.Event()

    def hold() -> None:
        started.release()
        release.wait(WAIT)

    held = [asgi.http_door.pool.submit(hold) for _ in range(settings.HTTP_THREADS)]
    try:
        for _ in held:  # every thread of the pool is taken
            assert await asyncio.to_thread(started.acquire, timeout=WAIT)
        communicator = ApplicationCommunicator(asgi.application, scope(path))
        await communicator.send_input({"type": "http.request", "body": b""})
        start, answered = await answer(communicator)
    finally:
        release.set()
    assert start["status"] == 200, answered
    assert json.loads(answered) == body
    assert b"no-cache" in dict(start["headers"])[b"Cache-Control"]
