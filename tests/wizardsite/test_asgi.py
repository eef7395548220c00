"""The site's ASGI app as a server calls it: Django's ASGI handler answers pages with headers a
strict HTTP server takes (a cookie's value has no leading space), the health probes answer
before it, and a streamed answer (the data export) goes out piece by piece."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.testing import ApplicationCommunicator

pytestmark = pytest.mark.asyncio

WAIT = 10  # seconds: the most a step may take, never a measure of speed


def scope(path: str = "/", method: str = "GET", **extra: Any) -> dict[str, Any]:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("203.0.113.7", 50123),
        "server": ("127.0.0.1", 8000),
        **extra,
    }


async def answer(communicator: ApplicationCommunicator) -> tuple[dict[str, Any], bytes]:
    """The start message and the whole body of a response."""
    start = await communicator.receive_output(WAIT)
    body = b""
    while True:
        message = await communicator.receive_output(WAIT)
        body += message["body"]
        if not message.get("more_body", False):
            return start, body


async def get(path: str) -> tuple[dict[str, Any], bytes]:
    from wizardsite.asgi import application

    communicator = ApplicationCommunicator(application, scope(path))
    await communicator.send_input({"type": "http.request", "body": b""})
    return await answer(communicator)


@pytest.mark.django_db(transaction=True)
async def test_a_page_that_sets_cookies_sends_header_values_an_http_server_accepts() -> None:
    """h11 and httptools refuse a header value with a leading space (`b' csrftoken=…'`)."""
    start, body = await get("/accounts/login/")
    assert start["status"] == 200, body[:300]
    cookies = [value for name, value in start["headers"] if name.lower() == b"set-cookie"]
    assert cookies and all(value.startswith(b"csrftoken=") for value in cookies), cookies
    for name, value in start["headers"]:
        assert value == value.strip() and b"\n" not in value, (name, value)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/healthz", {"status": "ok"}),
        ("/readyz", {"database": "ok", "cache": "ok", "broker": "ok", "migrations": "ok"}),
    ],
)
async def test_the_probes_answer(path: str, body: dict[str, str]) -> None:
    start, answered = await get(path)
    assert start["status"] == 200, answered
    assert json.loads(answered) == body
    assert b"no-cache" in dict(start["headers"])[b"Cache-Control"]
