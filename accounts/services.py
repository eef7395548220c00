"""Writes for accounts: sign-up and API tokens."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from rest_framework.authtoken.models import Token

from wizardsite.api import Invalid, NotAuthenticated


def user_register(*, username: str, password: str, email: str) -> User:
    """A new player account; the password must pass the configured validators."""
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


def token_for_credentials(*, username: str, password: str) -> Token:
    """The API token of the user with these credentials (created on first use)."""
    user = authenticate(username=username, password=password)
    if user is None:
        raise NotAuthenticated("Wrong username or password.")
    token, _ = Token.objects.get_or_create(user=user)
    return token
