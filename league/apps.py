from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "League"

    def ready(self) -> None:
        from games.signals import game_finished, game_voided

        game_finished.connect(_rate_finished_game, dispatch_uid="league-rates-finished-games")
        game_voided.connect(_recheck_voided_game, dispatch_uid="league-rechecks-voided-games")


def _rate_finished_game(sender: Any, game_id: int, **_: Any) -> None:
    """Sent after the game's last move committed: rate it in a worker, off the move path. The
    send never holds up the move (a frozen broker); a dropped one waits for the 30 s sweep."""
    from apikit import sending
    from league.tasks import rate_games

    sending.after_commit(rate_games, ())


def _recheck_voided_game(sender: Any, game_id: int, **_: Any) -> None:
    """Sent after a moderator voided or restored a game: re-rate from it if that changed
    whether it counts (R17), in a worker."""
    from apikit import sending
    from league.tasks import game_recheck

    sending.send(game_recheck, (game_id,))
