"""The scheduler's sweep survives one tournament it cannot step: the fault is logged and
counted, and every other tournament is still started on time (T6)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client import REGISTRY

from tests.games.helpers import Player
from tests.tournaments.helpers import create_tournament, join, view
from tournaments import services
from tournaments.models import Tournament


def step_failures() -> float:
    return REGISTRY.get_sample_value("wizard_tournament_step_failures_total") or 0.0


@pytest.mark.django_db(transaction=True)
def test_a_tournament_the_scheduler_cannot_start_never_stops_the_others(
    make_player: Callable[..., Player], caplog: pytest.LogCaptureFixture
) -> None:
    people = [make_player() for _ in range(3)]
    broken, healthy = (create_tournament(people[0])["id"] for _ in range(2))
    for tournament_id in (broken, healthy):
        for player in people:
            assert join(player, tournament_id).status_code == 200
    # A stored option no table may have: seating its first round fails. It is due first.
    Tournament.objects.filter(pk=broken).update(turn_seconds=1)
    failures = step_failures()

    with caplog.at_level(logging.ERROR, logger="tournaments.services"):
        services.tournaments_sweep(now=timezone.now() + timedelta(hours=2))

    assert view(people[0], healthy)["status"] == "running"
    assert view(people[0], broken)["status"] == "upcoming"  # rolled back whole
    assert step_failures() == failures + 1
    assert f"could not step tournament {broken}" in caplog.text
