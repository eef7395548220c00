"""The league's pages: the leaderboard with its season picker, and a player's profile with a
rating chart drawn on the server (inline SVG, nothing loaded from other sites)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.models import Rating
from league.ratings import display
from tests.league.helpers import Clock, finish_game

pytestmark = pytest.mark.django_db


class Links(HTMLParser):
    """Every URL a page loads or links to (src, href, action, srcset, xlink:href)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"src", "href", "action", "xlink:href", "srcset"} and value is not None:
                self.urls.append(value.strip())


def external_urls(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    assert parser.urls, "the page links somewhere"
    same_site = re.compile(r"^(?:https?:)?//testserver(?:[/?#]|$)", re.IGNORECASE)
    return [
        url
        for url in parser.urls
        if re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", url, re.IGNORECASE)
        and not same_site.match(url)
        and not url.lower().startswith(("mailto:", "#"))
    ]


@pytest.fixture
def two_seasons(db: None, clock: Clock) -> dict[str, User]:
    people = {name: User.objects.create_user(name) for name in ["alma", "boris", "cleo", "dmitri"]}
    alma, boris, cleo, dmitri = people.values()
    clock.set(datetime(2026, 1, 10, 18, 0, tzinfo=UTC))
    finish_game([alma, boris, cleo], [60, 20, 40])
    clock.set(datetime(2026, 2, 5, 18, 0, tzinfo=UTC))
    finish_game([alma, boris, dmitri], [-10, 50, 50])
    return people


def test_the_leaderboard_page_lists_every_rated_player(two_seasons: dict[str, User]) -> None:
    response = Client().get("/leaderboard/")

    assert response.status_code == 200
    html = response.content.decode()
    for name, user in two_seasons.items():
        assert f">{name}</a>" in html
        assert f"{display(Rating.objects.get(user=user).ordinal):.2f}" in html
    assert '<option value="2026-02">' in html and '<option value="2026-01">' in html
    assert external_urls(html) == []


def test_the_leaderboard_page_of_a_season_lists_that_months_players(
    two_seasons: dict[str, User],
) -> None:
    january = Client().get("/leaderboard/?season=2026-01").content.decode()
    february = Client().get("/leaderboard/", {"season": "2026-02"}).content.decode()

    assert '<option value="2026-01" selected>' in january
    assert {">alma</a>", ">boris</a>", ">cleo</a>"} <= set(re.findall(r">\w+</a>", january))
    assert ">dmitri</a>" not in january
    assert ">cleo</a>" not in february and ">dmitri</a>" in february
    assert "No league game yet" in Client().get("/leaderboard/?season=2025-07").content.decode()


def test_the_leaderboard_page_falls_back_to_all_time_for_a_bad_season(
    two_seasons: dict[str, User],
) -> None:
    response = Client().get("/leaderboard/?season=2026-13")
    assert response.status_code == 200
    assert all(f">{name}</a>" in response.content.decode() for name in two_seasons)


def test_the_leaderboard_page_costs_the_same_queries_for_more_players(
    two_seasons: dict[str, User], make_users: Callable[..., list[User]], clock: Clock
) -> None:
    def page_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert Client().get("/leaderboard/?season=2026-02").status_code == 200
        return len(queries)

    few = page_queries()
    more = make_users(6)
    finish_game(more, [10, 20, 30, 40, 50, 60])
    finish_game(more[:3], [0, 5, 10])
    assert few == page_queries()


def test_a_profile_draws_the_rating_chart_inline_after_two_league_games(
    two_seasons: dict[str, User],
) -> None:
    response = Client().get("/players/alma/")

    assert response.status_code == 200
    html = response.content.decode()
    assert '<svg class="chart"' in html and "<polyline" in html
    points = re.search(r'<polyline[^>]*points="([^"]+)"', html)
    assert points is not None and len(points.group(1).split()) == 2  # one point per game
    assert external_urls(html) == []
    assert f"{display(Rating.objects.get(user=two_seasons['alma']).ordinal):.2f}" in html


def test_a_profile_has_no_chart_before_two_league_games(two_seasons: dict[str, User]) -> None:
    html = Client().get("/players/cleo/").content.decode()  # one league game
    assert '<svg class="chart"' not in html
    assert "The chart appears after two league games." in html


def test_an_unknown_profile_is_a_404_page(db: None) -> None:
    assert Client().get("/players/nobody/").status_code == 404
