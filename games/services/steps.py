"""Sending the next bot step to the worker once the transaction that made it due has committed.

A bot never thinks in a web request nor under the game lock: the service that makes a bot's
turn (or the blind trick's next card, R9) due sends `tasks.bot_step`, and the task lets the bot
choose from the committed state before it locks the game (`moves.bot_step`). With
BOT_MOVE_DELAY_MS=0 the task is sent at once; under eager Celery (the tests) it runs right
after the service's transaction, so the caller's answer includes the bots' replies.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import transaction


@dataclass
class Sent:
    """What a game transaction sent after its commit."""

    steps: int = 0


_local = threading.local()


def _open() -> list[list[Callable[[], None]]]:
    """The sends of each game transaction whose body is running on this thread, innermost last."""
    stack: list[list[Callable[[], None]]] | None = getattr(_local, "open", None)
    if stack is None:
        stack = _local.open = []
    return stack


@contextmanager
def game_transaction() -> Iterator[Sent]:
    """One service's transaction; the steps it makes due are sent once it has committed.

    The outermost is durable (Django refuses to nest it in another transaction, so leaving it
    means committed) and nested services' steps wait for it; a failed one sends nothing. Work
    that its commit starts (an eager task sent on commit) runs in transactions of its own.
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
        for send in sends:
            sent.steps += 1
            send()


def after_transaction(send: Callable[[], None]) -> None:
    """Call `send` once the current game transaction has committed (outside one: on commit)."""
    stack = _open()
    if stack:
        stack[-1].append(send)
    else:
        transaction.on_commit(send)
