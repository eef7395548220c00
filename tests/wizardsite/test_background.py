"""`python -m wizardsite.background COMMAND`: the command runs at the lowest CPU priority (the
review worker's, Procfile), with its arguments and exit status."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = "import os, sys; print(os.sched_getscheduler(0), os.nice(0)); sys.exit(3)"


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's SCHED_IDLE")
def test_the_command_runs_under_sched_idle_with_its_arguments_and_exit_status() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wizardsite.background", sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3, done.stderr
    policy, _ = done.stdout.split()
    assert int(policy) == os.SCHED_IDLE


def test_without_a_command_it_says_how_to_use_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wizardsite.background"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and "usage" in done.stderr


def test_the_review_has_a_queue_and_a_worker_of_its_own() -> None:
    from django.conf import settings

    from review.tasks import review_game

    routes = settings.CELERY_TASK_ROUTES
    assert routes["review.tasks.*"] == {"queue": "review"}
    assert review_game.name.startswith("review.tasks.")
    for procfile in ("Procfile", "Procfile.production"):
        with open(procfile) as lines:
            review = [line for line in lines if line.startswith("review:")]
        assert len(review) == 1 and "wizardsite.background celery" in review[0]
        assert "--queues review" in review[0]
