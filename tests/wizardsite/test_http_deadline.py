"""uvicorn with wizardsite.http_deadline: a request that is not all in on time is closed (its
headers or its body silent, or dripping a byte at a time), while whole requests, kept-alive
connections, slow answers and websockets are served as before. Fails if uvicorn's protocol
changes under the subclass."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
import uvicorn
from websockets.asyncio.client import connect

from wizardsite import http_deadline

pytestmark = pytest.mark.asyncio

DEADLINE = 0.5
GENEROUS = 5.0  # seconds: "closed within", never a timing of the deadline itself


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "websocket":
        await receive()  # connect
        await send({"type": "websocket.accept"})
        while (await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": "pong"})
        return
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    if scope["path"] == "/slow":
        await asyncio.sleep(DEADLINE * 3)  # answering takes longer than the headers may
    headers = [(b"content-length", b"2")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"ok"})


@pytest_asyncio.fixture
async def port(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[int]:
    monkeypatch.setattr(http_deadline, "REQUEST_SECONDS", DEADLINE)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        http=http_deadline.RequestDeadlineProtocol,
        lifespan="off",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    yield server.servers[0].sockets[0].getsockname()[1]
    server.should_exit = True
    await serving


async def closed_within(reader: asyncio.StreamReader, seconds: float) -> bool:
    """True when the server closes the connection (EOF) within `seconds`, answering nothing."""
    data = await asyncio.wait_for(reader.read(), seconds)
    return data == b""


async def test_a_half_sent_request_is_closed(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
    assert await closed_within(reader, GENEROUS)
    writer.close()


@pytest.mark.parametrize(
    "start",
    [
        pytest.param(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ", id="headers"),
        pytest.param(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", id="body"),
    ],
)
async def test_a_request_dripping_a_byte_at_a_time_is_closed(port: int, start: bytes) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(start)

    async def drip() -> None:
        while True:
            await asyncio.sleep(DEADLINE / 5)
            writer.write(b"a")

    dripping = asyncio.create_task(drip())
    try:
        assert await closed_within(reader, GENEROUS)
    finally:
        dripping.cancel()
        writer.close()


async def test_whole_requests_kept_alive_and_slow_answers_are_served(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    requests = [
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi",
    ]
    for request in requests:
        writer.write(request)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), GENEROUS)
        assert head.startswith(b"HTTP/1.1 200"), head
        assert await asyncio.wait_for(reader.readexactly(2), GENEROUS) == b"ok"
    # Idle past the deadline after an answer, then a request's headers late: closed.
    writer.write(b"GET / HTTP/1.1\r\n")
    assert await closed_within(reader, GENEROUS)
    writer.close()


async def test_a_websocket_outlives_the_deadline(port: int) -> None:
    async with connect(f"ws://127.0.0.1:{port}/") as client:
        await asyncio.sleep(DEADLINE * 3)
        await client.send("ping")
        assert await asyncio.wait_for(client.recv(), GENEROUS) == "pong"


@pytest.mark.parametrize("name", ["Procfile", "Procfile.production"])
async def test_both_commands_serve_with_the_deadline(name: str) -> None:
    """`make run` and `make serve` both run uvicorn with this protocol, never a server that
    holds a half-sent request open."""
    procfile = http_deadline.__file__.rsplit("/wizardsite/", 1)[0] + f"/{name}"
    with open(procfile) as lines:
        (web,) = [line for line in lines if line.startswith("web:")]
    assert web.split()[1] == "uvicorn"
    assert "--http wizardsite.http_deadline:RequestDeadlineProtocol" in web
