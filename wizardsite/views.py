"""Site-wide pages (home, how to play, rules) and the JSON error pages of the API."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path
from typing import Any

import markdown
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt
from django.views.defaults import bad_request as html_bad_request
from django.views.defaults import page_not_found as html_page_not_found
from django.views.defaults import server_error as html_server_error

from apikit.unavailable import is_unavailable
from core.errors import error_body
from games import selectors as game_selectors
from games import views as game_views
from league import selectors as league_selectors
from wizardsite.middleware import malformed, too_large, unavailable

FEATURED_FROM = 50  # the liveliest games to watch, of which the strongest is featured
RULES_DIR = Path(__file__).resolve().parent.parent / "games" / "rules"
HOWTO_DIR = Path(__file__).resolve().parent / "howto"


def home(request: HttpRequest) -> HttpResponse:
    """The welcome; for a player, their running games first (their turn on top); for anyone,
    the featured table (the strongest game in progress they may watch) and games to watch."""
    context = {**game_views.running_games(request), **_to_watch(request)}
    return render(request, "home.html", context)


def home_live(request: HttpRequest) -> HttpResponse:
    """The home page's featured table and games to watch, as the page refreshes them live."""
    return render(request, "_home_live.html", _to_watch(request))


def _to_watch(request: HttpRequest) -> dict[str, Any]:
    watchable = list(game_selectors.games_to_watch(request.user)[:FEATURED_FROM])
    featured = league_selectors.featured_game(watchable)
    return {
        "featured": game_selectors.game_summaries([featured])[0] if featured else None,
        "watch_tables": game_selectors.game_summaries(watchable[: game_views.WATCH_LISTED]),
    }


def rules(request: HttpRequest) -> HttpResponse:
    """The full rules (R1–R28, T1–T6) in the reader's language, from the project's rules texts."""
    html = markdown_page(RULES_DIR, get_language() or "en")
    return render(request, "rules.html", {"rules_html": html})


def how_to_play(request: HttpRequest) -> HttpResponse:
    """The game for newcomers, with pictures of the cards and worked examples."""
    html = markdown_page(HOWTO_DIR, get_language() or "en")
    return render(request, "howto.html", {"howto_html": html})


@cache
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico where a page names no icon (the API docs): the site's."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


def markdown_page(folder: Path, language: str) -> SafeString:
    """One of our own Markdown texts in `language` (English where there is none) as HTML."""
    source = folder / f"{language.split('-')[0]}.md"
    if not source.exists():
        source = folder / "en.md"
    # Our own file, written by us: safe to render as HTML.
    html: str = markdown.markdown(source.read_text(), extensions=["toc", "tables", "attr_list"])
    safe: SafeString = mark_safe(html)
    return safe


@csrf_exempt  # a POST to an unknown API path is a 404 too, not the CSRF failure page
def api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse(error_body("not_found", "There is no such API endpoint."), status=404)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return api_not_found(request)
    return html_page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400s (an over-large or malformed request) in the JSON error shape under /api/."""
    if request.path.startswith("/api/"):
        if isinstance(exception, RequestDataTooBig):
            return too_large()
        return malformed("The request was not understood.")
    return html_bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """500, or 503 when the error is the database being unreachable (Django calls this inside
    the handler of the exception, so it is at hand)."""
    error = sys.exc_info()[1]
    if error is not None and is_unavailable(error):
        return unavailable(request)
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("server_error", "Something went wrong."), status=500)
    return html_server_error(request)
