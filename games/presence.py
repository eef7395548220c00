"""The socket registry: which sockets of this site are open, across every web process
(docs/architecture.md, "A socket's counts"). Every call is bounded and best effort: a socket
opens and closes whatever Redis does, and a failed read says "not connected", so a notice is
sent rather than lost."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import cache
from typing import Any, TypedDict, TypeVar
from weakref import WeakKeyDictionary

import fakeredis
import redis
import redis.asyncio
from django.conf import settings
from redis.asyncio.client import Pipeline
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger(__name__)
T = TypeVar("T")

CLOSE_TOO_MANY_SOCKETS = 4429  # HTTP's 429 in the application range of close codes
SEEN_SECONDS = 24 * 3600  # how long the moment a user's last socket closed is kept
SEEN_KEY = "sockets:seen"  # user id → that moment plus SEEN_SECONDS
CALL_TIMEOUT = 1.0  # a socket never waits longer than this on the registry
# A view or a worker waits about 0.5 s at most on Redis; a connection that died with a Redis
# restart is replaced once, with no wait (the Retry of each client).
OPTIONS: dict[str, Any] = {"socket_timeout": 0.5, "socket_connect_timeout": 0.5}

_open: dict[str, Socket] = {}  # this process's sockets in the registry, by member
_here: Counter[int] = Counter()  # and by user (read from any thread)
_beat: list[_Heartbeat] = []  # the running loop's (a test runs each in a loop of its own)


class SocketEvicted(TypedDict):
    """Sent to a socket's channel: its user opened one too many, and it is their oldest."""

    type: str  # "socket.evicted"


def user_key(user_id: int) -> str:
    return f"sockets:user:{user_id}"


def watch_key(game_id: int) -> str:
    return f"sockets:watch:{game_id}"


def me_key(user_id: int) -> str:
    """The user's `ws/me/` sockets: only a user with one hears their turns and games."""
    return f"sockets:me:{user_id}"


def from_key(address: str) -> str:
    return f"sockets:from:{address}"


def ttl_seconds() -> int:
    """How long a member counts unrefreshed: three refreshes (two may be lost)."""
    return int(settings.SOCKET_REFRESH_SECONDS) * 3


def limit() -> int | None:
    """The most sockets a user may hold; None when off (0, or rate limits disabled)."""
    most = int(settings.MAX_SOCKETS_PER_USER)
    return most if most > 0 and settings.RATE_LIMITS_ENABLED else None


def address_limit() -> int | None:
    """The most signed-out sockets (game, lobby, tournament) of one address; None when off."""
    most = int(settings.MAX_ANONYMOUS_SOCKETS_PER_ADDRESS)
    return most if most > 0 and settings.RATE_LIMITS_ENABLED else None


class RedisStore:
    """The sets at `url`, or (none: tests, a quick look) in a fakeredis server of this process."""

    def __init__(self, url: str) -> None:
        self.reader: redis.Redis  # for views and workers, from their threads
        self._connect: Callable[[], redis.asyncio.Redis]  # for sockets, in their event loop
        if url:
            retry = Retry(NoBackoff(), 1)
            self.reader = redis.Redis.from_url(url, retry=retry, decode_responses=True, **OPTIONS)
            self._connect = lambda: redis.asyncio.Redis.from_url(
                url, retry=AsyncRetry(NoBackoff(), 1), decode_responses=True, **OPTIONS
            )
        else:
            fake = fakeredis.FakeServer()
            self.reader = fakeredis.FakeRedis(server=fake, decode_responses=True)
            self._connect = lambda: fakeredis.FakeAsyncRedis(server=fake, decode_responses=True)
        self._writers: WeakKeyDictionary[Any, redis.asyncio.Redis] = WeakKeyDictionary()

    def _writer(self) -> redis.asyncio.Redis:
        """The running loop's client (an asyncio client serves one loop only)."""
        if (loop := asyncio.get_running_loop()) not in self._writers:
            self._writers[loop] = self._connect()
        return self._writers[loop]

    async def add(self, key: str, member: str, expiry: float) -> list[str]:
        """Count `member` under `key` until `expiry`; the key's live members after, in one
        MULTI/EXEC (two sockets opening at once never both see themselves alone)."""
        async with self._writer().pipeline(transaction=True) as pipe:
            _put(pipe, key, member, expiry)
            pipe.zrange(key, 0, -1)
            *_, members = await pipe.execute()
        return list(members)

    async def remove(self, keys: Sequence[str], member: str) -> list[int]:
        """Take `member` out of each key; how many live members each has left, in one step."""
        async with self._writer().pipeline(transaction=True) as pipe:
            for key in keys:
                pipe.zremrangebyscore(key, "-inf", time.time())
                pipe.zrem(key, member)
                pipe.zcard(key)
            return [int(left) for left in (await pipe.execute())[2::3]]

    async def refresh(self, members: Sequence[tuple[str, str]], expiry: float) -> None:
        """Each (key, member) counts until `expiry`, added again if it had gone."""
        async with self._writer().pipeline(transaction=False) as pipe:
            for key, member in members:
                _put(pipe, key, member, expiry)
            await pipe.execute()

    def counts(self, keys: Sequence[str]) -> list[int]:
        """How many live members (scored after now) each key has, in one round trip."""
        with self.reader.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zcount(key, f"({time.time()}", "+inf")
            return [int(count) for count in pipe.execute()]

    def expiries(self, key: str, members: Sequence[str]) -> list[float | None]:
        """Each member's score under `key` (None: not there), stale or not."""
        return self.reader.zmscore(key, list(members)) if members else []


def _put(pipe: Pipeline, key: str, member: str, expiry: float) -> None:
    """Drop the key's stale members (a killed process's sockets), count `member` until `expiry`
    and let the key expire with it (EXPIRE is relative: Redis's clock does not matter)."""
    pipe.zremrangebyscore(key, "-inf", time.time())
    pipe.zadd(key, {member: expiry})
    pipe.expire(key, max(1, math.ceil(expiry - time.time())))


_store_at = cache(RedisStore)


def store() -> RedisStore:
    """The sets of this site: REDIS_URL's, or this process's."""
    return _store_at(settings.REDIS_URL)


class Socket:
    """One open socket in the registry until `close()`: "<when it opened> <its channel>"."""

    def __init__(self, channel: str) -> None:
        self.member = f"{time.time():.6f} {channel}"
        self.user_id: int | None = None
        self.keys: list[str] = []
        self.siblings: list[str] = []  # its user's live sockets when it joined them

    async def join(self, key: str) -> list[str] | None:
        """Count this socket under `key`; the key's live members with it (None: unknown)."""
        _open[self.member] = self
        self.keys.append(key)
        _heartbeat().start()
        return await _bounded(store().add(key, self.member, time.time() + ttl_seconds()), key)

    async def join_user(self, user_id: int) -> bool:
        """Count this socket as one of the user's; True if it is their only one."""
        self.user_id = user_id
        _here[user_id] += 1
        self.siblings = await self.join(user_key(user_id)) or []
        return self.siblings == [self.member] and _here[user_id] == 1

    def oldest_past(self, most: int) -> list[str]:
        """The channels of the user's oldest sockets past `most`, by opening time."""
        ordered = sorted(self.siblings, key=lambda member: (float(member.split()[0]), member))
        return [member.split(" ", 1)[1] for member in ordered[: max(0, len(ordered) - most)]]

    async def close(self) -> bool:
        """Stop counting; True if that was its user's last socket (or Redis could not say)."""
        keys, self.keys, user_id = self.keys, [], self.user_id
        if not keys:
            return False
        del _open[self.member]
        if user_id is not None:
            _here[user_id] -= 1
            if _here[user_id] <= 0:
                del _here[user_id]
        async with _heartbeat().lock:  # no refresh in flight puts this socket back
            left = await _bounded(store().remove(keys, self.member), "close")
        if user_id is None or connected_here(user_id):
            return False
        if left is not None and left[keys.index(user_key(user_id))] > 0:
            return False
        seen = [(SEEN_KEY, str(user_id))]
        await _bounded(store().refresh(seen, time.time() + SEEN_SECONDS), "last seen")
        return True


async def refresh() -> None:
    """Every socket of this process counts for another TTL (one pipeline)."""
    async with _heartbeat().lock:
        members = [(key, socket.member) for socket in list(_open.values()) for key in socket.keys]
        if members:
            await _bounded(store().refresh(members, time.time() + ttl_seconds()), "refresh")


class _Heartbeat:
    """This process's one refresh of its sockets, in their loop; `lock` orders it with closes."""

    def __init__(self) -> None:
        self.loop, self.lock = asyncio.get_running_loop(), asyncio.Lock()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._beating())

    async def _beating(self) -> None:
        while _open:
            await asyncio.sleep(int(settings.SOCKET_REFRESH_SECONDS))
            await refresh()


def _heartbeat() -> _Heartbeat:
    if not _beat or _beat[0].loop is not asyncio.get_running_loop():
        _beat[:] = [_Heartbeat()]
    return _beat[0]


async def _bounded(call: Awaitable[T], what: str) -> T | None:
    """The call, or None (logged) if it failed or took over CALL_TIMEOUT."""
    try:
        return await asyncio.wait_for(call, CALL_TIMEOUT)
    except Exception as error:
        log.warning("socket registry (%s) not written: %r", what, error)
        return None


def connected_here(user_id: int) -> bool:
    """True while the user has a socket open in this process (Redis not asked)."""
    return _here[user_id] > 0


def online(user_ids: Iterable[int]) -> set[int]:
    """Those of these users with a socket open; Redis asked once, for those with none here."""
    ids = set(user_ids)
    elsewhere = sorted(user_id for user_id in ids if not connected_here(user_id))
    counts = _counts([user_key(user_id) for user_id in elsewhere], "presence of users")
    live = {user_id for user_id, count in zip(elsewhere, counts, strict=True) if count}
    return ids.difference(elsewhere) | live


def is_connected(user_id: int) -> bool:
    """True while the user has a socket open, here or (as far as Redis can say) elsewhere."""
    return user_id in online([user_id])


def listening(user_ids: Iterable[int]) -> set[int]:
    """Those of these users with a `ws/me/` socket open in any process; all of them if Redis
    cannot say (a notice is sent rather than lost). No users, no call."""
    ids = sorted(set(user_ids))
    counts = _counts([me_key(user_id) for user_id in ids], "ws/me/ sockets", unknown=1)
    return {user_id for user_id, count in zip(ids, counts, strict=True) if count}


def watchers(game_id: int) -> int:
    """How many sockets watch the game without a seat at it (0 if Redis fails)."""
    return _counts([watch_key(game_id)], "spectators")[0]


def _counts(keys: list[str], what: str, unknown: int = 0) -> list[int]:
    """Each key's live sockets in every process; `unknown` for each (logged) if Redis fails.
    No keys, no call."""
    if not keys:
        return []
    try:
        return store().counts(keys)
    except Exception as error:
        log.warning("%s %s unknown: %r", what, keys, error)
        return [unknown] * len(keys)


def last_seen(user_ids: Iterable[int]) -> dict[int, float]:
    """When each of these users closed their last socket (Unix time), for a day after."""
    ids = sorted(set(user_ids))
    try:
        found = store().expiries(SEEN_KEY, [str(user_id) for user_id in ids])
    except Exception as error:
        log.warning("last sockets of users %s unknown: %r", ids, error)
        return {}
    now = time.time()
    return {
        user_id: expiry - SEEN_SECONDS
        for user_id, expiry in zip(ids, found, strict=True)
        if expiry is not None and expiry > now
    }
