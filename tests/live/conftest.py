"""Fixtures for the live-play tests: websockets in-process, the turn timer, Redis and Celery.

In-process tests get a fresh in-memory channel layer each. Tests marked `redis` need a Redis
server (REDIS_URL's host, else 127.0.0.1:6379; always database 5, kept apart from the app's):
they skip when it is unreachable, unless REQUIRE_SERVICES=1, which makes that a failure.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis

from tests.conftest import REQUIRE_SERVICES

REDIS_DB = 5


def redis_test_url() -> str:
    """Database 5 of the Redis that REDIS_URL names, else of 127.0.0.1:6379."""
    parts = urlsplit(os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379")
    return f"{parts.scheme}://{parts.netloc}/{REDIS_DB}"


@cache
def _redis_problem() -> str | None:
    """Why Redis cannot be used, or None when it answers a PING."""
    try:
        redis.Redis.from_url(redis_test_url(), socket_connect_timeout=1, socket_timeout=2).ping()
    except (redis.RedisError, OSError) as error:
        return f"needs Redis at {redis_test_url()}: {error}"
    return None


@pytest.fixture(autouse=True)
def _redis_or_skip(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("redis") is None:
        return
    problem = _redis_problem()
    if problem is None:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but Redis is unreachable: {problem}")
    pytest.skip(problem)


@pytest.fixture
def redis_url() -> str:
    return redis_test_url()


@pytest.fixture(autouse=True)
def _in_process(request: pytest.FixtureRequest, settings: Any) -> None:
    if request.node.get_closest_marker("redis") is None:
        # A fresh layer per test (changing the setting drops the cached one): pushes stay in
        # this process and nothing is left over from another test's event loop.
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
