"""Writes for accounts: sign-up, API tokens, and whether a user may play (suspensions)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import Suspension
from accounts.usernames import username_validator
from core import limits
from core.errors import Invalid, NotAuthenticated


def user_register(*, username: str, password: str, email: str) -> User:
    """A new player account: an ASCII name no other user has in any case; the password must
    pass the configured validators."""
    try:
        username_validator(username)
    except ValidationError as error:
        raise Invalid("Choose another username.", fields={"username": error.messages}) from error
    if not limits.USERNAME_MIN_LENGTH <= len(username) <= limits.USERNAME_MAX_LENGTH:
        length = f"{limits.USERNAME_MIN_LENGTH} to {limits.USERNAME_MAX_LENGTH} characters"
        raise Invalid("Choose another username.", fields={"username": [length]})
    if User.objects.filter(username__iexact=username).exists():
        raise Invalid("That username is taken.", fields={"username": ["already taken"]})
    candidate = User(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except ValidationError as error:
        raise Invalid("Choose a stronger password.", fields={"password": error.messages}) from error
    try:
        with transaction.atomic():
            return User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as error:  # a concurrent sign-up took the name first
        raise Invalid("That username is taken.", fields={"username": ["already taken"]}) from error


def token_for_credentials(*, request: HttpRequest, username: str, password: str) -> Token:
    """The API token of the user with these credentials (created on first use). Wrong
    passwords count towards the log-in lockout like the form's (django-axes)."""
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise NotAuthenticated("Wrong username or password.")
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User, key: str | None) -> None:
    """The token `key` of this user stops working (nothing happens for another's key)."""
    if key is not None:
        Token.objects.filter(user=user, key=key).delete()


def tokens_revoke_all(*, user: User) -> None:
    """Every API token of the user stops working (after a password change or reset)."""
    Token.objects.filter(user=user).delete()


def suspension_set(
    *, user: User, reason: str, until: datetime | None, banned: bool, by: User | None
) -> Suspension:
    """Bar `user` from playing until a moment, or for good; a lighter sanction never
    shortens one already in force."""
    if not banned and (until is None or until <= timezone.now()):
        raise Invalid("A suspension needs an end in the future, or choose a ban.")
    with transaction.atomic():
        current = Suspension.objects.select_for_update().filter(user=user).first()
        if current is not None and current.in_force:
            banned = banned or current.banned
            if until is not None and current.until is not None:
                until = max(until, current.until)
        suspension, _ = Suspension.objects.update_or_create(
            user=user,
            defaults={"until": until, "banned": banned, "reason": reason, "created_by": by},
        )
    return suspension


def suspension_lift(*, user: User) -> None:
    """The player may log in and play again."""
    Suspension.objects.filter(user=user).delete()
