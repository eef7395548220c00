"""The API contract, "League": the leaderboard (all-time and per season) agrees with the selectors
and with the league games themselves; player profiles; the signed-in player's rating."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pytest_django import DjangoCaptureOnCommitCallbacks as CaptureOnCommit
from rest_framework.test import APIClient

from games.models import GameStatus, Seat
from league import selectors
from league.models import Rating, RatingChange, SeasonStanding
from league.ratings import PROVISIONAL_GAMES, display
from tests.games.helpers import API, Player, assert_error, choose_move, seat_players
from tests.league.helpers import Clock, counts, finish_game, play_to_last_card

pytestmark = pytest.mark.django_db

BOARD = f"{API}/league/leaderboard/"


def board(client: APIClient, query: str = "") -> dict[str, Any]:
    response = client.get(BOARD + query)
    assert response.status_code == 200, response.content
    page = response.json()
    assert set(page) == {"count", "next", "previous", "results"}
    return page


def league_record(user: User) -> tuple[int, int, int]:
    """Games, wins and points from the league games' seats (not from the derived rows)."""
    seats = Seat.objects.filter(user=user, game__league_entry__counts=True)
    return (
        seats.count(),
        seats.filter(place=1).count(),
        sum(seats.values_list("final_score", flat=True)),
    )


@pytest.fixture
def season_games(db: None, clock: Clock) -> dict[str, User]:
    """League games in January 2026 (one of them at 00:30 on 1 February in UTC+1, which is
    still January in UTC) and in February 2026, plus a bot game that must not count."""
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"]
    people = {name: User.objects.create_user(name) for name in names}
    ann, bob, cat, dan, eve, fay, gus = people.values()
    clock.set(datetime(2026, 1, 15, 20, 0, tzinfo=UTC))
    finish_game([ann, bob, cat], [80, 20, -10])
    clock.set(datetime(2026, 2, 1, 0, 30, tzinfo=timezone(timedelta(hours=1))))
    finish_game([ann, bob, dan], [30, 50, 50])
    clock.set(datetime(2026, 2, 10, 9, 0, tzinfo=UTC))
    finish_game([ann, eve, fay], [0, 20, 110])
    finish_game([eve, fay, ann, bob], [40, 40, 40, -30])
    finish_game([gus, None, None], [200, 10, 0], at=datetime(2026, 2, 11, tzinfo=UTC))
    return people


def test_the_leaderboard_matches_the_selectors_and_the_league_games(
    season_games: dict[str, User],
) -> None:
    page = board(APIClient(), "?page_size=1000")
    rows = [selectors.standing_row(row) for row in selectors.leaderboard(None)]
    assert page["results"] == rows
    assert page["count"] == 6 and page["next"] is None and page["previous"] is None
    assert "gus" not in [row["username"] for row in rows]  # only a bot game: not in the league

    ratings = Rating.objects.select_related("user").order_by("user_id")
    ranked = sorted(ratings, key=lambda rating: -rating.ordinal)
    assert [row["username"] for row in rows] == [r.user.username for r in ranked]
    for row in rows:
        assert {"rank", "username", "rating", "games", "wins"} <= set(row)
        user = season_games[row["username"]]
        games, wins, points = league_record(user)
        rating = Rating.objects.get(user=user)
        assert (row["games"], row["wins"]) == (games, wins)
        assert row["rating"] == display(rating.ordinal)
        assert row["average_points"] == round(points / games, 1)
        assert row["provisional"] is (games < PROVISIONAL_GAMES)
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)
    assert rows[0]["rank"] == 1
    assert {row["username"]: row["games"] for row in rows}["ann"] == 4


def test_the_leaderboard_pages_carry_ranks_over(season_games: dict[str, User]) -> None:
    client = APIClient()
    everything = board(client, "?page_size=1000")["results"]
    first = board(client, "?page_size=4")
    assert first["count"] == 6 and first["next"] is not None and first["previous"] is None
    second = client.get(first["next"]).json()
    assert second["next"] is None
    assert first["results"] + second["results"] == everything


def test_a_season_shows_only_that_months_league_games(season_games: dict[str, User]) -> None:
    client = APIClient()
    january = board(client, "?season=2026-01")
    february = board(client, "?season=2026-02")

    assert january["results"] == [
        selectors.standing_row(row) for row in selectors.leaderboard("2026-01")
    ]
    games = {row["username"]: row["games"] for row in january["results"]}
    assert games == {"ann": 2, "bob": 2, "cat": 1, "dan": 1}
    wins = {row["username"]: row["wins"] for row in january["results"]}
    assert wins == {"ann": 1, "bob": 1, "cat": 0, "dan": 1}
    games = {row["username"]: row["games"] for row in february["results"]}
    assert games == {"ann": 2, "bob": 1, "eve": 2, "fay": 2}
    # A season's rating is the one after the player's last game of that month.
    ann = season_games["ann"]
    in_january = RatingChange.objects.filter(user=ann, at__lt=datetime(2026, 2, 1, tzinfo=UTC))
    last_in_january = in_january.order_by("at").last()
    assert last_in_january is not None
    ann_row = next(row for row in january["results"] if row["username"] == "ann")
    assert ann_row["rating"] == display(last_in_january.ordinal)
    assert ann_row["rating"] != display(Rating.objects.get(user=ann).ordinal)  # moved on since
    # All-time counts are the sum of the seasons.
    all_time = {row["username"]: row["games"] for row in board(client)["results"]}
    assert all_time["ann"] == 4 and all_time["bob"] == 3
    assert board(client, "?season=2026-03")["count"] == 0


def test_a_player_profile_shows_league_and_casual_games_apart(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    ann, bob, cat, dan = make_users(4)
    first = finish_game([ann, bob, cat, dan], [90, 30, 30, 0], exact_bids=[9, 4, 4, 3])
    second = finish_game([bob, ann, cat], [10, 70, 40], exact_bids=[6, 11, 9])
    bot_game = finish_game(  # ann comes last behind five bots
        [ann, None, None, None, None, None],
        [20, 60, 60, 60, 60, 60],
        exact_bids=[5, 0, 0, 0, 0, 0],
        at=datetime(2030, 1, 1, tzinfo=UTC),
    )

    response = APIClient().get(f"{API}/players/{ann.username}/")

    assert response.status_code == 200, response.content
    profile = response.json()
    rating = Rating.objects.get(user=ann)
    assert profile["username"] == ann.username
    assert profile["rating"] == display(rating.ordinal)
    assert (profile["league_games"], profile["wins"]) == (2, 2)
    assert profile["casual_games"] == 1  # the bot game
    assert (profile["games_played"], profile["games_won"]) == (3, 2)
    assert profile["provisional"] is True
    # Bid accuracy: 9 of 15 rounds (4 players), 11 of 20 (3), 5 of 10 (6) → 25 of 45.
    assert profile["bid_accuracy"] == round(25 / 45, 3)
    assert profile["average_points"] == round((90 + 70 + 20) / 3, 1)
    history = list(RatingChange.objects.filter(user=ann).order_by("at"))
    assert [point["rating"] for point in profile["rating_history"]] == [
        display(change.ordinal) for change in history
    ]
    assert profile["rating_history"][-1]["rating"] == profile["rating"]
    recent = [(game["id"], game["league"], game["place"]) for game in profile["recent_games"]]
    assert recent == [(bot_game.pk, False, 6), (second.pk, True, 1), (first.pk, True, 1)]


def test_an_unknown_player_is_not_found(db: None) -> None:
    assert_error(APIClient().get(f"{API}/players/nobody/"), 404, "not_found")


def test_a_player_is_provisional_for_their_first_four_league_games(
    make_player: Callable[..., Player], make_users: Callable[..., list[User]], clock: Clock
) -> None:
    player = make_player("newcomer")
    newcomer = User.objects.get(pk=player.user_id)
    me = player.client.get(f"{API}/accounts/me/").json()
    assert (me["rating"], me["league_games"], me["provisional"]) == (None, 0, True)
    others = make_users(3)

    def shown() -> tuple[bool, bool, bool]:
        me = player.client.get(f"{API}/accounts/me/").json()
        profile = player.client.get(f"{API}/players/newcomer/").json()
        row = next(r for r in board(player.client)["results"] if r["username"] == "newcomer")
        assert me["rating"] == profile["rating"] == row["rating"]
        assert me["rating"] == display(Rating.objects.get(user=newcomer).ordinal)
        assert me["league_games"] == profile["league_games"] == row["games"]
        return me["provisional"], profile["provisional"], row["provisional"]

    for played in range(1, PROVISIONAL_GAMES):
        finish_game([newcomer, *others], [10 * played, 0, 20, -10])
        assert shown() == (True, True, True), played
    finish_game([newcomer, *others], [0, 0, 0, 0])
    assert shown() == (False, False, False)
    # Provisional means few league games in all: one game in a new season does not make it so.
    clock.set(datetime(2026, 7, 1, tzinfo=UTC))
    finish_game([newcomer, *others], [0, 10, 20, 30])
    july = board(player.client, "?season=2026-07")["results"]
    row = next(r for r in july if r["username"] == "newcomer")
    assert (row["games"], row["provisional"]) == (1, False)


def test_a_human_game_ending_over_http_shows_in_the_league_api(
    make_player: Callable[..., Player],
    clock: Clock,
    django_capture_on_commit_callbacks: CaptureOnCommit,
) -> None:
    players = [make_player() for _ in range(6)]
    game_id = seat_players(players, rounds=3)
    game = play_to_last_card(game_id)  # the timer plays (R16, R18), then the last card:
    state = game.engine_state()
    assert state is not None and state.to_act is not None
    last = players[state.to_act]
    view = last.view(game_id)
    # Once the last move has committed, the league's task rates the game (eager in tests).
    with django_capture_on_commit_callbacks(execute=True):
        response = last.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "finished"

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and counts(game) is True
    rows = {row["username"]: row for row in board(players[0].client)["results"]}
    assert set(rows) == {player.username for player in players}
    places = dict(Seat.objects.filter(game=game).values_list("user__username", "place"))
    for player in players:
        row = rows[player.username]
        assert (row["games"], row["wins"]) == (1, int(places[player.username] == 1))
        me = player.client.get(f"{API}/accounts/me/").json()
        assert me["rating"] == row["rating"] is not None
        assert me["league_games"] == 1 and me["provisional"] is True
        profile = player.client.get(f"{API}/players/{player.username}/").json()
        assert profile["rating"] == row["rating"]
        assert profile["recent_games"][0]["id"] == game_id
        assert len(profile["rating_history"]) == 1


def leaderboard_queries(client: APIClient, query: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        page = board(client, query)
    assert page["results"]
    return len(queries)


def add_rated_players(count: int, start: int) -> None:
    users = User.objects.bulk_create(
        User(username=f"rated{n}") for n in range(start, start + count)
    )
    users = list(User.objects.filter(username__in=[u.username for u in users]))
    Rating.objects.bulk_create(
        Rating(user=u, mu=20.0 + n % 7, sigma=3.0, ordinal=11.0 + n % 7, games=3 + n % 4, wins=1)
        for n, u in enumerate(users)
    )
    SeasonStanding.objects.bulk_create(
        SeasonStanding(season="2026-01", user=u, games=2, wins=1, points=40, ordinal=float(n % 5))
        for n, u in enumerate(users)
    )


@pytest.mark.parametrize("query", ["", "?season=2026-01", "?page_size=100"])
def test_the_leaderboard_costs_the_same_queries_for_5_and_60_players(db: None, query: str) -> None:
    client = APIClient()
    add_rated_players(5, 0)
    few = leaderboard_queries(client, query)
    add_rated_players(55, 5)
    many = leaderboard_queries(client, query)
    assert few == many <= 3, (few, many)


def test_a_profile_costs_the_same_queries_for_2_and_12_games(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    ann, *others = make_users(4)
    client = APIClient()

    def profile_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"{API}/players/{ann.username}/")
        assert response.status_code == 200
        return len(queries)

    for _ in range(2):
        finish_game([ann, *others], [30, 20, 10, 0])
    few = profile_queries()
    for _ in range(10):
        finish_game([ann, *others], [0, 20, 10, 30])
    many = profile_queries()
    assert few == many, (few, many)
    assert len(client.get(f"{API}/players/{ann.username}/").json()["recent_games"]) == 10


def test_the_league_api_is_public_and_read_only(season_games: dict[str, User]) -> None:
    client = APIClient()  # no token, no session
    assert client.get(f"{API}/players/ann/").status_code == 200
    assert board(client)["count"] == 6
    assert_error(client.post(BOARD, {}, format="json"), 405, "method_not_allowed")
    assert_error(client.delete(f"{API}/players/ann/"), 405, "method_not_allowed")
