"""Seeks racing on PostgreSQL (R28): twenty players ask at once, each request matching as it
arrives and sweeps running beside them; every seek ends at exactly one table, no table holds a
player twice, and no request fails. The matcher locks the waiting seeks with SKIP LOCKED."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any
from unittest import mock

import pytest

from games.models import Game, GameStatus, Seat
from seeks import services
from seeks.models import Seek
from tests.games.helpers import API, Player, race, register_player
from tests.games.test_concurrency import twin

PLAYERS = 20
TRIALS = 5


def ask(player: Player) -> int:
    body = {"turn_seconds": 60, "sizes": [4], "deck": "classic"}  # 20 make 5 tables
    response = player.client.post(f"{API}/seeks/", body, format="json")
    return int(response.status_code)


def sweep() -> str:
    services.seeks_sweep()
    return "swept"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_seeks_end_in_disjoint_tables() -> None:
    with mock.patch.object(services, "online", lambda ids: set(ids)):
        for trial in range(TRIALS):
            people = [twin(register_player(f"p{trial}-{i}")) for i in range(PLAYERS)]
            calls: list[Any] = [partial(ask, player) for player in people]
            calls += [sweep, sweep]
            results = race(calls)
            assert results == [201] * PLAYERS + ["swept", "swept"], (trial, results)
            services.seeks_sweep()  # whatever a lock held back is seated now

            ids = {player.user_id for player in people}
            seeks = Seek.objects.filter(user_id__in=ids)
            assert seeks.count() == PLAYERS and not seeks.filter(seated_at=None).exists(), trial
            games = Game.objects.filter(pk__in=seeks.values("game_id"))
            assert all(game.status == GameStatus.ACTIVE for game in games)
            seated = Counter(Seat.objects.filter(game__in=games).values_list("user_id", flat=True))
            assert set(seated) == ids and set(seated.values()) == {1}, (trial, seated)
            for seek in seeks:  # each seek's game is the one its player sits at
                assert Seat.objects.filter(game_id=seek.game_id, user_id=seek.user_id).exists()
            assert games.count() == PLAYERS // 4 and {game.seats for game in games} == {4}
