"""League ratings and standings: all derived from league games (R17) and rebuildable."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game


class Pool(models.TextChoices):
    """R27: the league keeps two ratings, for games without and with special cards (R20)."""

    CLASSIC = "classic", _("Classic")
    ANNIVERSARY = "anniversary", _("Anniversary")


def pool_of(game: Game) -> Pool:
    """The pool a game rates into (R27): anniversary with any special card, else classic."""
    return Pool.ANNIVERSARY if game.special_cards else Pool.CLASSIC


class LeagueGame(models.Model):
    """The league's decision on one finished game (R17), in the order games were rated: `id`
    is the rating order every rebuild and replay follows."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="league_entry")
    counts = models.BooleanField(help_text="R17: every seat a distinct human, not voided")
    rated_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["id"], condition=models.Q(counts=True), name="counted")]

    def __str__(self) -> str:
        return f"game {self.game_id}: {'league' if self.counts else 'casual'}"


class Rating(models.Model):
    """A player's current rating in one pool (openskill Plackett-Luce) and all-time league
    counts there."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_ratings"
    )
    pool = models.CharField(max_length=12, choices=Pool.choices, default=Pool.CLASSIC)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True, help_text="mu − 3σ: the conservative rating shown")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "pool"], name="one_rating_per_pool")]
        indexes = [models.Index(fields=["pool", "-ordinal", "user"], name="rating_board")]

    def __str__(self) -> str:
        return f"{self.user_id} ({self.pool}): {self.ordinal:.2f}"


class RatingChange(models.Model):
    """One player's rating before and after one league game: the history a rebuild replays."""

    # Both keys are covered by the constraint and index below: no index of their own.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="rating_changes", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_index=False,
    )
    order = models.PositiveBigIntegerField(help_text="The game's rating order (LeagueGame.id)")
    pool = models.CharField(max_length=12, choices=Pool.choices, default=Pool.CLASSIC)
    at = models.DateTimeField()
    place = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        ordering = ["order", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_change_per_game_player")
        ]
        indexes = [models.Index(fields=["user", "pool", "order"], name="rating_history")]

    def __str__(self) -> str:
        return f"game {self.game_id}, user {self.user_id}: {self.ordinal:.2f}"


class SeasonStanding(models.Model):
    """A player's league results in one calendar month (a season), in one pool (R27)."""

    season = models.CharField(max_length=7, help_text="YYYY-MM")
    pool = models.CharField(max_length=12, choices=Pool.choices, default=Pool.CLASSIC)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="season_standings"
    )
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    points = models.IntegerField(default=0)
    ordinal = models.FloatField(help_text="The rating after the player's last game of the month")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["season", "pool", "user"], name="one_standing_per_season"
            )
        ]
        indexes = [models.Index(fields=["season", "pool", "-ordinal", "user"], name="season_board")]

    def __str__(self) -> str:
        return f"{self.season} {self.user_id}"


class LeagueLock(models.Model):
    """One row, locked while one game is rated, so ratings apply in one order everywhere.

    `replay_from`: after a game's membership changed, the rating order from which games are
    still to be re-rated, one per transaction."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    replay_from = models.PositiveBigIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return "league lock"
