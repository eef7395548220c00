"""Pushes never block or break a move, a task or each other: worker threads publishing at
once never hang or lose a message, a frozen Redis costs a push at most about a second, and
pushes work again once Redis is back, with no dead pooled connection."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer

from games import push
from tests.faults.conftest import PrivateRedis

GROUP = "faults-group"


@pytest.fixture
def worker_push(private_redis: PrivateRedis, settings: Any) -> Iterator[PrivateRedis]:
    """This process pushes as a Celery worker does, to the private Redis."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": private_redis.url, **settings.REDIS_HOST_OPTIONS}]},
        }
    }
    yield private_redis


class Listener:
    """A socket's side, in a thread with its own loop: subscribed to GROUP before any push,
    counting what arrives until a quiet second."""

    def __init__(self, url: str) -> None:
        self.layer = RedisPubSubChannelLayer(hosts=[{"address": url}])
        self.ready = threading.Event()
        self.count = 0
        self.thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)
        self.thread.start()
        assert self.ready.wait(10), "the listener did not subscribe"

    async def _listen(self) -> None:
        channel = await self.layer.new_channel()
        await self.layer.group_add(GROUP, channel)
        self.ready.set()
        try:
            while True:
                await asyncio.wait_for(self.layer.receive(channel), self.quiet)
                self.count += 1
        except TimeoutError:
            pass
        finally:
            await self.layer.flush()

    quiet = 3.0

    def received(self) -> int:
        self.thread.join(timeout=60)
        return self.count


def test_two_worker_threads_publishing_at_once_never_hang_or_break(
    worker_push: PrivateRedis,
) -> None:
    listener = Listener(worker_push.url)
    get_channel_layer()  # the process's layer, as a worker has it
    errors: list[BaseException] = []

    def publish(thread: int) -> None:
        try:
            for n in range(50):
                push.send(GROUP, {"type": "chat.hidden", "id": thread * 1000 + n})
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=publish, args=(n,)) for n in range(2)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a publishing thread hung"
    assert time.monotonic() - started < 20 and not errors
    assert listener.received() == 100


def test_a_frozen_redis_costs_a_push_about_a_second_and_pushes_work_after_it(
    worker_push: PrivateRedis,
) -> None:
    listener = Listener(worker_push.url)
    push.send(GROUP, {"type": "chat.hidden", "id": 1})  # the pool holds a live connection now
    worker_push.freeze()
    try:
        started = time.monotonic()
        push.send(GROUP, {"type": "chat.hidden", "id": 2})  # dropped, logged
        waited = time.monotonic() - started
    finally:
        worker_push.thaw()
    assert waited < push.PUSH_TIMEOUT + 1.0, waited

    push.send(GROUP, {"type": "chat.hidden", "id": 3})
    # Message 1 for sure; 3 must arrive too: no dead pooled connection after the freeze.
    assert listener.received() >= 2
