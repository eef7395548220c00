"""Games, their seats, and the append-only event rows a game is rebuilt from."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.limits import CHAT_MAX_LENGTH
from games import engine
from games.difficulty import difficulty_of
from games.engine import RoundFormat, State


class GameStatus(models.TextChoices):
    OPEN = "open", _("open")
    ACTIVE = "active", _("active")
    FINISHED = "finished", _("finished")
    ABORTED = "aborted", _("aborted")


class Visibility(models.TextChoices):
    PUBLIC = "public", _("public")
    PRIVATE = "private", _("private")  # listed to its players only, joined with its invitation


class Spectators(models.TextChoices):
    EVERYONE = "everyone", _("everyone")
    FRIENDS = "friends", _("friends of a player")
    PLAYERS = "players", _("players only")


def new_invite_code() -> str:
    """An unguessable invitation code (96 random bits), for `/i/<code>/`."""
    return secrets.token_urlsafe(12)


def round_format(stored: str) -> RoundFormat:
    """R19's format as Game.rounds stores it, as the engine takes it: "full", "odd" or the
    number of rounds."""
    if stored == "full":
        return "full"
    if stored == "odd":
        return "odd"
    return int(stored)


class Game(models.Model):
    """One table: its options, its secret seed, and a cache of the engine state.

    `state`, `seq`, `to_act` and `deadline` are derived from the event rows (tested against a
    full replay) and kept here so a move need not replay the game.
    """

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(
        max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN, db_index=True
    )
    seats = models.PositiveSmallIntegerField()
    bots = models.PositiveSmallIntegerField(default=0)
    turn_seconds = models.PositiveIntegerField(default=60)  # up to 7 days (core.limits)
    hook_rule = models.BooleanField(default=True)
    blind_first_round = models.BooleanField(default=True)
    # A newcomer's first game against bots: the table offers a hint on each decision.
    guided = models.BooleanField(default=False)
    # Fair deal: the seed is secret until the game ends; its SHA-256 is public from the start.
    seed = models.CharField(max_length=64, editable=False)
    commitment = models.CharField(max_length=64, editable=False)
    seq = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True, editable=False)
    to_act = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    # The running turn was found long past its deadline (the timer was down) and given a
    # fresh limit once instead of an auto-move (games.services.moves.apply_overdue).
    turn_renewed = models.BooleanField(default=False)
    # R17: a voided game never counts; the league decides and records what counts.
    voided = models.BooleanField(default=False)
    # Who may join: at least this reliability (games.selectors.reliability), 0 for anyone.
    min_reliability = models.PositiveSmallIntegerField(default=0)
    # R19: "full", "odd" or a number N of rounds (1…N), as written; see round_format.
    rounds = models.CharField(max_length=4, default="full")
    # R20: the special cards' names as the API gives them ("dragon_fairy", "bomb"…), in R20's
    # order; empty for the classic game.
    special_cards = models.JSONField(default=list, blank=True)
    visibility = models.CharField(
        max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    spectators = models.CharField(
        max_length=8, choices=Spectators.choices, default=Spectators.EVERYONE
    )
    invite_code = models.CharField(
        max_length=24, unique=True, default=new_invite_code, editable=False
    )
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            # The league rates finished games in the order they ended.
            models.Index(
                fields=["finished_at", "id"],
                condition=models.Q(status="finished"),
                name="finished_order",
            ),
        ]
        permissions = [
            ("abort_game", "Can abort a running game"),
            ("void_game", "Can void a finished game"),
        ]

    @property
    def round_format(self) -> RoundFormat:
        return round_format(self.rounds)

    @property
    def special_codes(self) -> tuple[str, ...]:
        """R20: the codes of the special cards shuffled into this table's deck."""
        return engine.special_cards(self.special_cards)

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.status}, {self.seats} seats)"

    @property
    def is_over(self) -> bool:
        return self.status in (GameStatus.FINISHED, GameStatus.ABORTED)

    def engine_state(self) -> State | None:
        """The cached engine state, or None before the start."""
        return None if self.state is None else State.from_json(self.state)

    def set_engine_state(self, state: State) -> None:
        """Store a new engine state."""
        self.state = state.to_json()


class Seat(models.Model):
    """A place at a table, taken by a user or by a bot of some kind."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_set")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    bot_kind = models.CharField(max_length=20, blank=True, default="")
    joined_at = models.DateTimeField(auto_now_add=True)
    # Set when the game finishes, from its game_over event (R15: ties share a place).
    final_score = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    exact_bids = models.PositiveSmallIntegerField(null=True, blank=True)  # rounds bid exactly
    # R18: turn limits expired in a row, whether the player is away, and whether they resigned
    # (away for the rest of the game). Written under the game lock by games.services only.
    expiries = models.PositiveSmallIntegerField(default=0)
    away = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=models.Q(user__isnull=False),
                name="one_seat_per_user",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(user__isnull=False, bot_kind="")
                    | models.Q(user__isnull=True) & ~models.Q(bot_kind="")
                ),
                name="seat_is_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.number} of game {self.game_id}: {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def display_name(self) -> str:
        if self.user is not None:
            return self.user.get_username()
        level = difficulty_of(self.bot_kind) if self.bot_kind != "random" else None
        return f"{(level or self.bot_kind).title()} Bot {self.number + 1}"  # "Hard Bot 3"


class Event(models.Model):
    """One engine event of a game, append-only: never updated, never deleted."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=20)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    auto = models.BooleanField(default=False)
    payload = models.JSONField()
    # Set by the change that appends the row, the same instant its new turn's clock starts.
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.type}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValueError("Event rows are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise ValueError("Event rows are append-only.")


class Invitation(models.Model):
    """A player invited `user` to their table: the invited may join a private table without
    its code, and watch it whoever may watch."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_invitation_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} to game {self.game_id}"


class ChatMessage(models.Model):
    """A table's chat line: stored as plain text, shown escaped; a moderator may hide it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    text = models.CharField(max_length=CHAT_MAX_LENGTH)
    # A preset's key (games.chat_presets): each reader sees it in their language; the text
    # keeps the English for moderators.
    preset = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    hidden = models.BooleanField(default=False)
    hidden_at = models.DateTimeField(null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["game", "pk"]
        indexes = [models.Index(fields=["user", "created_at"], name="chat_rate")]
        permissions = [("hide_chatmessage", "Can hide chat messages")]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"
