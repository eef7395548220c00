"""The league rates off the move path: a task after the last move's commit rates each finished
game once, in one order, whoever runs it and however often; a moderator's void re-rates only
from the changed game onwards, one game per transaction, and only if it changes membership."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine
from games import services as games_services
from games.models import Game, GameStatus, Seat
from league import services as league_services
from league.models import LeagueGame, LeagueLock, Rating, RatingChange
from tests.games.helpers import race
from tests.league.helpers import (
    counts,
    finish_game,
    human_table,
    play_to_last_card,
    seat_table,
    snapshot,
)


def end_unrated(users: list[User | None], scores: list[int]) -> Game:
    """A game that ended (as games.services records it) whose rating task has not run yet."""
    game = seat_table(users)
    with transaction.atomic():
        places = engine.places(scores)
        seats = list(game.seat_set.order_by("number"))
        for seat in seats:
            seat.final_score, seat.place = scores[seat.number], places[seat.number]
        Seat.objects.bulk_update(seats, ["final_score", "place"])
        game.status, game.finished_at = GameStatus.FINISHED, timezone.now()
        game.save(update_fields=["status", "finished_at"])
    return game


def rebuilt() -> dict[str, list[tuple[object, ...]]]:
    """What a full rebuild makes of the league as it now stands."""
    league_services.ratings_rebuild()
    return snapshot()


@pytest.mark.django_db(transaction=True)
def test_the_last_move_commits_and_then_the_league_rates_the_game(
    make_users: Callable[..., list[User]],
) -> None:
    players = make_users(3)
    game = play_to_last_card(human_table(players, rounds=3).pk)
    state = game.engine_state()
    assert state is not None and state.to_act is not None

    # A real commit: once the move has committed, its signal sends the league's task (eager here).
    games_services.move_apply(
        game_id=game.pk, user=players[state.to_act], body=engine.auto_move(state).to_json()
    )

    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert counts(game) is True
    assert RatingChange.objects.filter(game=game).count() == 3
    assert league_services.games_rate() == 0  # a second run finds nothing to do


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_workers_racing_to_rate_rate_every_game_exactly_once(
    make_users: Callable[..., list[User]],
) -> None:
    users = make_users(5)
    games = [end_unrated(users[n % 3 : n % 3 + 3], [10 * n, 20, 30 - n]) for n in range(6)]
    games.append(end_unrated([users[0], None, users[1]], [10, 20, 30]))  # never counts

    done = race([league_services.games_rate for _ in range(3)])

    assert sum(done) == len(games)
    assert LeagueGame.objects.count() == len(games)
    assert RatingChange.objects.count() == 6 * 3
    order = list(LeagueGame.objects.order_by("pk").values_list("game_id", flat=True))
    assert order == [game.pk for game in games]  # the order in which they finished
    incremental = snapshot()
    assert rebuilt() == incremental


@pytest.mark.django_db
def test_voiding_a_game_that_never_counted_changes_nothing(
    make_users: Callable[..., list[User]], monkeypatch: pytest.MonkeyPatch
) -> None:
    users = make_users(4)
    finish_game(users[:3], [50, 20, 10])
    bot_game = finish_game([users[0], None, users[3]], [10, 60, 30])
    before = snapshot()

    def no_rebuild() -> int:
        raise AssertionError("nothing to rebuild")

    monkeypatch.setattr(league_services, "ratings_rebuild", no_rebuild)
    monkeypatch.setattr(league_services, "_rate", no_rebuild)
    assert games_services.game_void(game_id=bot_game.pk)
    assert league_services.game_recheck(game_id=bot_game.pk) is False

    assert LeagueLock.objects.get(pk=1).replay_from is None
    assert snapshot() == before


@pytest.mark.django_db
def test_a_void_re_rates_from_that_game_one_game_per_step_even_as_new_games_end(
    make_users: Callable[..., list[User]], monkeypatch: pytest.MonkeyPatch
) -> None:
    users = make_users(6)
    games = [finish_game(users[n : n + 4], [40, 30 - n, 20, 10 * n]) for n in range(3)]
    first_changes = list(RatingChange.objects.filter(game=games[0]).values_list("pk", "mu"))
    entries = list(LeagueGame.objects.order_by("pk"))

    # The recheck marks where to replay from; the steps then run one game each.
    with monkeypatch.context() as patch:
        patch.setattr(league_services, "games_rate", lambda: 0)
        assert games_services.game_void(game_id=games[1].pk)
        assert league_services.game_recheck(game_id=games[1].pk)
    assert LeagueLock.objects.get(pk=1).replay_from == entries[1].pk
    assert league_services._rate_next()
    assert LeagueLock.objects.get(pk=1).replay_from == entries[2].pk
    assert not RatingChange.objects.filter(game=games[1]).exists()

    # A game that ends mid-replay is rated after the replay has caught up.
    late = finish_game(users[2:5], [10, 20, 30])  # its helper runs games_rate to the end

    assert LeagueLock.objects.get(pk=1).replay_from is None
    assert counts(late) and not counts(games[1])
    # Games before the voided one were never touched; the rest equal a full rebuild.
    assert list(RatingChange.objects.filter(game=games[0]).values_list("pk", "mu")) == (
        first_changes
    )
    assert snapshot() == rebuilt()


@pytest.mark.django_db
def test_a_players_rating_is_stamped_each_time_a_game_changes_it(
    make_users: Callable[..., list[User]],
) -> None:
    users = make_users(3)
    finish_game(users, [30, 20, 10])
    first = Rating.objects.get(user=users[0]).updated_at
    Rating.objects.filter(user=users[0]).update(updated_at=first - timedelta(hours=1))

    finish_game(users, [10, 20, 30])

    assert Rating.objects.get(user=users[0]).updated_at > first - timedelta(minutes=1)
