"""Races on PostgreSQL: two workers doing the same tournament step at once seat nobody twice
and start no round twice; a withdraw or a game's end during seating waits for it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import close_old_connections
from django.utils import timezone

from games.signals import game_finished
from tests.games.helpers import Player
from tests.tournaments.helpers import create_tournament, join, play_game, running_games
from tournaments import services
from tournaments.apps import _count_finished_game
from tournaments.models import Tournament, TournamentTable

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
UID = "tournaments-count-games"


def at_once(*steps: Callable[[], object]) -> list[object]:
    """Run the steps in threads released together; their results (or errors) in order."""
    barrier = threading.Barrier(len(steps))
    results: list[object] = [None] * len(steps)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = steps[index]()
        except Exception as error:
            results[index] = error
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(steps))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return results


@contextmanager
def games_end_unheard() -> Iterator[None]:
    """Games end without telling the tournament: its next step waits for the workers here."""
    game_finished.disconnect(dispatch_uid=UID)
    try:
        yield
    finally:
        game_finished.connect(_count_finished_game, dispatch_uid=UID)


def seated_in(tournament_id: int, round_number: int) -> list[int]:
    tables = TournamentTable.objects.filter(tournament_id=tournament_id, round=round_number)
    return [seat.user_id for table in tables for seat in table.game.seat_set.all()]


def test_two_workers_starting_the_same_tournament_seat_round_one_once(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(7)]
    created = create_tournament(people[0], table_size=3, rounds=2)
    for player in people:
        join(player, created["id"])
    due = timezone.now() + timedelta(hours=2)
    at_once(*[lambda: services.tournament_step(tournament_id=created["id"], now=due)] * 2)
    seated = seated_in(created["id"], 1)
    assert sorted(seated) == sorted(p.user_id for p in people)  # everyone once: 4 + 3
    assert Tournament.objects.get(pk=created["id"]).round == 1


def test_a_round_ending_under_two_workers_starts_the_next_round_once(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(6)]
    created = create_tournament(people[0], table_size=3, rounds=2)
    for player in people:
        join(player, created["id"])
    people[0].client.post(f"/api/v1/tournaments/{created['id']}/start/")
    with games_end_unheard():
        for game in running_games(created["id"]):
            play_game(game, {p.user_id: p for p in people})
    now = timezone.now()
    step = lambda: services.tournament_step(tournament_id=created["id"], now=now)  # noqa: E731
    withdraw = lambda: services.tournament_withdraw(  # noqa: E731
        tournament_id=created["id"], user=User.objects.get(pk=people[5].user_id)
    )
    at_once(step, step, withdraw)
    tournament = Tournament.objects.get(pk=created["id"])
    assert tournament.round == 2
    seated = seated_in(created["id"], 2)
    assert len(seated) == len(set(seated))  # nobody twice
    assert len(seated) in (5, 6)  # the withdraw came before the seating or after it
    assert (people[5].user_id in seated) == (len(seated) == 6)
    assert TournamentTable.objects.filter(tournament=tournament, round=1, counted=True).count() == 2
