"""A table's shuffle seed, fixed by a test: with TEST_SHUFFLE_SEEDS on, a request carrying
`X-Test-Shuffle-Seed` creates its tables with that seed, so a browser scenario deals known
hands (and the bots, seeded from it, answer the same way each run). The production settings
refuse the setting; without it the header means nothing and every seed is fresh and secret."""

from __future__ import annotations

import contextvars
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from games import engine

HEADER = "X-Test-Shuffle-Seed"
_LONGEST = 64  # Game.seed's length

_fixed: contextvars.ContextVar[str | None] = contextvars.ContextVar("fixed_seed", default=None)


def table_seed() -> str:
    """The seed of a table being created: the request's fixed one, else a fresh secret one."""
    return _fixed.get() or engine.new_seed()


def from_header(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Installed only under TEST_SHUFFLE_SEEDS: the request's header, while it is answered."""

    def middleware(request: HttpRequest) -> HttpResponse:
        seed = request.headers.get(HEADER, "")
        if not (0 < len(seed) <= _LONGEST and seed.isprintable()):
            return get_response(request)
        token = _fixed.set(seed)
        try:
            return get_response(request)
        finally:
            _fixed.reset(token)

    return middleware
