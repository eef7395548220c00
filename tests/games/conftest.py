"""Fixtures for the games API tests: players signed up through the API, tables, full games."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.games.helpers import Player, register_player


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # Sign-ups go through the API; the default hasher would make each one take ~0.3 s.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    """A factory: registers a user through POST /api/v1/accounts/register/ and returns a
    Player holding an APIClient authenticated with the returned token."""
    numbers = itertools.count(1)

    def make(username: str | None = None) -> Player:
        return register_player(username or f"player{next(numbers)}")

    return make


@pytest.fixture
def stranger(make_player: Callable[..., Player]) -> Player:
    """An authenticated user who sits at no table."""
    return make_player("stranger")


@pytest.fixture
def superuser(db: None) -> Any:
    return get_user_model().objects.create_superuser("admin", "admin@example.com", "x")
