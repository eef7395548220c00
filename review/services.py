"""The only code that writes reviews: claim a finished game, ask the expert, store the answer."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game, GameStatus
from review.analysis import game_decisions
from review.models import GameReview, ReviewedDecision

# A claim this old that never finished (its worker died) may be taken over by another task.
CLAIM_EXPIRES = timedelta(hours=1)
# The sweep looks this far back, a few games a run: older games are not reviewed late.
SWEEP_HORIZON = timedelta(days=7)
SWEEP_GAMES = 5


def games_review(*, limit: int = SWEEP_GAMES) -> int:
    """Review, oldest first, finished games of the last week that no task has claimed (their
    task was lost) or whose claim expired; returns how many this run reviewed."""
    now = timezone.now()
    unclaimed = Q(review__isnull=True) | Q(
        review__finished_at__isnull=True, review__claimed_at__lt=now - CLAIM_EXPIRES
    )
    due = Game.objects.filter(
        unclaimed, status=GameStatus.FINISHED, finished_at__gte=now - SWEEP_HORIZON
    ).order_by("finished_at", "pk")
    return sum(game_review(game_id=game_id) for game_id in due.values_list("pk", flat=True)[:limit])


def game_review(*, game_id: int) -> bool:
    """Review a finished game once: the first task claims it, asks the expert about each of
    the players' decisions outside any transaction, then stores the answers and marks it done.
    A duplicate or later task does nothing (False)."""
    review = _claim(game_id)
    if review is None:
        return False
    game = review.game
    seats = list(game.seat_set.all())
    decisions = game_decisions(game, seats, review.budget_ms)
    users = {seat.number: seat.user_id for seat in seats if seat.user_id is not None}
    with transaction.atomic():
        ReviewedDecision.objects.filter(review=review).delete()  # a taken-over claim's leftovers
        ReviewedDecision.objects.bulk_create(
            ReviewedDecision(
                review=review,
                user_id=users[decision.seat],
                seq=decision.seq,
                seat=decision.seat,
                round=decision.round,
                kind=decision.kind,
                choice=decision.choice,
                expert_choice=decision.expert_choice,
                points=decision.points,
            )
            for decision in decisions
        )
        done = GameReview.objects.filter(
            pk=review.pk, claimed_at=review.claimed_at, finished_at=None
        ).update(finished_at=timezone.now())
        if not done:  # another task took the claim over meanwhile: its answer stands
            transaction.set_rollback(True)
    return bool(done)


def _claim(game_id: int) -> GameReview | None:
    """The review row, claimed by this task (compare and set), or None if another has it."""
    game = Game.objects.filter(pk=game_id, status=GameStatus.FINISHED).first()
    if game is None:
        return None
    now = timezone.now()
    try:
        with transaction.atomic():
            return GameReview.objects.create(
                game=game, claimed_at=now, budget_ms=settings.REVIEW_BUDGET_MS
            )
    except IntegrityError:
        pass
    taken = GameReview.objects.filter(
        game=game, finished_at=None, claimed_at__lt=now - CLAIM_EXPIRES
    ).update(claimed_at=now)
    return GameReview.objects.select_related("game").get(game=game) if taken else None
