"""R27: the league keeps two ratings, classic (no special card) and anniversary (any special
card), each with its own leaderboard (`?pool=`), profile figures and rebuild; R19 and the other
options do not split them, and R17 applies to both."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from league.models import Rating, RatingChange
from tests.games.helpers import API
from tests.league.helpers import Clock, finish_game, snapshot

pytestmark = pytest.mark.django_db

BOARD = f"{API}/league/leaderboard/"


def board(query: str = "") -> list[tuple[str, int]]:
    response = Client().get(BOARD + query)
    assert response.status_code == 200, response.content
    return [(row["username"], row["games"]) for row in response.json()["results"]]


def test_a_game_with_special_cards_rates_only_into_the_anniversary_pool(
    make_users: Callable[..., list[User]],
) -> None:
    ada, bob, cy, dan = make_users(4)
    finish_game([ada, bob, cy], [50, 10, -20])
    finish_game([ada, bob, dan], [-30, 40, 0], special_cards=["bomb"])
    finish_game([ada, cy, dan], [0, 20, 30], special_cards=["dragon_fairy", "cloud"])
    classic, anniversary = board(), board("?pool=anniversary")
    assert sorted(classic) == sorted([(ada.username, 1), (bob.username, 1), (cy.username, 1)])
    assert sorted(anniversary) == sorted(
        [(ada.username, 2), (bob.username, 1), (cy.username, 1), (dan.username, 2)]
    )
    assert board("?pool=classic") == classic
    # Each pool's ratings start from scratch: Ada's anniversary rating owes nothing to her win.
    first = RatingChange.objects.filter(user=ada, pool="anniversary").order_by("order").first()
    assert first is not None and (first.mu_before, first.sigma_before) == (25.0, 25 / 3)
    assert set(Rating.objects.filter(user=ada).values_list("pool", flat=True)) == {
        "classic",
        "anniversary",
    }


def test_a_bot_game_with_special_cards_counts_in_neither_pool(
    make_users: Callable[..., list[User]],
) -> None:
    ada, bob = make_users(2)
    finish_game([ada, bob, None], [10, 20, 30], special_cards=["juggler"])  # R17
    assert board("?pool=anniversary") == [] and board() == []


@pytest.mark.parametrize("pool", ["retro", "Classic", "1", "anniversary,classic", ""])
def test_any_other_pool_is_invalid(pool: str) -> None:
    response = Client().get(BOARD, {"pool": pool})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


def test_the_profile_shows_both_ratings_and_the_page_switches_pools(
    make_users: Callable[..., list[User]],
) -> None:
    ada, bob, cy = make_users(3)
    finish_game([ada, bob, cy], [50, 10, -20], special_cards=["shapeshifter"])
    profile = Client().get(f"{API}/players/{ada.username}/").json()
    assert profile["rating"] is None and profile["league_games"] == 0
    assert profile["anniversary"]["league_games"] == 1
    assert profile["anniversary"]["rating"] is not None and profile["anniversary"]["provisional"]
    page = Client().get(f"/players/{ada.username}/").content.decode()
    assert 'data-testid="anniversary-rating"' in page
    classic_page = Client().get("/leaderboard/").content.decode()
    anniversary_page = Client().get("/leaderboard/?pool=anniversary").content.decode()
    assert ada.username not in classic_page and ada.username in anniversary_page
    assert 'data-testid="pool-anniversary" aria-current="page"' in anniversary_page


def test_rebuild_equals_the_incremental_ratings_in_both_pools(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    users = make_users(8)
    rng = random.Random(27)
    clock.step = timedelta(hours=20)
    for _ in range(60):
        table = rng.sample(users, rng.randint(3, 5))
        special = ["bomb"] if rng.random() < 0.5 else []
        finish_game(table, [rng.randrange(-40, 120, 10) for _ in table], special_cards=special)
    incremental = snapshot()
    assert {row[-1] for row in incremental["ratings"]} == {"classic", "anniversary"}
    Rating.objects.all().delete()
    call_command("rebuild_ratings", stdout=StringIO())
    assert snapshot() == incremental
