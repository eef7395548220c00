"""Fixtures for the league tests: fast sign-ups, plain users, and a clock for finishing times."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User

from tests.league import helpers as league_helpers
from tests.league.helpers import Clock


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The time at which the helpers' games end (record_end); only that module sees it."""
    fake = Clock(datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    monkeypatch.setattr(league_helpers, "timezone", fake)
    return fake


@pytest.fixture
def make_users(db: None) -> Callable[..., list[User]]:
    """A factory of plain users (no password hashing): make_users(3) → [User, User, User]."""
    numbers = itertools.count(1)

    def make(count: int, prefix: str = "user") -> list[User]:
        return [User.objects.create_user(f"{prefix}{next(numbers)}") for _ in range(count)]

    return make
