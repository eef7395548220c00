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

The same counts, by game, say how many sockets watch a table without a seat at it, and, by
address, how many signed-out sockets one address holds; and the moment a user's last socket
closed is kept for a day, so a table can say "offline 5 min".
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Self

from asgiref.sync import sync_to_async
from django.core.cache import cache

log = logging.getLogger(__name__)

REFRESH_SECONDS = 30
TTL_SECONDS = REFRESH_SECONDS * 3
SEEN_SECONDS = 24 * 3600  # how long the moment a user's last socket closed is kept
CALL_TIMEOUT = 1.0  # a socket never waits longer than this on the cache

_here: Counter[int] = Counter()  # open sockets of this process, by user (its loop's thread)


def _key(user_id: int) -> str:
    return f"sockets-open-{user_id}"


def _watch_key(game_id: int) -> str:
    return f"sockets-watching-{game_id}"


def _seen_key(user_id: int) -> str:
    return f"last-seen-{user_id}"


def _add(key: str) -> int:
    cache.add(key, 0, TTL_SECONDS)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, count := 1, TTL_SECONDS)
    cache.touch(key, TTL_SECONDS)
    return count


def _take(key: str) -> int:
    try:
        return cache.decr(key)
    except ValueError:  # expired: nothing to take back
        return 0


def _keep(key: str) -> None:
    if not cache.touch(key, TTL_SECONDS):
        cache.add(key, 1, TTL_SECONDS)  # expired under a live socket: it counts again


def _opened(user_id: int) -> int:
    return _add(_key(user_id))


def _closed(user_id: int) -> int:
    left = _take(_key(user_id))
    if left <= 0:
        cache.set(_seen_key(user_id), time.time(), SEEN_SECONDS)
    return left


def last_seen(user_ids: Iterable[int]) -> dict[int, float]:
    """When each of these users closed their last socket (Unix time), where the cache knows:
    for a day after, and not across a lost cache."""
    keys = {_seen_key(user_id): user_id for user_id in user_ids}
    try:
        found = cache.get_many(list(keys))
    except Exception as error:
        log.warning("last sockets of users %s unknown: %r", sorted(keys.values()), error)
        return {}
    return {keys[key]: float(moment) for key, moment in found.items()}


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


def watchers(game_id: int) -> int:
    """How many sockets watch the game without a seat at it (0 if the cache fails)."""
    try:
        return max(0, int(cache.get(_watch_key(game_id)) or 0))
    except Exception as error:
        log.warning("spectators of game %s unknown: %r", game_id, error)
        return 0


async def _call(function: Callable[[Any], Any], arg: int | str) -> Any:
    """Best effort and bounded: a socket opens and closes whatever the cache does (None when
    the cache failed)."""
    try:
        call = sync_to_async(function, thread_sensitive=False)
        return await asyncio.wait_for(call(arg), CALL_TIMEOUT)
    except Exception as error:
        log.warning("socket count %s not recorded: %r", arg, error)
        return None


async def _refreshing(key: str) -> None:
    """While a socket lives: its count's key does not expire."""
    while True:
        await asyncio.sleep(REFRESH_SECONDS)
        await _call(_keep, key)


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
        self._beat = asyncio.create_task(_refreshing(_key(self.user_id)))
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


class Counted:
    """One socket counted under a key of the shared cache, from `start()` until `stop()`;
    `count`: the key's count with this socket in it (None when the cache could not say)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.count: int | None = None
        self._beat: asyncio.Task[None] | None = None

    async def start(self) -> Self:
        self.count = await _call(_add, self.key)
        self._beat = asyncio.create_task(_refreshing(self.key))
        return self

    async def stop(self) -> None:
        if self._beat is not None:
            self._beat.cancel()
            self._beat = None
            await _call(_take, self.key)


class Watching(Counted):
    """One socket watching a game without a seat at it (the players' page shows how many)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(_watch_key(game_id))


class FromAddress(Counted):
    """One signed-out socket among those from its address, whatever it is open to."""

    def __init__(self, address: str) -> None:
        super().__init__(f"sockets-from-{address}")
