"""Celery tasks: thin wrappers around services."""

from __future__ import annotations

from celery import shared_task

from core import logcontext
from games import services


@shared_task(ignore_result=True)
def expire_turns() -> int:
    """R16: apply the auto-move of every turn whose deadline has passed."""
    return services.turns_expire()


@shared_task(ignore_result=True)
def turn_expire(game_id: int, seq: int) -> int:
    """R16 at the turn's deadline: its auto-move, if the game is still at event `seq`."""
    logcontext.game_id.set(game_id)
    return services.turn_expire(game_id=game_id, seq=seq)


@shared_task(ignore_result=True)
def bot_step(game_id: int, seq: int) -> bool:
    """A paced bot decision or blind-trick card, if the game is still at event `seq`."""
    logcontext.game_id.set(game_id)
    return services.bot_step(game_id=game_id, seq=seq)
