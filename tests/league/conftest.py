"""Fixtures for the league tests: fast sign-ups, plain users, and a clock for finishing times."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User

from league import services as league_services
from tests.games.helpers import Player, register_player
from tests.league.helpers import Clock


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    # Sign-ups go through the API; the default hasher would make each one take ~0.3 s.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The time league.services stamps on a finishing league game (game_finished re-stamps
    finished_at with timezone.now()); only that module sees it."""
    fake = Clock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    monkeypatch.setattr(league_services, "timezone", fake)
    return fake


@pytest.fixture
def make_users(db: None) -> Callable[..., list[User]]:
    """A factory of plain users (no password hashing): make_users(3) → [User, User, User]."""
    numbers = itertools.count(1)

    def make(count: int, prefix: str = "user") -> list[User]:
        return [User.objects.create_user(f"{prefix}{next(numbers)}") for _ in range(count)]

    return make


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    """A factory: a user signed up through the API, with a token-authenticated client."""
    numbers = itertools.count(1)

    def make(username: str | None = None) -> Player:
        return register_player(username or f"player{next(numbers)}")

    return make
