"""The Celery app: the worker runs the turn-timer sweep that Celery beat schedules."""

from __future__ import annotations

import os
from datetime import timedelta

from celery import Celery

from wizardsite import task_metrics  # noqa: F401  (its signal handlers)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wizardsite.settings")

app = Celery("wizardsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

app.conf.beat_schedule = {
    # R16: find expired turns and auto-move them; each run is dropped if not started within a
    # second, so a busy worker never works through a backlog of identical sweeps.
    "expire-turns": {
        "task": "games.tasks.expire_turns",
        "schedule": timedelta(seconds=1),
        "options": {"expires": 1.0},
    },
    # Play now (R28): end absent players' live seeks and seat what the waiting ones allow.
    "seeks": {
        "task": "seeks.tasks.sweep",
        "schedule": timedelta(seconds=1),
        "options": {"expires": 1.0},
    },
    # The league rates each game when it ends; this sweep catches any whose task was lost.
    "rate-games": {
        "task": "league.tasks.rate_games",
        "schedule": timedelta(seconds=30),
        "options": {"expires": 30.0},
    },
    # Reminders an hour before a correspondence turn's deadline (notifications.turns).
    "remind-due": {
        "task": "notifications.tasks.remind_due",
        "schedule": timedelta(seconds=60),
        "options": {"expires": 60.0},
    },
    # Tournaments (T3, T4, T6): start or cancel at their time, count ended games, seat the next
    # Swiss round, form arena tables (T4's 30 seconds), end what is over.
    "tournaments": {
        "task": "tournaments.tasks.sweep",
        "schedule": timedelta(seconds=5),
        "options": {"expires": 5.0},
    },
    # The review starts when a game ends; this sweep reviews any whose task was lost.
    "review-games": {
        "task": "review.tasks.review_games",
        "schedule": timedelta(minutes=1),
        "options": {"expires": 60.0},
    },
}
