"""The turn timer's sweep survives one bad game: its fault is logged and counted, and every
other overdue table is still timed out (R16)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from games import services
from games.models import Event, Game, Seat
from tests.games.helpers import Player, game_row, seat_players


def timer_failures() -> float:
    return REGISTRY.get_sample_value("wizard_timer_failures_total") or 0.0


@pytest.mark.django_db(transaction=True)
def test_a_game_the_timer_cannot_settle_never_stops_the_clock_of_the_others(
    make_player: Callable[..., Player], caplog: pytest.LogCaptureFixture
) -> None:
    broken_id = seat_players([make_player() for _ in range(3)], blind_first_round=False)
    healthy_id = seat_players([make_player() for _ in range(3)], blind_first_round=False)
    # A running game whose next seat has no row: the timer's auto-move has nowhere to pass the
    # turn. Its deadline is the earlier, so the sweep meets it first.
    broken = game_row(broken_id)
    assert broken.to_act is not None
    Seat.objects.filter(game_id=broken_id, number=(broken.to_act + 1) % 3).delete()
    now = timezone.now()
    Game.objects.filter(pk=broken_id).update(deadline=now - timedelta(seconds=4))
    Game.objects.filter(pk=healthy_id).update(deadline=now - timedelta(seconds=3))
    healthy_seq, failures = game_row(healthy_id).seq, timer_failures()

    with caplog.at_level(logging.ERROR, logger="games.services.moves"):
        assert services.turns_expire() == 1

    assert game_row(healthy_id).seq > healthy_seq
    assert Event.objects.filter(game_id=healthy_id, seq__gt=healthy_seq, auto=True).exists()
    assert game_row(broken_id).seq == broken.seq  # rolled back whole
    assert timer_failures() == failures + 1
    assert f"could not settle game {broken_id}" in caplog.text
