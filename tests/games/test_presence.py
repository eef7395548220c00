"""The socket registry (games.presence) on its store (this process's, or Redis where REDIS_URL
is set): a count is the number of live members of a set, so "first" and "last" are read off
the set itself, a killed process's sockets stop counting once their TTL passes, and a set lost
under live sockets (Redis restarted, a key expired) comes back with exactly the sockets that
are open."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Sequence

import pytest

from games import presence
from tests.games.elsewhere import count, expire, put, take

pytestmark = pytest.mark.asyncio


@pytest.fixture
def user() -> int:
    """A user id of this test's own, whatever a store shared with other runs holds (no row is
    needed: the registry knows ids only)."""
    return 10**12 + secrets.randbelow(10**12)


@pytest.fixture
def game() -> int:
    return 10**12 + secrets.randbelow(10**12)


def counted_elsewhere(user_id: int) -> int:
    """How many sockets another process reads for the user (nothing of this one's own)."""
    return count(presence.user_key(user_id))


async def test_the_first_socket_and_the_last_are_read_off_the_users_set(user: int) -> None:
    first, second = presence.Socket("specific.a"), presence.Socket("specific.b")
    assert await first.join_user(user) is True
    assert await second.join_user(user) is False
    assert counted_elsewhere(user) == 2
    assert await second.close() is False
    assert await first.close() is True
    assert counted_elsewhere(user) == 0 and not presence.is_connected(user)
    assert abs(presence.last_seen([user])[user] - time.time()) < 5


async def test_a_close_is_not_the_last_while_a_socket_of_another_process_lives(user: int) -> None:
    other = put(presence.user_key(user))
    here = presence.Socket("specific.here")
    assert await here.join_user(user) is False  # the user was online already
    assert await here.close() is False
    assert presence.is_connected(user) and presence.last_seen([user]) == {}
    take(presence.user_key(user), other)
    assert not presence.is_connected(user)


async def test_a_killed_processes_sockets_never_count_and_the_next_write_drops_them(
    user: int, game: int
) -> None:
    key = presence.user_key(user)
    dead = put(key, expiry=time.time() - 1)  # its process stopped refreshing it a TTL ago
    put(presence.watch_key(game), expiry=time.time() - 1)
    assert presence.online([user]) == set() and presence.watchers(game) == 0
    here = presence.Socket("specific.here")
    assert await here.join_user(user) is True
    assert presence.store().expiries(key, [dead]) == [None]  # dropped by the write
    assert await here.close() is True


async def test_sockets_whose_members_expired_under_them_are_put_back_each_and_no_more(
    user: int,
) -> None:
    """The bug of the per-user count: once its key had expired under live sockets, a refresh
    set it back to 1 whatever was open, and the next close made it 0 ("last", offline) while
    another socket was still open."""
    key = presence.user_key(user)
    first, second = presence.Socket("specific.a"), presence.Socket("specific.b")
    await first.join_user(user)
    await second.join_user(user)
    expire(key)
    assert counted_elsewhere(user) == 0  # expired under their feet

    await presence.refresh()  # this process's one heartbeat
    assert counted_elsewhere(user) == 2
    assert await second.close() is False
    assert counted_elsewhere(user) == 1  # still online, as every process reads it
    assert await first.close() is True


async def test_a_refresh_in_flight_never_puts_back_a_socket_that_closed_meanwhile(
    monkeypatch: pytest.MonkeyPatch, user: int
) -> None:
    kind = type(presence.store())
    real = kind.refresh
    started = asyncio.Event()

    async def slow(
        self: presence.RedisStore, members: Sequence[tuple[str, str]], expiry: float
    ) -> None:
        started.set()
        await asyncio.sleep(0.05)  # as a round trip to Redis takes a while
        await real(self, members, expiry)

    monkeypatch.setattr(kind, "refresh", slow)
    socket = presence.Socket("specific.a")
    await socket.join_user(user)
    refreshing = asyncio.create_task(presence.refresh())
    await started.wait()  # the refresh holds this socket's member
    assert await socket.close() is True
    await refreshing
    assert counted_elsewhere(user) == 0


async def test_a_game_counts_the_sockets_that_watch_it(game: int) -> None:
    watchers = [presence.Socket(f"specific.{n}") for n in range(2)]
    for socket in watchers:
        await socket.join(presence.watch_key(game))
    put(presence.watch_key(game))  # one more, in another process
    assert presence.watchers(game) == 3
    assert await watchers[0].close() is False  # signed out: no user to be last of
    assert presence.watchers(game) == 2
    await watchers[1].close()


async def test_only_users_with_a_me_socket_open_are_listening(user: int) -> None:
    member = put(presence.me_key(user))
    assert presence.listening([user, user + 1]) == {user}
    expire(presence.me_key(user))
    assert presence.listening([user]) == set()
    take(presence.me_key(user), member)
    assert presence.listening([]) == set()


async def test_users_are_listening_when_redis_cannot_say(
    user: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing(keys: Sequence[str]) -> list[int]:
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(presence.store(), "counts", failing)
    assert presence.listening([user, user + 1]) == {user, user + 1}


async def test_the_oldest_sockets_past_the_limit_are_those_opened_first_wherever(user: int) -> None:
    key, now = presence.user_key(user), time.time()
    for opened, channel in ((now - 30, "old"), (now - 10, "young"), (now - 20, "middle")):
        put(key, channel=channel, opened=opened)
    here = presence.Socket("specific.here")
    await here.join_user(user)
    assert here.oldest_past(2) == ["old", "middle"]
    assert here.oldest_past(4) == []
    await here.close()
