"""The expert's review of a finished game: one row per game, one per reviewed human decision."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game


class GameReview(models.Model):
    """Claimed once per game by the first review task (the unique game); done when finished."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    claimed_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    budget_ms = models.PositiveIntegerField()  # the search each decision was given

    def __str__(self) -> str:
        return f"review of game {self.game_id}"


class DecisionKind(models.TextChoices):
    TRUMP = "trump", "trump"
    BID = "bid", "bid"
    PLAY = "play", "play"
    PASS = "pass", "pass"  # R24
    ADJUST = "adjust", "adjust"  # R24


class ReviewedDecision(models.Model):
    """One decision a player made themselves (not the timer's), and the expert's opinion of it."""

    review = models.ForeignKey(GameReview, on_delete=models.CASCADE, related_name="decisions")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()  # the decision's event
    seat = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=6, choices=DecisionKind.choices)
    # A bid's number, a card's face (`R7`, `JU:red`, `SH:wizard`), `+1` or `-1`, a suit.
    choice = models.CharField(max_length=16)
    expert_choice = models.CharField(max_length=16)
    # Expected points (R14) of the expert's choice minus the player's, from its own search (≥ 0).
    points = models.FloatField()

    class Meta:
        ordering = ["review", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["review", "seq"], name="one_opinion_per_decision")
        ]
        indexes = [models.Index(fields=["user", "review"], name="reviewed_by_user")]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} {self.choice} (expert: {self.expert_choice})"

    @property
    def matched(self) -> bool:
        return self.choice == self.expert_choice
