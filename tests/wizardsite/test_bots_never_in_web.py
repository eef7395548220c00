"""Production never runs a task where it is sent: a bot thinks only in the Celery worker."""

from __future__ import annotations

import importlib
import os
from unittest import mock


def test_production_sends_every_task_to_the_worker() -> None:
    env = {"SECRET_KEY": "x" * 50, "REDIS_URL": "", "DATABASE_URL": "sqlite:///x.sqlite3"}
    with mock.patch.dict(os.environ, env):
        production = importlib.import_module("wizardsite.settings.production")
        production = importlib.reload(production)
    assert production.CELERY_TASK_ALWAYS_EAGER is False
