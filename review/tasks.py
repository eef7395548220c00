"""Celery tasks of the review: thin wrappers around review.services."""

from __future__ import annotations

from celery import shared_task

from review import services


@shared_task(ignore_result=True)
def review_game(game_id: int) -> bool:
    """The expert's second opinion on a finished game's decisions, once per game."""
    return services.game_review(game_id=game_id)


@shared_task(ignore_result=True)
def review_games() -> int:
    """The sweep: review the finished games no task has claimed (or whose worker died)."""
    return services.games_review()
