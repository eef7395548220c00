from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from games.signals import game_finished

        game_finished.connect(_count_finished_game, dispatch_uid="tournaments-count-games")


def _count_finished_game(sender: Any, game_id: int, **_: Any) -> None:
    """Sent after a game's last move committed: if it is a tournament's, its standings and
    next tables follow in a worker; a lost send waits for the sweep (a few seconds)."""
    from apikit import sending
    from tournaments.tasks import game_ended

    sending.send(game_ended, (game_id,))
