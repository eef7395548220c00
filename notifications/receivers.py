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
    A notice that cannot be queued is lost, never the move's answer."""
    from notifications.tasks import turn_notify

    try:
        turn_notify.delay(user_id, game_id, seq)
    except Exception as error:
        log.warning("turn notice for user %s at game %s not queued: %r", user_id, game_id, error)
