"""Notices (pushes and mails) go to a queue of their own, `notifications`, taken by a worker of
their own in both Procfiles; the main worker, which runs bots' steps and the turn timer, takes
only the default queue. So a push service that hangs never holds up a bot or a timer (the
whole stack is shown in tests/faults/test_hung_push_service.py)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from django.conf import settings

from games import tasks as game_tasks
from notifications import tasks as notice_tasks
from wizardsite.celery import app

NOTICE_TASKS = [
    notice_tasks.push_send.name,
    notice_tasks.device_send.name,
    notice_tasks.turn_notify.name,
    notice_tasks.turn_remind.name,
    notice_tasks.remind_due.name,
    notice_tasks.invite_notify.name,
    notice_tasks.table_notify.name,
]
GAME_TASKS = [game_tasks.bot_step.name, game_tasks.turn_expire.name, game_tasks.expire_turns.name]


def queue_of(task: str) -> str:
    name: str = app.amqp.router.route({}, task)["queue"].name
    return name


@pytest.mark.parametrize("task", NOTICE_TASKS)
def test_every_notice_task_goes_to_the_notifications_queue(task: str) -> None:
    assert queue_of(task) == "notifications"


def test_no_notice_task_is_left_out() -> None:
    assert sorted(name for name in app.tasks if name.startswith("notifications.")) == sorted(
        NOTICE_TASKS
    )


@pytest.mark.parametrize("task", GAME_TASKS)
def test_bots_and_timers_stay_on_the_default_queue(task: str) -> None:
    assert queue_of(task) == app.conf.task_default_queue == "celery"


def procfile(name: str) -> dict[str, list[str]]:
    lines = (Path(settings.BASE_DIR) / name).read_text().splitlines()
    return {
        line.split(":", 1)[0]: shlex.split(line.split(":", 1)[1])
        for line in lines
        if line.strip() and not line.startswith("#")
    }


def queues(argv: list[str]) -> list[str]:
    assert argv.count("--queues") == 1, argv
    return argv[argv.index("--queues") + 1].split(",")


@pytest.mark.parametrize("name", ["Procfile", "Procfile.production"])
def test_each_procfile_runs_a_notify_worker_and_the_main_worker_takes_the_default_queue_only(
    name: str,
) -> None:
    processes = procfile(name)
    assert queues(processes["worker"]) == ["celery"]
    assert queues(processes["notify"]) == ["notifications"]
    assert "--hostname" in processes["notify"]
    consumers = [p for p, argv in processes.items() if "--queues" in argv and p != "beat"]
    assert [p for p in consumers if "notifications" in queues(processes[p])] == ["notify"]
