"""A tournament's `starts_at` says when it started: its creator's early start moves it to that
moment (so `ends_at` never comes before it); a start at its time by the scheduler keeps it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from tests.games.helpers import Player
from tests.tournaments.helpers import (
    create_tournament,
    join,
    play_game,
    running_games,
    tournament_url,
    view,
)
from tournaments import services

pytestmark = pytest.mark.django_db


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.mark.parametrize(
    "options", [{"rounds": 1}, {"format": "arena", "minutes": 10, "rounds": None}]
)
def test_a_tournament_started_early_starts_now_and_ends_after_its_start(
    make_player: Callable[..., Player], options: dict[str, object]
) -> None:
    people = [make_player() for _ in range(3)]
    created = create_tournament(people[0], **options)
    for player in people:
        assert join(player, created["id"]).status_code == 200
    before = timezone.now()
    assert people[0].client.post(tournament_url(created["id"], "start")).status_code == 200
    shown = view(people[0], created["id"])
    assert before <= moment(shown["starts_at"]) <= timezone.now()
    assert moment(shown["starts_at"]) < moment(created["starts_at"])
    if shown["ends_at"] is not None:  # an arena's end: its minutes from the start
        assert moment(shown["ends_at"]) - moment(shown["starts_at"]) == timedelta(minutes=10)
    for game in running_games(created["id"]):
        play_game(game, {p.user_id: p for p in people})
    services.tournament_step(tournament_id=created["id"], now=timezone.now())
    ended = view(people[0], created["id"])
    assert ended["ends_at"] is None or moment(ended["ends_at"]) >= moment(ended["starts_at"])


def test_a_tournament_the_scheduler_starts_at_its_time_keeps_that_time(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(3)]
    created = create_tournament(people[0])
    for player in people:
        join(player, created["id"])
    late = moment(created["starts_at"]) + timedelta(seconds=4)  # a sweep a little after it
    assert services.tournament_step(tournament_id=created["id"], now=late)
    shown = view(people[0], created["id"])
    assert shown["status"] == "running" and shown["starts_at"] == created["starts_at"]
