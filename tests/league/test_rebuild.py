"""Ratings and standings are derived data: `manage.py rebuild_ratings` recomputes them from the
league games in finishing order and gets exactly (bit for bit) what the incremental updates
stored as each game ended."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from games.models import Game
from league.models import Rating, RatingChange, SeasonStanding
from tests.league.helpers import Clock, finish_game, record_end, seat_table, snapshot

pytestmark = pytest.mark.django_db

LEAGUE_GAMES = 105


def test_rebuild_equals_the_incremental_ratings_exactly(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    users = make_users(12)
    rng = random.Random(2026)
    clock.step = timedelta(hours=16)  # 105 games × 16 h: three calendar months (seasons)
    casual = 0
    for number in range(LEAGUE_GAMES):
        size = rng.randint(3, 6)
        table = rng.sample(users, size)
        # Scores on a coarse grid, so equal totals (shared places, R15) are common.
        scores = [rng.randrange(-60, 180, 20) for _ in table]
        exact = [rng.randint(0, 60 // size) for _ in table]
        finish_game(table, scores, exact_bids=exact)
        if number % 20 == 0:  # games the league skips, interleaved with the league ones
            finish_game([*table[:2], None], [10, 20, 30])
            finish_game(table, scores, voided=True)
            casual += 2
    incremental = snapshot()
    assert Game.objects.filter(league_entry__counts=True).count() == LEAGUE_GAMES
    assert Game.objects.filter(league_entry__counts=False).count() == casual
    assert len(incremental["ratings"]) == len(users)
    assert len(incremental["changes"]) > 3 * LEAGUE_GAMES
    assert len({row[0] for row in incremental["standings"]}) == 3
    assert sum(row[5] for row in incremental["ratings"]) > LEAGUE_GAMES  # some shared wins

    # Wreck the derived rows: the rebuild must recompute everything from the games.
    Rating.objects.update(mu=0.0, sigma=1.0, ordinal=-3.0, games=0, wins=0, points=0)
    SeasonStanding.objects.all().delete()
    RatingChange.objects.filter(pk__in=RatingChange.objects.order_by("pk")[:50]).delete()
    output = StringIO()
    call_command("rebuild_ratings", stdout=output)

    assert f"from {LEAGUE_GAMES} league games" in output.getvalue()
    rebuilt = snapshot()
    for table_name in ("ratings", "changes", "standings"):
        assert rebuilt[table_name] == incremental[table_name], table_name


def test_a_rebuild_rates_games_in_finishing_order_not_creation_order(
    make_users: Callable[..., list[User]], clock: Clock
) -> None:
    ann, bob, cat, dan = make_users(4)
    earlier_table = seat_table([ann, bob, cat])
    later_table = seat_table([cat, bob, dan])
    finish_game([ann, dan, bob], [10, 50, 30])
    record_end(later_table, [90, -10, 40])  # created second, finished first
    record_end(earlier_table, [0, 60, 60])
    incremental = snapshot()
    assert later_table.finished_at < earlier_table.finished_at
    assert later_table.pk > earlier_table.pk

    call_command("rebuild_ratings", stdout=StringIO())

    assert snapshot() == incremental
