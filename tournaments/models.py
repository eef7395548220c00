"""Tournaments (T1–T6): the event, its players and its tables. Each table is an ordinary game
of the games app; the tournament only remembers which games are its own."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game, Visibility, new_invite_code


class Format(models.TextChoices):
    SWISS = "swiss", "Swiss"  # T3
    ARENA = "arena", "Arena"  # T4


class Status(models.TextChoices):
    UPCOMING = "upcoming", "upcoming"
    RUNNING = "running", "running"
    FINISHED = "finished", "finished"
    CANCELLED = "cancelled", "cancelled"  # T6: fewer than 3 players at its time


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    format = models.CharField(max_length=5, choices=Format.choices)
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.UPCOMING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_created"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)  # an arena's end; a Swiss's last game
    table_size = models.PositiveSmallIntegerField(default=4)
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)  # Swiss (T3)
    minutes = models.PositiveIntegerField(null=True, blank=True)  # arena (T4)
    round = models.PositiveSmallIntegerField(null=True, blank=True)  # the Swiss round in play
    # The tables' options (T1): R16, R8, R9, R19 (as Game.rounds stores it), R20 (API names).
    turn_seconds = models.PositiveIntegerField()
    hook_rule = models.BooleanField(default=True)
    blind_first_round = models.BooleanField(default=True)
    rounds_format = models.CharField(max_length=8, default="full")
    special_cards = models.JSONField(default=list, blank=True)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    invite_code = models.CharField(
        max_length=24, unique=True, default=new_invite_code, editable=False
    )
    featured = models.BooleanField(default=False)  # staff show it on the home page

    class Meta:
        ordering = ["starts_at", "pk"]
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due")]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_format_display()}, {self.status})"


class Entry(models.Model):
    """A player of a tournament and their standing (T2); `waiting_since` is set while an arena
    player is free and waits for a table (T4)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    withdrawn = models.BooleanField(default=False)  # T5
    points = models.IntegerField(default=0)  # place points (T2)
    wizard_points = models.IntegerField(default=0)
    exact_bids = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    firsts_in_row = models.PositiveSmallIntegerField(default=0)  # T4's streak
    waiting_since = models.DateTimeField(null=True, blank=True)
    last_mates = models.JSONField(default=list, blank=True)  # user ids of the last table (T4)

    class Meta:
        ordering = ["tournament", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_a_player")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament_id}"


class TournamentTable(models.Model):
    """One game of a tournament: the Swiss round it belongs to (an arena numbers its tables
    in order) and whether its result is in the standings yet."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tournament_table")
    counted = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "round", "pk"]

    def __str__(self) -> str:
        return f"round {self.round} of {self.tournament_id}: game {self.game_id}"
