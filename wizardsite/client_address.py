"""The client's address, decided once at the ASGI door for HTTP and websockets alike, so that
every per-address limit counts the same client: DRF's throttles (NUM_PROXIES 0: they read
REMOTE_ADDR), django-axes's lockout, the sign-up and password-reset forms, signed-out sockets.

It is the peer the server sees, unless TRUSTED_PROXIES proxies stand in front: each of those
appends to X-Forwarded-For the address it was sent from, so the client is the hop that many
places from the end (what a client wrote there itself comes before it and is never believed).
The ASGI server must not rewrite the address first: uvicorn runs with --no-proxy-headers, as
its default believes X-Forwarded-For from 127.0.0.1, where any local client could pass for
anyone."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings

FORWARDED_FOR = b"x-forwarded-for"


def client_host(peer: str | None, forwarded_for: list[str], proxies: int) -> str | None:
    """The client's address behind `proxies` trusted proxies, from the peer's address and the
    X-Forwarded-For header lines; the peer when the hop is no address."""
    hops = [hop.strip() for line in forwarded_for for hop in line.split(",")]
    if proxies <= 0 or not hops:
        return peer
    # A shorter list came through fewer proxies: every hop in it was written by a trusted one.
    hop = hops[-min(proxies, len(hops))]
    try:
        return str(ipaddress.ip_address(hop))
    except ValueError:
        return peer


class ClientAddress:
    """ASGI: the scope's `client` becomes the client's address behind TRUSTED_PROXIES."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        proxies: int = settings.TRUSTED_PROXIES
        if proxies and scope["type"] in ("http", "websocket"):
            peer = scope.get("client") or (None, 0)
            lines = [
                value.decode("latin-1")
                for name, value in scope.get("headers", [])
                if name == FORWARDED_FOR
            ]
            host = client_host(peer[0], lines, proxies)
            if host != peer[0]:
                scope = {**scope, "client": (host, 0)}  # the client's own port is not known
        await self.app(scope, receive, send)
