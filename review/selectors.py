"""Reads of reviews: a player's decisions in one game as the expert judged them, and how a
player's decisions compare with the expert's over all their reviewed games."""

from __future__ import annotations

from typing import Literal, TypedDict

from django.contrib.auth.models import User
from django.db.models import Count, F, Q, Sum

from core.errors import NotAPlayer, NotFound
from games import selectors as games
from games.selectors import AnyUser
from review.models import GameReview, ReviewedDecision


class ReviewedDecisionView(TypedDict):
    """One decision of the caller and the expert's opinion of it (`choice` and `expert`: the
    bid as a number in a string, a card's face (a code, or `JU:red`, `SH:wizard`), the card
    passed, the Cloud's change `+1` or `-1`, or a suit)."""

    seq: int
    round: int
    kind: Literal["trump", "bid", "play", "pass", "adjust"]
    choice: str
    expert: str
    matched: bool
    points: float  # expected points of the expert's choice minus the caller's (≥ 0)


class GameAnalysis(TypedDict):
    """A finished game's review for one of its players: their own decisions only."""

    game: int
    seat: int
    decisions: list[ReviewedDecisionView]
    matched: int
    points: float  # summed over the decisions: the points the expert expects were left


class ReviewStats(TypedDict):
    """A player's decisions over all their reviewed games, against the expert's."""

    games: int
    decisions: int
    matched: int
    matched_share: float | None
    points_per_game: float | None


def finished_review(game_id: int) -> GameReview | None:
    return GameReview.objects.filter(game_id=game_id, finished_at__isnull=False).first()


def game_analysis(game_id: int, user: AnyUser) -> GameAnalysis:
    """The caller's decisions in a finished, reviewed game. NotFound for an unknown game and
    until the review is stored; NotAPlayer for anyone who did not sit at the table."""
    game = games.game_get(game_id)
    seat = games.seat_of(games.seats_of(game), user)
    if seat is None:
        raise NotAPlayer("Only the game's players see its review, each their own decisions.")
    review = finished_review(game.pk)
    if review is None:
        raise NotFound("This game has no review yet: it follows a minute or so after the end.")
    decisions = [decision_view(d) for d in review.decisions.filter(seat=seat)]
    return {
        "game": game.pk,
        "seat": seat,
        "decisions": decisions,
        "matched": sum(d["matched"] for d in decisions),
        "points": round(sum(d["points"] for d in decisions), 1),
    }


def decision_view(decision: ReviewedDecision) -> ReviewedDecisionView:
    return {
        "seq": decision.seq,
        "round": decision.round,
        "kind": decision.kind,  # type: ignore[typeddict-item]  # a DecisionKind value
        "choice": decision.choice,
        "expert": decision.expert_choice,
        "matched": decision.matched,
        "points": decision.points,
    }


def seat_opinions(game_id: int, seat: int | None) -> dict[int, ReviewedDecisionView] | None:
    """The review of one seat's decisions by event seq (for the replay); None until ready."""
    review = finished_review(game_id)
    if review is None:
        return None
    if seat is None:
        return {}
    return {d.seq: decision_view(d) for d in review.decisions.filter(seat=seat)}


def review_stats(user: User) -> ReviewStats:
    """How often the player chose as the expert would, and the points per game the expert
    expects they left on the table, over their reviewed games."""
    totals = ReviewedDecision.objects.filter(
        user=user, review__finished_at__isnull=False
    ).aggregate(
        games=Count("review", distinct=True),
        decisions=Count("pk"),
        matched=Count("pk", filter=Q(choice=F("expert_choice"))),
        points=Sum("points"),
    )
    games_count, decisions = totals["games"], totals["decisions"]
    return {
        "games": games_count,
        "decisions": decisions,
        "matched": totals["matched"],
        "matched_share": totals["matched"] / decisions if decisions else None,
        "points_per_game": round((totals["points"] or 0) / games_count, 1) if games_count else None,
    }
