"""/metrics for Prometheus: requests by route, the game's and Celery's figures, and counts
read at scrape time (games by status, tasks waiting in each queue).

With PROMETHEUS_MULTIPROC_DIR set (`make serve`: several web processes and the workers), every
process writes its figures there and a scrape sums them; without it, this process's own."""

from __future__ import annotations

import hmac
import logging
import os
import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import redis
from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

from games.models import Game, GameStatus

log = logging.getLogger(__name__)

LOOPBACK = {"127.0.0.1", "::1"}
UNRESOLVED = "unresolved"  # a path no route matched (404s, redirects before routing)

requests_total = Counter(
    "wizard_http_requests", "HTTP requests answered, by route.", ["route", "method", "status"]
)
request_seconds = Histogram(
    "wizard_http_request_duration_seconds",
    "Time to answer an HTTP request, by route.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)


class RequestMetricsMiddleware:
    """Counts and times each request under its route's name, never its raw path (a path holds
    ids: one series per game would grow without end)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        route = (match.view_name or match.route) if match is not None else UNRESOLVED
        method = request.method if request.method in KNOWN_METHODS else "other"
        request_seconds.labels(route=route, method=method).observe(time.perf_counter() - started)
        requests_total.labels(route=route, method=method, status=str(response.status_code)).inc()
        return response


KNOWN_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


class GamesByStatus(Collector):
    """Games in each status, counted in the database at scrape time."""

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily("wizard_games", "Games by status.", labels=["status"])
        try:
            rows = Game.objects.order_by().values_list("status").annotate(count=Count("pk"))
            counts = dict(rows)
        except DatabaseError as error:  # the scrape still shows everything else
            log.warning("games by status not counted: %r", error)
            return
        for status in GameStatus.values:
            family.add_metric([status], counts.get(status, 0))
        yield family


class QueueLengths(Collector):
    """Tasks waiting in each Celery queue (LLEN of its Redis list) at scrape time."""

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily(
            "wizard_celery_queue_length", "Tasks waiting in each Celery queue.", labels=["queue"]
        )
        if settings.REDIS_URL:
            queues = celery_queues()
            pipe = _broker(settings.REDIS_URL).pipeline(transaction=False)
            for queue in queues:
                pipe.llen(queue)
            try:
                lengths = pipe.execute()
            except redis.RedisError as error:
                log.warning("queue lengths not read: %r", error)
            else:
                for queue, length in zip(queues, lengths, strict=True):
                    family.add_metric([queue], length)
        yield family


@cache
def _broker(url: str) -> redis.Redis:
    """One client a process for the scrapes (its pool reconnects after an outage)."""
    return redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)


def celery_queues() -> list[str]:
    """The default queue and every queue a route names (settings.CELERY_TASK_ROUTES)."""
    routes: dict[str, dict[str, str]] = getattr(settings, "CELERY_TASK_ROUTES", {})
    named = {route["queue"] for route in routes.values() if "queue" in route}
    return ["celery", *sorted(named - {"celery"})]


def scrape_registry() -> CollectorRegistry:
    """Every process's figures (multiprocess mode) or this one's, and the scrape-time counts."""
    registry = CollectorRegistry()
    directory = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if directory:
        _forget_dead(Path(directory))
        MultiProcessCollector(registry)
    else:
        registry.register(REGISTRY)
    registry.register(GamesByStatus())
    registry.register(QueueLengths())
    return registry


def _forget_dead(directory: Path) -> None:
    """A web worker that died (uvicorn starts another) leaves its live gauges' file: its open
    sockets would be summed for ever. Its counters and histograms stay counted."""
    for path in directory.glob("gauge_live*_*.db"):
        pid = path.stem.rpartition("_")[2]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            mark_process_dead(int(pid), str(directory))
        except PermissionError:  # alive, another user's
            pass


def allowed(request: HttpRequest) -> bool:
    """From this machine (loopback), or with METRICS_TOKEN as a bearer token. A request that
    carries X-Forwarded-For came through a proxy, from elsewhere, even from loopback."""
    local = request.META.get("REMOTE_ADDR") in LOOPBACK
    if local and "HTTP_X_FORWARDED_FOR" not in request.META:
        return True
    token: str = settings.METRICS_TOKEN
    scheme, _, given = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if not token or scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """The figures in Prometheus's text format; 403 to anyone else."""
    if not allowed(request):
        return HttpResponse("Forbidden\n", status=403, content_type="text/plain")
    return HttpResponse(generate_latest(scrape_registry()), content_type=CONTENT_TYPE_LATEST)
