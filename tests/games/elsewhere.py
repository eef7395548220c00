"""Sockets of another web process, as the socket registry sees them in tests: members of a
set that no socket here holds, written straight into the registry's Redis (this process's
fakeredis server, or REDIS_URL's) as their own process would write and refresh them."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager

from games import presence

_numbers = itertools.count(1)


def count(key: str) -> int:
    """How many live sockets any process reads under `key`."""
    return presence.store().counts([key])[0]


def put(
    key: str, *, channel: str = "", opened: float | None = None, expiry: float | None = None
) -> str:
    """A member under `key` as another process's socket adds it (on `channel`, else a made-up
    one), opened at `opened` and counting until `expiry` (by default now, and a TTL on)."""
    moment = time.time() if opened is None else opened
    member = f"{moment:.6f} {channel or f'elsewhere.{next(_numbers)}'}"
    until = time.time() + presence.ttl_seconds() if expiry is None else expiry
    _write(key, {member: until})
    return member


def take(key: str, member: str) -> None:
    """That member gone, as when its socket closes."""
    presence.store().reader.zrem(key, member)


def expire(key: str) -> None:
    """Every member under `key` expired, as if no process had refreshed it for a TTL."""
    members = presence.store().reader.zrange(key, 0, -1)
    _write(key, dict.fromkeys(members, time.time() - 1))


@contextmanager
def open_elsewhere(*user_ids: int) -> Iterator[None]:
    """While it lasts, each of these users has a socket open in another web process."""
    keys = [presence.user_key(user_id) for user_id in user_ids]
    members = [(key, put(key)) for key in keys]
    try:
        yield
    finally:
        for key, member in members:
            take(key, member)


def _write(key: str, scores: dict[str, float]) -> None:
    if scores:
        presence.store().reader.zadd(key, scores)
        presence.store().reader.expire(key, presence.ttl_seconds() * 2)
