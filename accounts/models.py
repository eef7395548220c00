"""Account standing: a suspension or ban says whether a user may play."""

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
