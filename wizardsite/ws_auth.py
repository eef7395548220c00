"""Websocket authentication: `?token=<key>` for mobile clients, else the session cookie."""

from __future__ import annotations

from typing import Any
from urllib.parse import ParseResult, parse_qs

from channels.db import database_sync_to_async
from channels.security.websocket import OriginValidator
from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from rest_framework.authtoken.models import Token

from core.text import has_refused_characters


class TokenAuthMiddleware:
    """Sets scope["user"] from a `token` query parameter; without one the session decides."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        query = parse_qs(scope.get("query_string", b"").decode("latin1"))
        keys = query.get("token")
        if keys:
            scope = {**scope, "user": await database_sync_to_async(_user_for_token)(keys[0])}
        return await self.app(scope, receive, send)


def _user_for_token(key: str) -> User | AnonymousUser:
    if has_refused_characters(key):  # PostgreSQL refuses NUL in a query
        return AnonymousUser()
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return AnonymousUser()
    user: User = token.user
    return user


class _AllowedOriginOrNone(OriginValidator):  # type: ignore[misc]
    def valid_origin(self, parsed_origin: ParseResult | None) -> bool:
        return parsed_origin is None or bool(self.validate_origin(parsed_origin))


def origin_validator(app: Any) -> Any:
    """Browsers must come from an allowed host, so no other site can ride on the session
    cookie; clients that send no Origin (mobile apps) must authenticate by token anyway."""
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:
        hosts = ["localhost", "127.0.0.1", "[::1]"]
    return _AllowedOriginOrNone(app, hosts)
