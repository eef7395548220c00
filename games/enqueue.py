"""Celery tasks sent once the transaction that made them due has committed, without ever holding
up the caller: a move's answer (or a worker's task) never waits on the broker.

A task is sent on commit (`after_commit`). A bot's step is sent once the outermost game
transaction (`game_transaction`, every service that writes a game) has committed, and counted
there (`after_game_transaction`): under eager Celery (the tests) the step then runs before the
service returns, and the caller reads the game again. Sends go through one daemon thread per
process; a send that fails (the broker down or frozen: kombu retries, then gives up) is logged
and dropped, since every task sent here has a safety net that needs only PostgreSQL (the turn
timer's sweep and the catch-up on every read, R16)."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from celery import current_app
from django.db import transaction

log = logging.getLogger(__name__)

_sends: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
_sender: threading.Thread | None = None
_sender_lock = threading.Lock()
_local = threading.local()


@dataclass
class Sent:
    """What a game transaction sent after its commit."""

    tasks: int = 0


def _open() -> list[list[Callable[[], None]]]:
    """The sends of each game transaction whose body is running on this thread, innermost last."""
    stack: list[list[Callable[[], None]]] | None = getattr(_local, "open", None)
    if stack is None:
        stack = _local.open = []
    return stack


@contextmanager
def game_transaction() -> Iterator[Sent]:
    """One service's transaction; the tasks it makes due are sent once it has committed.

    The outermost is durable (Django refuses to nest it in another transaction, so leaving it
    means committed) and nested services' tasks wait for it; a failed one sends nothing. Work
    that its commit starts (an eager task) runs in transactions of its own.
    """
    stack = _open()
    outermost = not stack
    sends: list[Callable[[], None]] = [] if outermost else stack[-1]
    sent = Sent()
    stack.append(sends)
    with transaction.atomic(durable=outermost):
        try:
            yield sent
        finally:
            stack.pop()
    if outermost:
        for send_one in sends:
            sent.tasks += 1
            send_one()


def after_commit(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`send(task, args, **options)` once the transaction commits."""
    transaction.on_commit(lambda: send(task, args, **options))


def after_game_transaction(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`send(task, args, **options)` once the outermost game transaction this runs in has
    committed, counted in its Sent (outside one: on commit)."""
    stack = _open()
    if stack:
        stack[-1].append(lambda: send(task, args, **options))
    else:
        after_commit(task, args, **options)


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
