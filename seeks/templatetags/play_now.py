"""The "Play now" panel (R28) on the home page and the lobby: `{% play_now %}`."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _

from seeks import selectors
from seeks.models import SIZES

register = template.Library()

SPEEDS = [
    (30, _("Fast · 30 s")),
    (60, _("Normal · 60 s")),
    (300, _("Relaxed · 5 min")),
    (86400, _("Daily · 24 h")),
]
BOT_WAITS = [
    (10, _("after 10 seconds")),
    (30, _("after 30 seconds")),
    (60, _("after 1 minute")),
    (120, _("after 2 minutes")),
    (300, _("after 5 minutes")),
    (600, _("after 10 minutes")),
]


@register.inclusion_tag("seeks/_play_now.html", takes_context=True)
def play_now(context: dict[str, Any]) -> dict[str, Any]:
    """The panel, with the player's seek as the page starts (null when none)."""
    user = context["user"]
    seek = selectors.seek_of(user.pk) if user.is_authenticated else None
    return {
        "user": user,
        "seek": selectors.seek_view(seek) if seek is not None else None,
        "request": context.get("request"),
        "speeds": SPEEDS,
        "sizes": SIZES,
        "bot_waits": BOT_WAITS,
    }
