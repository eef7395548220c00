"""What a player wants to be told, where to push it, and what was sent already."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class NotificationSettings(models.Model):
    """One player's choices. No row yet means the defaults: e-mail on, push off until the
    player subscribes a browser or an app."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    email_turns = models.BooleanField(default=True)
    push_turns = models.BooleanField(default=False)
    # The language the player last used on the site: their mails and pushes are in it.
    language = models.CharField(max_length=10, blank=True, default="")

    def __str__(self) -> str:
        return f"notifications of {self.user}"


class PushSubscription(models.Model):
    """One browser's or app's Web Push subscription (the keys its push service gave it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user}"


class Platform(models.TextChoices):
    FCM = "fcm", "Firebase Cloud Messaging (Android)"
    APNS = "apns", "Apple Push Notification service (iOS)"


class Device(models.Model):
    """A phone app's registration for native push: the token its platform's service gave it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    platform = models.CharField(max_length=4, choices=Platform.choices)
    token = models.CharField(max_length=512)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["platform", "token"], name="one_device_per_token")
        ]

    def __str__(self) -> str:
        return f"{self.platform} device {self.pk} of {self.user}"


class Kind(models.TextChoices):
    TURN_MAIL = "turn_mail", "turn mail"
    REMINDER_MAIL = "reminder_mail", "reminder mail"
    TURN_PUSH = "turn_push", "turn push"
    REMINDER_PUSH = "reminder_push", "reminder push"


class Sent(models.Model):
    """A notice claimed for one turn (the game at event `seq`): inserting the row is the claim,
    so a duplicate or retried task finds it taken and sends nothing."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created = models.DateTimeField(auto_now_add=True, db_index=True)  # pruned by age

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game", "seq", "kind"], name="one_notice_per_turn_and_kind"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} for game {self.game_id} at {self.seq}"


class NoticeKind(models.TextChoices):
    FOLLOW = "follow", "follow"
    INVITE = "invite", "invitation"
    TOURNAMENT_TABLE = "tournament_table", "tournament table"
    REMATCH = "rematch", "rematch"
    SUSPENSION = "suspension", "suspension lifted"
    WARNING = "warning", "moderator's warning"


class Notice(models.Model):
    """What a toast or a push told a player, kept for the notices page: its kind, the names
    and ids its text is written from (in the reader's language when read), and its link."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    kind = models.CharField(max_length=20, choices=NoticeKind.choices)
    params = models.JSONField(default=dict)
    url = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    read = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["user", "-created_at"], name="notices_newest_first")]

    def __str__(self) -> str:
        return f"{self.kind} notice for {self.user_id}"
