"""The client's address is decided once, at the site's ASGI door (wizardsite.client_address):
the peer the server sees, or behind TRUSTED_PROXIES proxies the hop the outermost of them
recorded in X-Forwarded-For; DRF's throttles and django-axes count that address, and no
server the project runs rewrites it first."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth.models import User

from bench.live_stack import web_command
from tests.games.helpers import API, PASSWORD, set_rate
from tests.wizardsite.test_asgi import answer, scope
from wizardsite import client_address
from wizardsite.asgi import application

ROOT = Path(__file__).resolve().parents[2]
TOKEN = f"{API}/accounts/token/"
PROXY = "10.0.0.2"  # the trusted proxy's own address, the peer the server sees


@pytest.fixture
def token_twice_a_minute(settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = True
    set_rate(settings, "token", "2/min")


def token_call(password: str, *, peer: str, forwarded_for: str) -> int:
    """POST /accounts/token/ through the site's ASGI app, as `peer` sends it: the status."""
    headers = [
        (b"host", b"testserver"),
        (b"content-type", b"application/json"),
        (b"x-forwarded-for", forwarded_for.encode()),
    ]
    body = json.dumps({"username": "owner", "password": password}).encode()

    async def call() -> int:
        request = scope(TOKEN, method="POST", headers=headers, client=(peer, 40123))
        communicator = ApplicationCommunicator(application, request)
        await communicator.send_input({"type": "http.request", "body": body})
        start, _ = await answer(communicator)
        return int(start["status"])

    return async_to_sync(call)()


@pytest.mark.django_db(transaction=True)
def test_without_a_trusted_proxy_the_peer_is_counted_whatever_it_forwards(
    token_twice_a_minute: None,
) -> None:
    User.objects.create_user("owner", password=PASSWORD)
    statuses = [
        token_call("a-guess", peer="203.0.113.5", forwarded_for=f"198.51.100.{n}") for n in range(3)
    ]
    assert statuses == [401, 401, 429]


@pytest.mark.django_db(transaction=True)
def test_behind_one_trusted_proxy_its_last_hop_is_the_client(
    token_twice_a_minute: None, settings: Any
) -> None:
    settings.TRUSTED_PROXIES = 1
    User.objects.create_user("owner", password=PASSWORD)
    # What the client wrote comes first; the proxy appends the address it was sent from.
    statuses = [
        token_call("a-guess", peer=PROXY, forwarded_for=f"192.0.2.{n}, 198.51.100.7")
        for n in range(3)
    ]
    assert statuses == [401, 401, 429]
    assert token_call("a-guess", peer=PROXY, forwarded_for="198.51.100.8") == 401  # another


@pytest.mark.django_db(transaction=True)
def test_behind_one_trusted_proxy_a_lockout_is_the_clients_own(settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = settings.AXES_ENABLED = True
    settings.TRUSTED_PROXIES = 1
    User.objects.create_user("owner", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        token_call("a-guess", peer=PROXY, forwarded_for="198.51.100.7")
    assert token_call(PASSWORD, peer=PROXY, forwarded_for="198.51.100.7") == 429
    assert token_call(PASSWORD, peer=PROXY, forwarded_for="198.51.100.8") == 200


@pytest.mark.parametrize(
    ("forwarded_for", "proxies", "client"),
    [
        ([], 1, "203.0.113.5"),  # sent straight, not through the proxy
        (["192.0.2.1, 198.51.100.7"], 0, "203.0.113.5"),  # no proxy is trusted
        (["192.0.2.1, 198.51.100.7"], 1, "198.51.100.7"),
        (["192.0.2.1", "198.51.100.7"], 1, "198.51.100.7"),  # one header line a proxy
        (["192.0.2.1, 198.51.100.7, 10.0.0.9"], 2, "198.51.100.7"),
        (["198.51.100.7"], 2, "198.51.100.7"),  # fewer hops: each was written by a proxy
        (["2001:db8::7"], 1, "2001:db8::7"),
        (["192.0.2.1, unknown"], 1, "203.0.113.5"),  # not an address: the peer counts
        (["192.0.2.1, 198.51.100.7:5100"], 1, "203.0.113.5"),
    ],
)
def test_the_client_is_the_hop_the_outermost_trusted_proxy_recorded(
    forwarded_for: list[str], proxies: int, client: str
) -> None:
    assert client_address.client_host("203.0.113.5", forwarded_for, proxies) == client


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_http_and_websockets_alike_carry_the_clients_address(kind: str, settings: Any) -> None:
    settings.TRUSTED_PROXIES = 1
    seen: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope)

    request = {
        "type": kind,
        "client": (PROXY, 40123),
        "headers": [(b"x-forwarded-for", b"192.0.2.1, 198.51.100.7")],
    }
    async_to_sync(client_address.ClientAddress(app))(request, None, None)
    assert seen[0]["client"] == ("198.51.100.7", 0)
    assert request["client"] == (PROXY, 40123)  # the server's scope is left as it was


def uvicorn_commands() -> list[list[str]]:
    """Every way the project starts uvicorn: both Procfiles and the benchmark's stack."""
    commands = [web_command(2, 8000)]
    for name in ("Procfile", "Procfile.production"):
        for line in (ROOT / name).read_text().splitlines():
            if line.startswith("web:"):
                commands.append(shlex.split(line.removeprefix("web:")))
    return commands


def test_no_uvicorn_the_project_runs_rewrites_the_address() -> None:
    """uvicorn believes X-Forwarded-For from 127.0.0.1 unless told not to: any local client
    could then pass for anyone (the site decides with TRUSTED_PROXIES instead)."""
    commands = uvicorn_commands()
    assert len(commands) == 3
    for argv in commands:
        assert "uvicorn" in argv, argv
        assert "--no-proxy-headers" in argv and "--proxy-headers" not in argv, argv
