from __future__ import annotations

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from accounts.signals import followed
        from games.signals import game_invited, turn_started
        from notifications.receivers import on_followed, on_invited, on_turn_started

        turn_started.connect(on_turn_started, dispatch_uid="notifications-turn-started")
        game_invited.connect(on_invited, dispatch_uid="notifications-invited")
        followed.connect(on_followed, dispatch_uid="notifications-followed")
