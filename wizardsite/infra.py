"""Hand-written infrastructure of the site as a whole: a workaround for a kombu bug.

A Celery worker must survive a lost broker connection (Redis restarted or killed). With kombu
5.7.0, the newest release, it does not: on the lost connection the worker first collects the
connection and then closes it; the close restores the unacked messages (the ETA tasks the worker
holds) through the collected connection, fails with AttributeError, and the worker stops
("Unrecoverable error") instead of reconnecting. No kombu release fixes it and no upstream
report matches it (the nearest, celery/celery#10205, is a reset connection's restore_visible);
kombu is pinned to 5.7 (KOMBU_PIN) so that a new kombu is checked before the pin moves
(tests/faults/test_process_faults.py kills Redis under a worker).

The workaround skips that restore when the connection is already gone: the messages stay in
Redis's unacked set, which Redis's visibility timeout gives back (after a Redis restart they are
gone anyway), and the turn timer's sweep stands in for any of them meanwhile (R16)."""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)

KOMBU_PIN = (5, 7)  # pyproject.toml: kombu>=5.7,<5.8

_restore_unacked: Any = kombu_redis.QoS.restore_unacked


def _restore_unless_disconnected(self: Any, client: Any = None) -> Any:
    if client is None and getattr(self.channel.connection, "client", None) is None:
        log.warning("broker connection lost: unacked tasks are left to the visibility timeout")
        return None
    return _restore_unacked(self, client)


def install_kombu_workaround() -> None:
    """Once per process, before the worker starts."""
    kombu_redis.QoS.restore_unacked = _restore_unless_disconnected  # type: ignore[method-assign]
