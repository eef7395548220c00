"""Authentication that refuses suspended users everywhere: log-in, sessions and API tokens."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import SESSION_KEY, logout
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token

from accounts.standing import ensure_can_play, is_suspended, suspension_of_id, suspension_text


class PlayerBackend(ModelBackend):
    """Django's user/password log-in, refused while a suspension or ban is in force."""

    def user_can_authenticate(self, user: Any) -> bool:
        allowed: bool = super().user_can_authenticate(user)
        return allowed and not (isinstance(user, User) and is_suspended(user))


class PlayerTokenAuthentication(TokenAuthentication):
    """`Authorization: Token <key>`; a suspended user's token answers 403 `suspended`."""

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        user, token = super().authenticate_credentials(key)
        ensure_can_play(user)  # says until when
        return user, token


def session_user_id(session: Any) -> int | None:
    """The user id a session was logged in as, whatever the backend now thinks of them."""
    raw = session.get(SESSION_KEY) if session is not None else None
    try:
        return int(raw) if raw is not None else None
    except (TypeError, ValueError):
        return None


class SuspendedLogoutMiddleware:
    """Ends the session of a user who was suspended while logged in: at once, not at expiry;
    the page they opened says why and until when."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # The backend already treats a suspended user as anonymous; end the session itself,
        # so it does not come back to life when the suspension ends.
        user_id = session_user_id(getattr(request, "session", None))
        suspension = suspension_of_id(user_id) if user_id is not None else None
        if suspension is not None:
            logout(request)
            messages.error(request, suspension_text(suspension))
        response: HttpResponse = self.get_response(request)
        return response
