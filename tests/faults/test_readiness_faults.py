"""/readyz against real servers of its own (never the machine's shared ones): all five parts
ok with a private Redis, then 503 naming Redis once it is killed; and 503 naming the database
while a private PostgreSQL is stopped under a running web server."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.faults.conftest import PrivateRedis
from tests.faults.postgres import PrivatePostgres
from tests.faults.stack import call, stack

PARTS = {"database", "redis", "cache", "broker", "migrations"}


def use_redis(settings: Any, url: str) -> None:
    """The site's Redis-backed parts (settings/base.py) pointed at `url`."""
    settings.REDIS_URL = url
    settings.CELERY_BROKER_URL = url
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"SOCKET_TIMEOUT": 0.5, "SOCKET_CONNECT_TIMEOUT": 0.5},
        }
    }


@pytest.mark.django_db
def test_readyz_is_ready_with_redis_and_names_redis_once_it_is_gone(
    private_redis: PrivateRedis, settings: Any, client: Client
) -> None:
    use_redis(settings, private_redis.url)
    ready = client.get("/readyz")
    assert ready.status_code == 200, ready.content
    assert ready.json() == dict.fromkeys(PARTS, "ok")

    private_redis.process.send_signal(signal.SIGKILL)
    private_redis.process.wait(timeout=10)
    down = client.get("/readyz")
    assert down.status_code == 503
    body = down.json()
    assert set(body) == PARTS
    assert body["redis"].startswith("Unavailable: Unable to connect to Redis")
    assert body["broker"] != "ok" and body["cache"] != "ok"
    assert body["database"] == "ok" and body["migrations"] == "ok"
    assert "Traceback" not in down.content.decode()


@pytest.mark.postgres
def test_readyz_names_the_database_while_postgres_is_stopped(
    private_pg: PrivatePostgres, tmp_path: Path
) -> None:
    with stack(private_pg.url, "", tmp_path) as site:
        site.start("web")
        ready = call(site.base + "/readyz")
        assert ready.status == 200, ready.body
        assert ready.body == {"database": "ok", "cache": "ok", "broker": "ok", "migrations": "ok"}

        private_pg.stop()
        try:
            down = call(site.base + "/readyz")
            assert down.status == 503, down.body
            assert down.body["database"] != "ok"
            assert down.body["cache"] == "ok" and down.body["broker"] == "ok"
            assert "postgres@" not in str(down.body) and "Traceback" not in str(down.body)
            assert call(site.base + "/healthz").status == 200  # the process still serves
        finally:
            private_pg.start()
        assert call(site.base + "/readyz").status == 200
