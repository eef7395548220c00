"""Players' reports and the moderators' audit log (sanctions themselves live in accounts)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ReportStatus(models.TextChoices):
    OPEN = "open", _("open")
    RESOLVED = "resolved", _("resolved")


class ReportCategory(models.TextChoices):
    """What a report is about, as the player picks it (API.md: `category`)."""

    INSULT = "insult", _("Insult or abuse")
    CHEATING = "cheating", _("Cheating or collusion")
    SPAM = "spam", _("Spam")
    OTHER = "other", _("Something else")


class Report(models.Model):
    """A player's report of another player or of a chat message, for the moderators' queue."""

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received"
    )
    message = models.ForeignKey(
        "games.ChatMessage", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    category = models.CharField(
        max_length=10, choices=ReportCategory.choices, default=ReportCategory.OTHER
    )
    reason = models.TextField(blank=True, help_text=_("The reporter's note, if they wrote one"))
    status = models.CharField(
        max_length=10, choices=ReportStatus.choices, default=ReportStatus.OPEN, db_index=True
    )
    resolution = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        db_table = "accounts_report"  # made when reports lived in accounts
        ordering = ["status", "-created_at"]
        permissions = [("resolve_report", "Can resolve reports")]

    def __str__(self) -> str:
        return f"report #{self.pk} on {self.reported}"


class AuditLog(models.Model):
    """One moderator action: who did what to what, why, and when. Never edited or deleted."""

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    target_type = models.CharField(max_length=40)
    target_id = models.CharField(max_length=40)
    target = models.CharField(max_length=200, help_text=_("What the target was, in words"))
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "accounts_auditlog"  # made when the log lived in accounts
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.moderator} {self.action} {self.target}"
