"""Whether a user has a socket of this site open (a game socket or `ws/me/`), across processes.

A count per user in the shared cache (Redis in production, so every web process sees it):
each socket adds one when it opens and takes it back when it closes, and refreshes the key's
expiry while it lives. A web process that dies without closing its sockets leaves the count
too high only until the key expires, REFRESH_SECONDS * 3 after the user's last live socket
stopped refreshing it. Notifications read it (nothing is pushed for a live table while the
player is connected), and so does each seat's `online` in the game view: a user's tables get
a fresh view when their first socket opens and when their last one closes. Each process also
counts its own sockets, so a user with a socket in this process is known to be connected
without asking the cache; for sockets elsewhere, a cache that fails counts as "not
connected", so a notice is sent rather than lost.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from asgiref.sync import sync_to_async
from django.core.cache import cache

log = logging.getLogger(__name__)

REFRESH_SECONDS = 30
TTL_SECONDS = REFRESH_SECONDS * 3
CALL_TIMEOUT = 1.0  # a socket never waits longer than this on the cache

_here: Counter[int] = Counter()  # open sockets of this process, by user (its loop's thread)


def _key(user_id: int) -> str:
    return f"sockets-open-{user_id}"


def _opened(user_id: int) -> int:
    key = _key(user_id)
    cache.add(key, 0, TTL_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, count := 1, TTL_SECONDS)
    cache.touch(key, TTL_SECONDS)
    return count


def _closed(user_id: int) -> int:
    try:
        return cache.decr(_key(user_id))
    except ValueError:  # expired: nothing to take back
        return 0


def _refresh(user_id: int) -> None:
    if not cache.touch(_key(user_id), TTL_SECONDS):
        cache.add(_key(user_id), 1, TTL_SECONDS)  # expired under a live socket: it counts again


def connected_here(user_id: int) -> bool:
    """True while the user has a socket open in this process (no cache asked)."""
    return _here[user_id] > 0


def online(user_ids: Iterable[int]) -> set[int]:
    """Those of these users who have a socket open, asking the cache once for those with none
    in this process; none of those if the cache fails."""
    ids = set(user_ids)
    found = {user_id for user_id in ids if connected_here(user_id)}
    elsewhere = {_key(user_id): user_id for user_id in ids - found}
    if not elsewhere:
        return found
    try:
        counts = cache.get_many(list(elsewhere))
    except Exception as error:
        log.warning("presence of users %s unknown: %r", sorted(elsewhere.values()), error)
        return found
    return found | {elsewhere[key] for key, count in counts.items() if int(count or 0) > 0}


def is_connected(user_id: int) -> bool:
    """True while the user has at least one socket open: in this process, or (to the best of
    the cache's count) in any."""
    if connected_here(user_id):
        return True
    try:
        return int(cache.get(_key(user_id)) or 0) > 0
    except Exception as error:  # an unreachable cache: say not connected, so notices go out
        log.warning("presence of user %s unknown: %r", user_id, error)
        return False


async def _call(function: Callable[[int], Any], user_id: int) -> Any:
    """Best effort and bounded: a socket opens and closes whatever the cache does (None when
    the cache failed)."""
    try:
        call = sync_to_async(function, thread_sensitive=False)
        return await asyncio.wait_for(call(user_id), CALL_TIMEOUT)
    except Exception as error:
        log.warning("presence of user %s not recorded: %r", user_id, error)
        return None


class Presence:
    """One open socket of one user: counted from `start()` until `stop()`. `first`: the user
    had no other socket open when this one started."""

    def __init__(self, user_id: int) -> None:
        self.user_id = user_id
        self.first = False
        self._beat: asyncio.Task[None] | None = None

    async def start(self) -> Presence:
        _here[self.user_id] += 1
        self.first = await _call(_opened, self.user_id) == 1
        self._beat = asyncio.create_task(self._refreshing())
        return self

    async def stop(self) -> bool:
        """Stop counting; True if that was the user's last open socket (or the cache could not
        say)."""
        if self._beat is None:
            return False
        self._beat.cancel()
        self._beat = None
        _here[self.user_id] -= 1
        if _here[self.user_id] <= 0:
            del _here[self.user_id]
        left = await _call(_closed, self.user_id)  # None: the cache failed, so tell anyway
        return (left is None or left <= 0) and not connected_here(self.user_id)

    async def _refreshing(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            await _call(_refresh, self.user_id)
