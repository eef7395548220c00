"""Pushes never block or break a move, a task or each other: worker threads publishing at
once share one loop (no pool closed under another thread), a frozen Redis costs a push at most
about a second, and pushes work again once Redis is back, with no dead pooled connection."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

from games import push
from tests.faults.conftest import PrivateRedis

GROUP = "faults-group"


@pytest.fixture
def worker_push(private_redis: PrivateRedis, settings: Any) -> Iterator[PrivateRedis]:
    """This process pushes as a Celery worker does, to the private Redis."""
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": [{"address": private_redis.url, **settings.REDIS_HOST_OPTIONS}]},
        }
    }
    own = push._own_loop
    push._own_loop = None
    push.use_own_loop()
    try:
        yield private_redis
    finally:
        push._own_loop = own


def listen(url: str) -> tuple[RedisChannelLayer, str]:
    layer = RedisChannelLayer(hosts=[{"address": url}])

    async def join() -> str:
        channel: str = await layer.new_channel()
        await layer.group_add(GROUP, channel)
        return channel

    return layer, asyncio.run(join())


def received(layer: RedisChannelLayer, channel: str, wait: float = 2.0) -> int:
    async def drain() -> int:
        count = 0
        try:
            while True:
                await asyncio.wait_for(layer.receive(channel), wait)
                count += 1
        except TimeoutError:
            return count
        finally:
            await layer.close_pools()

    return asyncio.run(drain())


def test_two_worker_threads_publishing_at_once_never_hang_or_break(
    worker_push: PrivateRedis,
) -> None:
    layer, channel = listen(worker_push.url)
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
    assert received(layer, channel) == 100


def test_a_frozen_redis_costs_a_push_about_a_second_and_pushes_work_after_it(
    worker_push: PrivateRedis,
) -> None:
    layer, channel = listen(worker_push.url)
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
    assert received(layer, channel) >= 2
