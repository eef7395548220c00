"""A finished league game rates exactly its players (openskill Plackett-Luce), in the game's
own transaction; tied final scores share a place and get equal updates; equal ratings share a
rank on the leaderboard (R15)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games import engine, services
from games.models import GameStatus, Seat
from league import selectors
from league import services as league_services
from league.models import Rating, RatingChange, SeasonStanding
from league.ratings import Skill, display, initial_skill, rate
from league.services import season_of
from tests.games.helpers import API
from tests.league.helpers import Clock, counts, finish_game, human_table, play_to_last_card

pytestmark = pytest.mark.django_db


def test_a_finished_human_game_is_rated_after_its_last_move_exactly_for_its_players(
    make_users: Callable[..., list[User]], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = make_users(9)
    players, bystanders = users[:6], users[6:]
    # Half the table and three bystanders already have ratings; the other half are new.
    finish_game(players[:3] + bystanders, [70, -10, 30, 120, 0, 30])
    previous = {rating.user_id: rating for rating in Rating.objects.all()}
    bystanders_before = list(
        Rating.objects.filter(user__in=bystanders)
        .order_by("user_id")
        .values_list("mu", "sigma", "ordinal", "games", "wins", "points")
    )
    game = play_to_last_card(human_table(players, rounds=3).pk)  # the timer plays (R16, R18)
    state = game.engine_state()
    assert state is not None and state.to_act is not None
    last_card = engine.auto_move(state).to_json()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the league failed")

    # The league rates off the move path: a failing league never costs the player's move.
    services.move_apply(game_id=game.pk, user=players[state.to_act], body=last_card)
    with monkeypatch.context() as patch, pytest.raises(RuntimeError):
        patch.setattr(league_services, "rate", broken)
        league_services.games_rate()
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and counts(game) is False
    assert not RatingChange.objects.filter(game=game).exists()

    assert league_services.games_rate() == 1  # the retry rates it, once
    assert league_services.games_rate() == 0

    game.refresh_from_db()
    assert counts(game) is True
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    assert all(seat.place is not None and seat.final_score is not None for seat in seats)
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert set(changes) == {user.pk for user in players}

    before = [
        Skill(previous[s.user_id].mu, previous[s.user_id].sigma)
        if s.user_id in previous
        else initial_skill()
        for s in seats
    ]
    expected = rate(before, [seat.place or 0 for seat in seats])
    for seat, old, new in zip(seats, before, expected, strict=True):
        change = changes[seat.user_id]
        # mu_before/sigma_before: the rating the player had when the game ended.
        assert (change.mu_before, change.sigma_before) == (old.mu, old.sigma)
        # openskill's result up to float summation order; the stored rows agree exactly.
        assert (change.mu, change.sigma) == pytest.approx((new.mu, new.sigma), rel=1e-12)
        assert (change.place, change.score, change.at) == (
            seat.place,
            seat.final_score,
            game.finished_at,
        )
        rating = Rating.objects.get(user_id=seat.user_id)
        assert (rating.mu, rating.sigma, rating.ordinal) == (
            change.mu,
            change.sigma,
            change.ordinal,
        )
        assert rating.ordinal == rating.mu - 3 * rating.sigma
        old_rating = previous.get(seat.user_id)
        assert rating.games == (old_rating.games if old_rating else 0) + 1
        assert rating.wins == (old_rating.wins if old_rating else 0) + (seat.place == 1)
        assert rating.points == (old_rating.points if old_rating else 0) + (seat.final_score or 0)
        standing = SeasonStanding.objects.get(season=season_of(game.finished_at), user=seat.user)
        assert standing.ordinal == change.ordinal
    assert any(changes[s.user_id].mu != changes[s.user_id].mu_before for s in seats)

    # Players who were not at the table keep their ratings to the last bit.
    assert (
        list(
            Rating.objects.filter(user__in=bystanders)
            .order_by("user_id")
            .values_list("mu", "sigma", "ordinal", "games", "wins", "points")
        )
        == bystanders_before
    )


def test_tied_final_scores_share_a_place_and_get_equal_updates(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    ann, bob, cat = make_users(3)
    game = finish_game([ann, bob, cat], [120, 120, 40])  # R15: places 1, 1, 3

    seats = {seat.user_id: seat for seat in Seat.objects.filter(game=game)}
    assert [seats[u.pk].place for u in (ann, bob, cat)] == [1, 1, 3]
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    ann_after, bob_after = changes[ann.pk], changes[bob.pk]
    assert (ann_after.mu, ann_after.sigma) == (bob_after.mu, bob_after.sigma)
    assert changes[ann.pk].mu > initial_skill().mu > changes[cat.pk].mu
    start = initial_skill()
    tied = rate([start, start, start], [1, 1, 3])
    assert (ann_after.mu, ann_after.sigma) == pytest.approx((tied[0].mu, tied[0].sigma))
    assert (changes[cat.pk].mu, changes[cat.pk].sigma) == pytest.approx((tied[2].mu, tied[2].sigma))
    # A shared first place is a win for both (R15).
    wins = dict(Rating.objects.values_list("user_id", "wins"))
    assert wins == {ann.pk: 1, bob.pk: 1, cat.pk: 0}


def test_a_tie_below_first_place_gets_equal_updates_whatever_the_seats(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    users = make_users(4)
    game = finish_game(users, [50, 80, 50, 10])  # places 2, 1, 2, 4
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert [changes[u.pk].place for u in users] == [2, 1, 2, 4]
    assert changes[users[0].pk].mu == changes[users[2].pk].mu
    assert changes[users[0].pk].sigma == changes[users[2].pk].sigma
    assert changes[users[1].pk].mu > changes[users[0].pk].mu > changes[users[3].pk].mu


def test_rate_returns_skills_in_seat_order_and_gives_tied_ranks_equal_updates() -> None:
    strong, weak, middle = Skill(30.0, 5.0), Skill(20.0, 7.0), Skill(25.0, 8.0)
    in_order = rate([strong, weak, middle], [1, 1, 3])
    rotated = rate([middle, strong, weak], [3, 1, 1])
    assert rotated == [in_order[2], in_order[0], in_order[1]]
    start = initial_skill()
    first, second, third = rate([start, start, start], [1, 1, 3])
    assert first == second
    assert first.mu > start.mu > third.mu
    winner = rate([start, start, start], [3, 2, 1])
    assert winner[2].mu > winner[1].mu > winner[0].mu  # place 1 is best, wherever it sits


def make_ratings(ordinals: list[float]) -> list[User]:
    users = [User.objects.create_user(f"ranked{n}") for n in range(len(ordinals))]
    Rating.objects.bulk_create(
        Rating(user=user, mu=value + 3.0, sigma=1.0, ordinal=value, games=6, wins=1, points=10)
        for user, value in zip(users, ordinals, strict=True)
    )
    return users


def test_equal_ratings_share_a_rank_on_the_leaderboard() -> None:
    make_ratings([7.5, 12.25, 3.0, 12.25])

    rows = [selectors.standing_row(row) for row in selectors.leaderboard(None)]
    assert [(row["rank"], row["username"]) for row in rows] == [
        (1, "ranked1"),
        (1, "ranked3"),
        (3, "ranked0"),
        (4, "ranked2"),
    ]
    response = APIClient().get(f"{API}/league/leaderboard/")
    assert response.status_code == 200
    results = response.json()["results"]
    assert [(r["rank"], r["username"], r["rating"]) for r in results] == [
        (1, "ranked1", 12.25),
        (1, "ranked3", 12.25),
        (3, "ranked0", 7.5),
        (4, "ranked2", 3.0),
    ]


def test_equal_season_ratings_share_a_rank_and_ranks_run_across_pages() -> None:
    users = make_ratings([1.0, 1.0, 1.0])
    SeasonStanding.objects.bulk_create(
        SeasonStanding(season="2026-01", user=user, games=1, wins=0, points=0, ordinal=value)
        for user, value in zip(users, [4.0, 9.5, 9.5], strict=True)
    )

    rows = [selectors.standing_row(row) for row in selectors.leaderboard("2026-01")]
    assert [(row["rank"], row["username"]) for row in rows] == [
        (1, "ranked1"),
        (1, "ranked2"),
        (3, "ranked0"),
    ]
    client = APIClient()
    page_2 = client.get(f"{API}/league/leaderboard/?season=2026-01&page_size=2&page=2").json()
    assert page_2["count"] == 3 and page_2["previous"] is not None and page_2["next"] is None
    assert [(r["rank"], r["username"], r["rating"]) for r in page_2["results"]] == [
        (3, "ranked0", display(4.0))
    ]
