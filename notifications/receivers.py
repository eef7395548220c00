"""What the notifications do when the games announce something (after its commit)."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def on_turn_started(
    sender: Any, game_id: int, user_id: int, seq: int, deadline: datetime, **_: Any
) -> None:
    """A decision became a person's: a worker decides what to send them, off the move path
    (games send this signal from `transaction.on_commit`, never inside a move's transaction)."""
    from notifications.tasks import turn_notify

    turn_notify.delay(user_id, game_id, seq)
