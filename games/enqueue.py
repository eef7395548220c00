"""Celery tasks sent without ever holding up the caller: a move's answer (or a worker's task)
never waits on the broker.

Sends go through one daemon thread per process (at once where tasks run eagerly: the tests); a
send that fails (the broker down or frozen: kombu retries, then gives up) is logged and
dropped, since every task sent here has a safety net that needs only PostgreSQL (the turn
timer's sweep, R16)."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)

_sends: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
_sender: threading.Thread | None = None
_sender_lock = threading.Lock()


def after_commit(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`send(task, args, **options)` once the transaction commits."""
    transaction.on_commit(lambda: send(task, args, **options))


def send(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`task.apply_async(args, **options)` off this thread (at once where tasks run eagerly:
    the test settings)."""
    call(lambda: task.apply_async(args, **options))


def call(work: Callable[[], Any]) -> None:
    """`work()` on the sender thread, where sends go (at once where tasks run eagerly); for a
    send that first asks the cache whether it is needed at all. Its errors are logged."""
    if current_app.conf.task_always_eager:
        work()
    else:
        _put(work)


def _put(work: Callable[[], Any]) -> None:
    global _sender
    with _sender_lock:
        if _sender is None or not _sender.is_alive():
            _sender = threading.Thread(target=_send_forever, name="task-sender", daemon=True)
            _sender.start()
    _sends.put(work)


def _send_forever() -> None:
    while True:
        work = _sends.get()
        try:
            work()
        except Exception as error:  # the broker is unreachable: the sweep stands in
            log.warning("task dropped, broker unavailable: %r", error)
