"""Celery tasks of the league: thin wrappers around league.services."""

from __future__ import annotations

from celery import shared_task

from league import services


@shared_task(ignore_result=True)
def rate_games() -> int:
    """Rate every finished game not yet rated (after each game's end, and as a sweep)."""
    return services.games_rate()


@shared_task(ignore_result=True)
def game_recheck(game_id: int) -> bool:
    """A moderator voided or restored a game: re-rate from it if its membership changed."""
    return services.game_recheck(game_id=game_id)
