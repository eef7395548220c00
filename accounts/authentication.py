"""Authentication that refuses suspended users everywhere: log-in, sessions and API tokens."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import logout
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from accounts.standing import ensure_can_play, is_suspended


class PlayerBackend(ModelBackend):
    """Django's user/password log-in, refused while a suspension or ban is in force."""

    def user_can_authenticate(self, user: Any) -> bool:
        allowed: bool = super().user_can_authenticate(user)
        return allowed and not (isinstance(user, User) and is_suspended(user))


class PlayerTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`; a suspended user's token answers 403 `suspended`."""

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        user, token = super().authenticate_credentials(key)
        ensure_can_play(user)
        return user, token


class SuspendedLogoutMiddleware:
    """Ends the session of a user who was suspended while logged in: at once, not at expiry."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and is_suspended(user):
            logout(request)
        response: HttpResponse = self.get_response(request)
        return response
