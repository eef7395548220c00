"""Throttles: DRF's scoped rate throttles on the shared cache (Redis in production), for REST
views and, through `hit`, for socket messages and the password-reset form. All of them are
off with RATE_LIMITS_ENABLED=false (load tests, benchmarks). A cache that cannot be reached
(Redis down or frozen; its calls are bounded in settings.CACHES) counts nothing and lets the
request through: the game goes on without its rate limits rather than not at all."""

from __future__ import annotations

import logging
import math
from typing import Any

from django.conf import settings
from redis.exceptions import RedisError
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from core.errors import RateLimited

log = logging.getLogger(__name__)


def enabled() -> bool:
    return bool(settings.RATE_LIMITS_ENABLED)


def _rate(scope: object) -> str | None:
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope) if isinstance(scope, str) else None
    return rate if isinstance(rate, str) else None


class ScopedThrottle(ScopedRateThrottle):
    """A view's `throttle_scope` (per user when signed in, else per address); off when rate
    limits are disabled. Rates: REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]."""

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def allow_request(self, request: Request, view: Any) -> bool:
        return not enabled() or _allowed(
            lambda: super(ScopedThrottle, self).allow_request(request, view)
        )


def _allowed(check: Any) -> bool:
    """The throttle's verdict; True when its cache cannot be reached."""
    try:
        return bool(check())
    except (RedisError, OSError) as error:
        log.warning("rate limit not counted, cache unavailable: %r", error)
        return True


class _Keyed(SimpleRateThrottle):
    def __init__(self, scope: str, ident: str) -> None:
        self.scope, self.ident = scope, ident
        super().__init__()

    def get_rate(self) -> str | None:
        return _rate(self.scope)

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.ident}


def hit(scope: str, ident: str) -> int | None:
    """Count one action of `ident` under `scope`: None if allowed, else the seconds to wait."""
    if not enabled():
        return None
    throttle = _Keyed(scope, ident)
    if _allowed(lambda: throttle.allow_request(None, None)):  # type: ignore[arg-type]  # keyed
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def ensure_allowed(scope: str, ident: str) -> None:
    """Count one action of `ident` under `scope` (as `hit`); past the rate, RateLimited (429
    with Retry-After). For a view that counts only once the request is known to be valid."""
    wait = hit(scope, ident)
    if wait is not None:
        raise RateLimited(
            f"Request was throttled. Expected available in {wait} seconds.", retry_after=wait
        )
