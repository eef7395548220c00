"""R17: only games in which every seat is a distinct real human count. Bot games, solo games,
aborted and voided games, and a user in two seats leave ratings and standings untouched."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from games import services
from games import services as games_services
from games.models import Game, GameStatus, Seat
from league import services as league_services
from league.eligibility import is_league_game
from league.models import LeagueGame, Rating, RatingChange, SeasonStanding
from league.ratings import Skill, initial_skill, rate
from tests.games.helpers import API, Player, create_game, play_to_end
from tests.league.helpers import Clock, counts, finish_game, human_table, play_out, snapshot

pytestmark = pytest.mark.django_db


def rated_players(make_users: Callable[..., list[User]], count: int = 6) -> list[User]:
    """Players who already have league ratings (one league game among them)."""
    users = make_users(count)
    finish_game(users, [10 * n for n in range(count)])
    assert Rating.objects.filter(user__in=users).count() == count
    return users


def test_a_game_with_bot_seats_leaves_ratings_and_standings_unchanged(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    humans = rated_players(make_users)[:2]
    before = snapshot()
    game = services.game_create(user=humans[0], seats=6, bots=4, rounds=3).game  # R17: counts
    for user in humans[1:]:
        game = services.game_join(game_id=game.pk, user=user).game
    assert game.status == GameStatus.ACTIVE

    game = play_out(game.pk, random.Random(3))

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert counts(game) is False
    assert not RatingChange.objects.filter(game=game).exists()
    assert snapshot() == before


def test_a_solo_game_played_over_http_never_counts(
    make_player: Callable[..., Player], clock: Clock
) -> None:
    solo = make_player("solo")
    before = snapshot()
    # One human, five bots: starts at once; three rounds (R19) would count between people (R17).
    game_id = create_game(solo, seats=6, bots=5, rounds=3)["id"]

    final = play_to_end(game_id, [solo], random.Random(5))

    assert final["status"] == "finished"
    assert counts(Game.objects.get(pk=game_id)) is False
    assert snapshot() == before
    assert not Rating.objects.filter(user_id=solo.user_id).exists()
    profile = solo.client.get(f"{API}/players/solo/").json()
    assert (profile["rating"], profile["league_games"], profile["casual_games"]) == (None, 0, 1)
    board = solo.client.get(f"{API}/league/leaderboard/").json()
    assert "solo" not in [row["username"] for row in board["results"]]


def test_a_table_every_human_left_is_aborted_and_rates_nobody(
    make_users: Callable[..., list[User]],
) -> None:
    humans = rated_players(make_users, 3)
    before = snapshot()
    game = services.game_create(user=humans[0], seats=6, bots=2).game
    services.game_join(game_id=game.pk, user=humans[1])
    services.game_leave(game_id=game.pk, user=humans[1])
    services.game_leave(game_id=game.pk, user=humans[0])

    game.refresh_from_db()
    assert game.status == GameStatus.ABORTED
    assert counts(game) is False
    assert snapshot() == before


def test_a_game_aborted_while_active_is_not_a_league_game(
    make_users: Callable[..., list[User]],
) -> None:
    game = human_table(make_users(6))
    seats = list(game.seat_set.all())
    game.status = GameStatus.FINISHED
    assert is_league_game(game, seats)  # the same table, finished, would count

    game.status = GameStatus.ABORTED
    game.save(update_fields=["status"])
    assert is_league_game(game, seats) is False

    league_services.games_rate()  # even if it were asked to rate it
    assert not LeagueGame.objects.filter(game=game).exists()  # only finished games are rated
    assert not Rating.objects.exists()
    assert not SeasonStanding.objects.exists()


def test_a_voided_game_leaves_the_league_and_a_rebuild_without_it(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    users = make_users(7)
    first = finish_game(users[0:4], [90, 40, 40, -20])
    voided = finish_game(users[2:6], [150, 30, 10, -40])
    last = finish_game([users[0], users[2], users[5], users[6]], [60, 60, 20, 0])
    original = snapshot()
    assert counts(voided) is True and RatingChange.objects.filter(game=voided).count() == 4

    assert games_services.game_void(game_id=voided.pk)
    assert league_services.game_recheck(game_id=voided.pk)

    voided.refresh_from_db()
    assert (voided.voided, counts(voided)) == (True, False)
    assert not RatingChange.objects.filter(game=voided).exists()
    # The ratings are those of the league without the voided game: replay the other two.
    skills: dict[int, Skill] = {}
    games: dict[int, int] = {}
    for game in (first, last):
        seats = list(game.seat_set.order_by("number"))
        before = [skills.get(seat.user_id, initial_skill()) for seat in seats]
        after = rate(before, [seat.place or 0 for seat in seats])
        for seat, skill in zip(seats, after, strict=True):
            skills[seat.user_id] = skill
            games[seat.user_id] = games.get(seat.user_id, 0) + 1
    ratings = {r.user_id: (r.mu, r.sigma) for r in Rating.objects.all()}
    assert ratings == {
        user: pytest.approx((skill.mu, skill.sigma), rel=1e-12) for user, skill in skills.items()
    }
    assert {r.user_id: r.games for r in Rating.objects.all()} == games
    assert users[4].pk not in ratings  # played only the voided game
    assert sum(SeasonStanding.objects.values_list("games", flat=True)) == 8
    response = APIClient().get(f"{API}/league/leaderboard/")
    rows = {row["username"]: row for row in response.json()["results"]}
    assert users[4].username not in rows
    assert rows[users[2].username]["games"] == 2  # was 3 with the voided game

    # Lifting the void brings back exactly the incremental numbers.
    assert games_services.game_void(game_id=voided.pk, voided=False)
    assert league_services.game_recheck(game_id=voided.pk)
    assert snapshot() == original


def test_the_same_user_cannot_take_two_seats(make_users: Callable[..., list[User]]) -> None:
    ann, bob = make_users(2)
    game = services.game_create(user=ann, seats=3).game

    services.game_join(game_id=game.pk, user=ann)  # joining a table one sits at: a no-op
    services.game_join(game_id=game.pk, user=bob)
    services.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
    assert sorted(game.seat_set.values_list("number", "user_id")) == [(0, ann.pk), (1, bob.pk)]

    with pytest.raises(IntegrityError), transaction.atomic():  # one_seat_per_user
        Seat.objects.create(game=game, number=2, user=ann)
    assert game.seat_set.count() == 2


def test_a_seat_list_with_one_user_twice_is_not_a_league_game(
    make_users: Callable[..., list[User]],
) -> None:
    ann, bob, cat = make_users(3)
    game = Game(status=GameStatus.FINISHED, seats=3)
    distinct = [Seat(number=0, user=ann), Seat(number=1, user=bob), Seat(number=2, user=cat)]
    twice = [Seat(number=0, user=ann), Seat(number=1, user=bob), Seat(number=2, user=ann)]
    assert is_league_game(game, distinct)
    assert is_league_game(game, twice) is False

    assert not Rating.objects.exists()
