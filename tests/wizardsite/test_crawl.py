"""Every page a signed-in player can reach by links answers, in each of the four languages, and
the Spanish, Czech and Croatian pages show none of the English words the site's pages use.

The crawl starts from the home page with a player who has a finished game (its replay), a
running one and a profile; it follows every link of this site, except the admin, the API, the
static files and the forms that change something."""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Callable
from html import unescape
from typing import Any
from urllib.parse import urldefrag

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from tests.games.helpers import API, Player
from tests.league.helpers import play_out

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "es", "cs", "hr"]
SKIPPED = ("/admin/", "/api/", "/static/", "/i18n/", "/jsi18n/", "/accounts/logout/", "/sw.js")
LINK = re.compile(r'<a\b[^>]*\bhref="([^"]*)"')
# Words of the site's English pages that a translated page must not show (as whole words).
ENGLISH = [
    "Sign up",
    "Log in",
    "Log out",
    "Leaderboard",
    "How to play",
    "My games",
    "Your turn",
    "Rematch",
    "Password",
    "Settings",
    "Notifications",
    "Rules",
    "Players",
    "Round",
    "Trump",
    "Trick",
    "Tricks",
    "Bid",
    "Score",
    "Rating",
    "Replay",
    "Wins",
    "Games",
    "Play against bots",
    "Create",
    "Join",
    "Watch",
    "Report",
]
ENGLISH_WORD = re.compile(r"\b(" + "|".join(re.escape(word) for word in ENGLISH) + r")\b")


def visible_text(html: str) -> str:
    """The page's text as a reader sees it: no scripts, styles, tags or attributes."""
    html = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html, flags=re.S | re.I)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def links(html: str) -> set[str]:
    """The site's own pages this page links to."""
    found = set()
    for href in LINK.findall(html):
        url = urldefrag(unescape(href)).url
        if url.startswith("/") and not url.startswith("//") and not url.startswith(SKIPPED):
            found.add(url)
    return found


def crawl(client: Client, start: list[str]) -> dict[str, str]:
    """Every page reachable from `start`, by its address: its HTML. Fails on a link that does
    not answer (or redirects to one that does not)."""
    pages: dict[str, str] = {}
    queue = deque(start)
    seen = set(start)
    while queue:
        url = queue.popleft()
        response = client.get(url, follow=True)
        assert response.status_code == 200, (url, response.status_code)
        if not response["Content-Type"].startswith("text/html"):
            continue
        html = response.content.decode()
        pages[url] = html
        for link in links(html) - seen:
            seen.add(link)
            queue.append(link)
    return pages


def create_table(creator: Player, bots: int, rounds: int | str = "full") -> int:
    body = {
        "seats": 3,
        "bots": bots,
        "turn_seconds": 60,
        "blind_first_round": False,
        "rounds": rounds,
    }
    created = creator.client.post(f"{API}/games/", body, format="json")
    assert created.status_code == 201, created.content
    game_id: int = created.json()["id"]
    return game_id


@pytest.fixture
def player(make_player: Callable[..., Player], settings: Any) -> Player:
    """A player with a finished game against two bots (its replay's pages are the same for
    three rounds as for twenty), a running one, and an open table of someone else's in the
    lobby."""
    settings.RATE_LIMITS_ENABLED = False  # three tables in a moment
    me, other = make_player("crawler"), make_player("host")
    play_out(create_table(me, bots=2, rounds=3), random.Random(3))  # R19: a short game
    create_table(me, bots=2)
    create_table(other, bots=0)
    return me


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_linked_page_answers_and_speaks_the_language(player: Player, language: str) -> None:
    visitor, client = (Client(HTTP_ACCEPT_LANGUAGE=language) for _ in range(2))
    for browser in (visitor, client):
        browser.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(User.objects.get(pk=player.user_id))
    signed_out = crawl(visitor, ["/"])
    assert {"/accounts/login/", "/accounts/signup/", "/lobby/"} <= set(signed_out), signed_out
    signed_in = crawl(client, ["/", f"/players/{player.username}/"])

    addresses = set(signed_out) | set(signed_in)
    assert {"/how-to-play/", "/rules/", "/games/mine/", "/leaderboard/"} <= addresses, addresses
    assert any(re.fullmatch(r"/games/\d+/replay/", url) for url in addresses), sorted(addresses)
    assert len(addresses) >= 15, sorted(addresses)
    if language == "en":
        return
    english = {
        (url, who): sorted(set(ENGLISH_WORD.findall(visible_text(html))))
        for who, pages in (("signed out", signed_out), ("signed in", signed_in))
        for url, html in pages.items()
        if ENGLISH_WORD.search(visible_text(html))
    }
    assert not english, english
