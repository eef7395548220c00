"""Shared test set-up: which tests need which real service.

`postgres` tests run only when the database is PostgreSQL (`make test` with DATABASE_URL
naming one, as `.ci/run` does); on SQLite they skip, unless REQUIRE_SERVICES=1 (CI), which
refuses to run the suite there. Tests that need Redis or
Chromium skip where those are missing, except under REQUIRE_SERVICES=1 (CI), where they fail.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Callable
from typing import Any

import fakeredis
import pytest
import pytest_asyncio
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection

from games import engine, presence
from tests.games.helpers import (
    SPECIAL_CARDS,
    SPECIAL_SEED,
    Player,
    play_auto,
    register_player,
    seat_players,
)
from tests.live.helpers import Sockets

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The slow browser tests run last, so the quick ones report first.
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
    if connection.vendor == "postgresql":
        return
    needs_postgres = [item for item in items if item.get_closest_marker("postgres") is not None]
    if REQUIRE_SERVICES and needs_postgres:
        raise pytest.UsageError(
            f"REQUIRE_SERVICES=1 but the database is {connection.vendor}: {len(needs_postgres)}"
            " tests need PostgreSQL (DATABASE_URL=postgres://...)"
        )
    skip = pytest.mark.skip(reason="needs PostgreSQL: runs in the DATABASE_URL=postgres:// pass")
    for item in items:
        if item.get_closest_marker("postgres") is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty in-process cache and socket registry: counts another test
    left (presence, rates), whose user ids may come again, count for nobody."""
    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()
    if isinstance(sockets := presence.store().reader, fakeredis.FakeRedis):
        sockets.flushall()  # the socket registry's fakeredis server, likewise


@pytest.fixture
def make_player(db: None) -> Callable[..., Player]:
    """A factory: registers a user through POST /api/v1/accounts/register/ and returns a
    Player holding an APIClient authenticated with the returned token."""
    numbers = itertools.count(1)

    def make(username: str | None = None) -> Player:
        return register_player(username or f"player{next(numbers)}")

    return make


@pytest.fixture
def special_game(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list[Player]]:
    """A finished game of three people with every special card, dealt from SPECIAL_SEED (it
    shows every effect), each decision R16's and R26's, made by the player through REST."""
    monkeypatch.setattr(engine, "new_seed", lambda: SPECIAL_SEED)
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, special_cards=SPECIAL_CARDS, rounds=5, blind_first_round=False)
    play_auto(game_id, people)
    return game_id, people


@pytest.fixture
def superuser(db: None) -> User:
    return User.objects.create_superuser("admin", "admin@example.com", "x")


@pytest.fixture
def in_memory_layer(settings: Any) -> None:
    """A fresh in-process channel layer (changing the setting drops the cached one): pushes
    stay in this process and nothing is left over from another test's event loop."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest_asyncio.fixture
async def sockets() -> AsyncIterator[Sockets]:
    """Opens sockets against wizardsite.asgi.application; closes them all afterwards."""
    opened = Sockets()
    try:
        yield opened
    finally:
        await opened.close_all()
