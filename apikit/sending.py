"""Celery tasks sent off the caller's thread, for the whole site.

A move's answer never waits on the broker, frozen or down (kombu retries for seconds first:
tests/faults make a move answer within 5 s while Redis is frozen). One sender thread a process
(a ThreadPoolExecutor of one), at once where tasks run eagerly (the tests). A send that fails
is logged and dropped: every task sent here has a safety net that needs only PostgreSQL (the
turn timer's sweep, R16; the league's and the review's sweeps)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)
_sender = ThreadPoolExecutor(max_workers=1, thread_name_prefix="task-sender")


def after_commit(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`send(task, args, **options)` once the transaction commits (Celery's delay_on_commit
    would send on the committing thread)."""
    transaction.on_commit(lambda: send(task, args, **options))


def send(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`task.apply_async(args, **options)` on the sender thread."""
    call(lambda: task.apply_async(args, **options))


def call(work: Callable[[], Any]) -> None:
    """`work()` on the sender thread (at once where tasks run eagerly): for a send that first
    asks the cache whether it is needed at all. Its errors are logged."""
    if current_app.conf.task_always_eager:
        work()
        return
    _sender.submit(_logged, work)


def _logged(work: Callable[[], Any]) -> None:
    try:
        work()
    except Exception as error:  # the broker is unreachable: the sweep stands in
        log.warning("task dropped, broker unavailable: %r", error)
