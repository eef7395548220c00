"""A finished game's rating changes for its game-end screen (/games/<id>/ratings/): nothing
until the league has rated it, each seat's rating before and after for a league game, and a
casual game said to be one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from league.models import Rating
from league.ratings import display
from tests.league.helpers import finish_game, seat_table

pytestmark = pytest.mark.django_db


def ratings_of(game_id: int) -> dict[str, Any]:
    response = Client().get(f"/games/{game_id}/ratings/")  # signed out: results are public
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def test_a_league_game_gives_each_seat_its_rating_before_and_after(
    make_users: Callable[..., list[User]],
) -> None:
    users = make_users(3)
    first = finish_game(users, [50, 10, -20])  # each player's first league game
    second = finish_game([users[2], users[0], users[1]], [90, 0, 30])

    body = ratings_of(second.pk)
    assert body["rated"] and body["league"]
    assert [change["seat"] for change in body["changes"]] == [0, 1, 2]
    by_user = {users[2].pk: 0, users[0].pk: 1, users[1].pk: 2}
    for user_id, seat in by_user.items():
        change = body["changes"][seat]
        assert change["after"] == display(Rating.objects.get(user_id=user_id).ordinal)
    winner, last = body["changes"][0], body["changes"][1]
    assert winner["after"] > winner["before"] and last["after"] < last["before"]
    # The first game's "after" is the second game's "before", seat by seat.
    before_second = {c["seat"]: c["after"] for c in ratings_of(first.pk)["changes"]}
    assert body["changes"][1]["before"] == before_second[0]  # users[0]: seat 0, then seat 1


def test_a_game_with_a_bot_is_rated_as_casual_with_no_change(
    make_users: Callable[..., list[User]],
) -> None:
    (user, other) = make_users(2)
    game = finish_game([user, other, None], [10, 0, 40])
    assert ratings_of(game.pk) == {
        "rated": True,
        "league": False,
        "not_counted": "bots",
        "changes": [],
    }


def test_a_running_game_is_not_rated_yet_and_an_unknown_one_is_404(
    make_users: Callable[..., list[User]],
) -> None:
    game = seat_table(make_users(3))
    unrated = {"rated": False, "league": False, "not_counted": None, "changes": []}
    assert ratings_of(game.pk) == unrated
    assert Client().get(f"/games/{game.pk + 1}/ratings/").status_code == 404
