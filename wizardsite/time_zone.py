"""Times in the reader's own time zone: the browser says which (static/js/timezone.js keeps it in
the `tz` cookie), and each request activates it, as Django's time zone docs describe; without
the cookie, or with a name that is no time zone, UTC."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

COOKIE = "tz"


def zone_named(name: str) -> zoneinfo.ZoneInfo | None:
    """The IANA time zone of this name ("Europe/Madrid"); None for anything else."""
    if not name or len(name) > 64:
        return None
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return None


def reader_time_zone(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    def middleware(request: HttpRequest) -> HttpResponse:
        zone = zone_named(request.COOKIES.get(COOKIE, ""))
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        return get_response(request)

    return middleware
