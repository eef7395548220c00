"""Celery's figures: how long a task waited between being sent (or its eta) and starting.

The time is stamped into the message's headers as it is published and read back when a worker
starts the task; only Celery's public signals are used."""

from __future__ import annotations

import contextlib
import time
from datetime import datetime
from typing import Any

from celery import signals
from prometheus_client import Histogram

from core import logcontext

SENT_AT_HEADER = "wizard_sent_at"

task_delay = Histogram(
    "wizard_task_delay_seconds",
    "From a task's publication (or its eta) to the start of its run, by queue.",
    ["queue"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60),
)


def _stamp_sent_at(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    if headers is not None:
        headers[SENT_AT_HEADER] = time.time()


def _observe_delay(task: Any = None, **kwargs: Any) -> None:
    # A worker thread runs one task after another: no game of an earlier task stays on its lines.
    logcontext.game_id.set(None)
    logcontext.request_id.set(None)
    if task is None:
        return
    request = task.request
    sent_at = request.get(SENT_AT_HEADER) or (request.get("headers") or {}).get(SENT_AT_HEADER)
    if not isinstance(sent_at, int | float):
        return  # run where it was sent (eager), or published without the stamp
    due = float(sent_at)
    eta = request.get("eta")
    if isinstance(eta, str):
        with contextlib.suppress(ValueError):  # not an ISO time: counted from its sending
            due = max(due, datetime.fromisoformat(eta).timestamp())
    queue = (request.get("delivery_info") or {}).get("routing_key") or "celery"
    task_delay.labels(queue=str(queue)).observe(max(0.0, time.time() - due))


signals.before_task_publish.connect(_stamp_sent_at, weak=False)
signals.task_prerun.connect(_observe_delay, weak=False)
