"""Account standing (a suspension or ban says whether a user may play), and who follows or
blocks whom."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Suspension(models.Model):
    """A player barred from playing: until a moment, or for good (a ban)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="suspension"
    )
    until = models.DateTimeField(null=True, blank=True, help_text=_("Empty with 'banned'."))
    banned = models.BooleanField(default=False)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    def __str__(self) -> str:
        return f"{self.user} banned" if self.banned else f"{self.user} suspended until {self.until}"

    @property
    def in_force(self) -> bool:
        return self.banned or (self.until is not None and self.until > timezone.now())


class VerifiedEmail(models.Model):
    """The address a player proved they read (by the signed link mailed to it). It counts only
    while it is still the account's address; an address is verified by one account at most,
    in any case."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="verified_email"
    )
    email = models.EmailField()
    verified_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(Lower("email"), name="one_account_per_verified_email")
        ]

    def __str__(self) -> str:
        return f"{self.email} verified by {self.user}"


class Follow(models.Model):
    """One player follows another; two who follow each other are friends."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    """One player blocks another: neither may join a table where the other sits, follow or
    invite the other, and the blocker hears none of the other's chat."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class RetiredUsername(models.Model):
    """The name of a deleted account: never handed out again, so nobody can pass for the player
    in the games and tables that still show it."""

    username = models.CharField(max_length=150)
    retired_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("username"), name="retire_a_name_once")]

    def __str__(self) -> str:
        return self.username
