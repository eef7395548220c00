"""Play now (R28): a player's request to be seated with others at a new table."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.models import Game

SPEEDS = (30, 60, 300, 86400)  # R28: the turn limits a seek may ask for, in seconds
SIZES = (3, 4, 5, 6)
LIVE_BELOW = 3600  # R28: a speed under an hour is live (the seek needs an open socket)
SEATED_KEPT = timedelta(minutes=10)  # a seated seek stays readable this long (API.md)


class Deck(models.TextChoices):
    CLASSIC = "classic", "classic"
    ANNIVERSARY = "anniversary", "anniversary"  # all seven special cards of R20


class Seek(models.Model):
    """One player's seek (at most one: a new one replaces it), waiting until `game` is set;
    a seated seek is kept a while so its player can find the table."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek"
    )
    turn_seconds = models.PositiveIntegerField()
    sizes = models.JSONField()  # the table sizes accepted, ascending
    deck = models.CharField(max_length=11, choices=Deck.choices)
    bots_after = models.PositiveIntegerField(null=True, blank=True)  # seconds; None: no bots
    rating = models.FloatField()  # the player's rating in the deck's pool when they asked
    created_at = models.DateTimeField(default=timezone.now)
    game = models.ForeignKey(
        Game, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    seated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["seated_at", "turn_seconds", "deck", "created_at"], name="waiting")
        ]

    def __str__(self) -> str:
        return f"seek of {self.user_id}: {self.turn_seconds} s, {self.deck}, sizes {self.sizes}"

    def gone(self, now: datetime) -> bool:
        """A seated seek past keeping reads as no seek at all."""
        return self.seated_at is not None and self.seated_at < now - SEATED_KEPT
