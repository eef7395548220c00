from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review"

    def ready(self) -> None:
        from games.signals import game_finished

        game_finished.connect(_review_finished_game, dispatch_uid="review-finished-games")


def _review_finished_game(sender: Any, game_id: int, **_: Any) -> None:
    """Sent after the game's last move committed: the expert reviews it in a worker."""
    from django.db import transaction

    from review.tasks import review_game

    transaction.on_commit(lambda: review_game.delay(game_id))
