"""Celery tasks of the tournaments: thin wrappers around tournaments.services."""

from __future__ import annotations

from celery import shared_task

from tournaments import services
from tournaments.models import TournamentTable


@shared_task(ignore_result=True)
def sweep() -> int:
    """The scheduler (beat, every few seconds): start, seat, count and end what is due."""
    return services.tournaments_sweep()


@shared_task(ignore_result=True)
def game_ended(game_id: int) -> bool:
    """A game ended: if it is a tournament's, count it and go on at once (the sweep would)."""
    table = TournamentTable.objects.filter(game_id=game_id).first()
    if table is None:
        return False
    return services.tournament_step(tournament_id=table.tournament_id)
