"""Tournaments on pages: the home page's featured ones (`{% featured_tournaments %}`), the
tournament a table belongs to (`{% tournament_of game as t %}`), and how a tournament's
status, format and times read."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.models import Game
from tournaments import selectors
from tournaments.models import TournamentTable

register = template.Library()

STATUS_NAMES = {
    "upcoming": pgettext_lazy("tournament", "Upcoming"),
    "running": pgettext_lazy("tournament", "Running"),
    "finished": pgettext_lazy("tournament", "Finished"),
    "cancelled": pgettext_lazy("tournament", "Cancelled"),
}
FORMAT_NAMES = {"swiss": _("Swiss"), "arena": _("Arena")}


@register.inclusion_tag("tournaments/_featured.html")
def featured_tournaments() -> dict[str, Any]:
    """The tournaments staff feature, upcoming or running, for the home page."""
    return {"featured": selectors.featured()}


@register.simple_tag
def tournament_of(game: Game) -> dict[str, str] | None:
    """The tournament a table was seated for (its name and page), or None."""
    seated = TournamentTable.objects.filter(game=game).select_related("tournament").first()
    if seated is None:
        return None
    tournament = seated.tournament
    url = reverse("tournament", kwargs={"tournament_id": tournament.pk})
    return {"name": tournament.name, "url": url}


@register.filter
def when(iso: str | None) -> datetime | None:
    """A view's ISO time as a datetime, for Django's `date` and `timeuntil` filters."""
    return parse_datetime(iso) if iso else None


@register.filter
def status_name(status: str) -> str:
    return str(STATUS_NAMES.get(status, status))


@register.filter
def format_name(format: str) -> str:
    return str(FORMAT_NAMES.get(format, format))
