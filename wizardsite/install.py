"""What makes the site an installable app: its web app manifest and the page the service worker
(/sw.js) shows when a page cannot be reached."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

# The table's green felt (--felt in static/css/site.css) and the page background (--bg).
FELT = "#1f5f45"
PAGE_BACKGROUND = "#f4f1ea"


def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest in the request's language. Its `id` and `scope` never change, so a
    player who switches language keeps one installed app."""
    body: dict[str, Any] = {
        "id": "/",
        "name": "Wizard online",
        "short_name": "Wizard",
        "description": _("Wizard, the trick-taking card game: play live against people and bots."),
        "lang": get_language() or "en",
        # An installed app opens on the player's own games (the log-in page leads there).
        "start_url": reverse("my-games"),
        "scope": "/",
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "any",
        "background_color": PAGE_BACKGROUND,
        "theme_color": FELT,
        "icons": [
            {
                "src": static("icons/icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": static("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(body, content_type="application/manifest+json")


def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker keeps to show when a page cannot load. It fetches it with no
    cookies, so the stored copy holds nothing of a player."""
    return render(request, "offline.html", {"start_url": reverse("my-games")})
