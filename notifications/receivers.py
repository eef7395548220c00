"""What the notifications do when the games announce something (after its commit)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

log = logging.getLogger(__name__)


def on_turn_started(
    sender: Any, game_id: int, user_id: int, seq: int, deadline: datetime, **_: Any
) -> None:
    """A decision became a person's: a worker decides what to send them, off the move path
    (games send this signal from `transaction.on_commit`, never inside a move's transaction).
    The send goes off this thread (games.enqueue): a frozen broker never holds up the move, and
    a notice that cannot be queued is lost, never the move's answer."""
    from games import enqueue
    from notifications.tasks import turn_notify

    try:
        enqueue.after_commit(turn_notify, (user_id, game_id, seq))
    except Exception as error:  # where tasks run eagerly (tests), the send happens right here
        log.warning("turn notice for user %s at game %s not queued: %r", user_id, game_id, error)
