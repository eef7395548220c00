"""A worker that survives a lost broker connection (Redis restarted or killed).

With celery 5.7 and kombu 5.7, a worker that loses its Redis connection first collects the
connection and then closes it; the close restores the unacked messages (the ETA tasks the
worker holds) through the collected connection, fails with AttributeError, and the worker
stops ("Unrecoverable error") instead of reconnecting. Here that restore is skipped when the
connection is already gone: the messages stay in Redis's unacked set, which Redis's visibility
timeout gives back (after a Redis restart they are gone anyway), and the turn timer's sweep
stands in for any of them meanwhile (R16)."""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)

_restore_unacked: Any = kombu_redis.QoS.restore_unacked


def _restore_unless_disconnected(self: Any, client: Any = None) -> Any:
    if client is None and getattr(self.channel.connection, "client", None) is None:
        log.warning("broker connection lost: unacked tasks are left to the visibility timeout")
        self._delivered.clear()
        return None
    return _restore_unacked(self, client)


def install() -> None:
    """Once per process, before the worker starts."""
    kombu_redis.QoS.restore_unacked = _restore_unless_disconnected  # type: ignore[method-assign]
