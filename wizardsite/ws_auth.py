"""Websocket authentication: `?token=<key>` for mobile clients, else the session cookie."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from rest_framework.authtoken.models import Token

from core.text import has_refused_characters


class TokenAuthMiddleware:
    """Sets scope["user"] from a `token` query parameter; without one the session decides. A
    token that opens no account sets scope["token_refused"]: such a socket is refused, never
    let in as a signed-out visitor."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode("latin1"))
        keys = query.get("token")
        if keys:
            user = await database_sync_to_async(_user_for_token)(keys[0])
            scope = {**scope, "user": user, "token_refused": not user.is_authenticated}
        return await self.app(scope, receive, send)


def _user_for_token(key: str) -> User | AnonymousUser:
    if has_refused_characters(key):  # PostgreSQL refuses NUL in a query
        return AnonymousUser()
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    user: User = token.user
    return user


DEFAULT_PORTS = {"http": 80, "https": 443}
CLOSE_FOREIGN_ORIGIN = 4403  # not allowed, as API.md's close codes say


class SameOriginOnly:
    """A browser's socket must come from this site's own origin: the scheme, host and port
    of the request itself (as Django's CSRF check compares them) or one of
    CSRF_TRUSTED_ORIGINS, so no other page, not even one on another port of this host, can
    ride on the session cookie: it is closed with 4403 before the application sees it.
    Clients that send no Origin (apps) authenticate by token."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin")
        if origin is not None and not _same_origin(scope, origin, headers.get(b"host")):
            return await _refuse(receive, send, CLOSE_FOREIGN_ORIGIN)
        return await self.app(scope, receive, send)


async def _refuse(receive: Any, send: Any, code: int) -> None:
    """Accept the handshake, then close with `code` before reading anything: a refused
    handshake is an HTTP 403 to the client, which then cannot tell why it may not connect."""
    if (await receive())["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": code})


def _same_origin(scope: dict[str, Any], origin: bytes, host: bytes | None) -> bool:
    claimed = origin.decode("latin1").strip().lower()
    if claimed in {trusted.lower() for trusted in settings.CSRF_TRUSTED_ORIGINS}:
        return True
    if host is None:
        return False
    scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
    return _normal(claimed) == _normal(f"{scheme}://{host.decode('latin1').strip().lower()}")


def _normal(origin: str) -> tuple[str, str, int | None] | None:
    """(scheme, host, port) with the scheme's default port made explicit."""
    try:
        parts = urlsplit(origin)
        port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return None
    if not parts.scheme or not parts.hostname or parts.path not in ("", "/"):
        return None
    return parts.scheme, parts.hostname, port
