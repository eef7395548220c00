"""Replay every game's event rows and compare them with its stored state: after a restore from
a backup, each game must stand exactly where its moves left it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games import engine
from games.models import Game
from games.selectors import game_events


def mismatched_games() -> tuple[int, list[int]]:
    """How many started games were checked, and the ids of those whose events do not fold to
    their stored state and `seq`."""
    checked, wrong = 0, []
    for game in Game.objects.exclude(state=None).order_by("pk").iterator():
        checked += 1
        state = engine.replay(row.payload for row in game_events(game, after=0))
        if state != game.engine_state() or state.seq != game.seq:
            wrong.append(game.pk)
    return checked, wrong


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        checked, wrong = mismatched_games()
        if wrong:
            raise CommandError(f"{len(wrong)} of {checked} games differ from their events: {wrong}")
        self.stdout.write(f"{checked} games replay to their stored state")
