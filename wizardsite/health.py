"""Probes for a load balancer: /healthz (the process serves) and /readyz (its services answer).

The checks are django-health-check's (database, cache, Redis) and two of ours on its base
class (the Celery broker, unapplied migrations); the answer is the contract's JSON shape."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any, ClassVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET
from health_check.base import HealthCheck
from health_check.checks import Cache, Database
from health_check.contrib.redis import Redis
from health_check.exceptions import ServiceUnavailable
from kombu.connection import Connection
from redis.asyncio import Redis as RedisClient

PROBE_SECONDS = 2  # each service's connection and answer; a load balancer waits a few seconds


@dataclasses.dataclass
class Broker(HealthCheck):  # type: ignore[misc]
    """The Celery broker accepts a connection."""

    def run(self) -> None:
        options = getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {})
        broker_url = settings.CELERY_BROKER_URL
        with Connection(broker_url, transport_options=options) as broker:
            try:
                broker.ensure_connection(max_retries=0, timeout=PROBE_SECONDS)
            except Exception as error:  # kombu raises the transport's own errors
                message = f"Unable to connect to the broker: {type(error).__name__}"
                raise ServiceUnavailable(message) from error


@dataclasses.dataclass
class Migrations(HealthCheck):  # type: ignore[misc]
    """Every migration this code has is applied: a new release waits for `migrate`. Once they
    are, the process's code has nothing left to apply: later probes read no migration files."""

    all_applied: ClassVar[bool] = False

    def run(self) -> None:
        if Migrations.all_applied:
            return
        connection = connections[DEFAULT_DB_ALIAS]
        try:
            executor = MigrationExecutor(connection)
            plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        except DatabaseError as error:
            raise ServiceUnavailable("Unable to read the applied migrations") from error
        finally:
            connection.close()  # this thread's own, opened for the check
        if plan:
            raise ServiceUnavailable(f"{len(plan)} migrations not applied")
        Migrations.all_applied = True


def _redis_client() -> RedisClient:
    return RedisClient.from_url(
        settings.REDIS_URL,
        socket_timeout=PROBE_SECONDS,
        socket_connect_timeout=PROBE_SECONDS,
    )


def readiness_checks() -> dict[str, HealthCheck]:
    """The parts /readyz names; Redis only where the site uses one (REDIS_URL)."""
    checks: dict[str, HealthCheck] = {"database": Database()}
    if settings.REDIS_URL:
        checks["redis"] = Redis(client_factory=_redis_client)
    checks["cache"] = Cache()
    checks["broker"] = Broker()
    checks["migrations"] = Migrations()
    return checks


async def readiness() -> dict[str, str]:
    """Each part's "ok", or the library's short error text (never a traceback)."""
    checks = readiness_checks()
    results = await asyncio.gather(*(check.get_result() for check in checks.values()))
    return {
        name: "ok" if result.error is None else str(result.error)
        for name, result in zip(checks, results, strict=True)
    }


def _alive() -> HttpResponse:
    response = JsonResponse({"status": "ok"})
    add_never_cache_headers(response)
    return response


async def _ready() -> HttpResponse:
    parts: dict[str, Any] = await readiness()
    ready = all(value == "ok" for value in parts.values())
    response = JsonResponse(parts, status=200 if ready else 503)
    add_never_cache_headers(response)
    return response


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """200 while the process serves; nothing else is checked."""
    return _alive()


@require_GET
async def readyz(request: HttpRequest) -> HttpResponse:
    """200 when every part answers, else 503 naming the failing ones."""
    return await _ready()


class ProbesOnTheLoop:
    """ASGI: answers GET /healthz and /readyz on the event loop, before the HTTP door's pool
    of threads, so a load balancer sees the process serve however busy the pool is (the same
    answers as the views above; readyz's checks run on the loop's own executor). Everything
    else goes on to `app`."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        response = await _probe(scope) if scope["type"] == "http" else None
        if response is None:
            await self.app(scope, receive, send)
            return
        headers = [
            (name.encode("latin-1"), value.encode("latin-1")) for name, value in response.items()
        ]
        start = {"type": "http.response.start", "status": response.status_code, "headers": headers}
        await send(start)
        await send({"type": "http.response.body", "body": response.content})


async def _probe(scope: dict[str, Any]) -> HttpResponse | None:
    if scope["method"] != "GET":
        return None  # the view answers 405, as before
    if scope["path"] == "/healthz":
        return _alive()
    if scope["path"] == "/readyz":
        return await _ready()
    return None
