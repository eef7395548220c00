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
END = -1  # the id of the last message a test pushes


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
    keeping the id of each message that arrives until the test's END message. Each push
    returns once Redis has run its PUBLISH, and Redis delivers a subscriber's messages in the
    order it ran them: whatever was pushed before END has arrived when END does."""

    within = 30.0  # END arrives within this after the last message, or the test fails

    def __init__(self, url: str) -> None:
        self.layer = RedisPubSubChannelLayer(hosts=[{"address": url}])
        self.ready = threading.Event()
        self.ids: list[int] = []
        self.ended = False
        self.thread = threading.Thread(target=lambda: asyncio.run(self._listen()), daemon=True)
        self.thread.start()
        assert self.ready.wait(10), "the listener did not subscribe"

    async def _listen(self) -> None:
        channel = await self.layer.new_channel()
        await self.layer.group_add(GROUP, channel)
        self.ready.set()
        try:
            while True:
                message = await asyncio.wait_for(self.layer.receive(channel), self.within)
                if message["id"] == END:
                    self.ended = True
                    return
                self.ids.append(message["id"])
        except TimeoutError:
            pass
        finally:
            await self.layer.flush()

    def received(self) -> list[int]:
        """Pushes END, as the worker pushes; the ids that arrived before it."""
        push.send(GROUP, {"type": "chat.hidden", "id": END})
        self.thread.join(timeout=self.within + 10)
        assert self.ended, f"the end message did not arrive within {self.within:g} s"
        return self.ids


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
    sent = [thread * 1000 + n for thread in range(2) for n in range(50)]
    assert sorted(listener.received()) == sent  # none lost, none twice


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
    received = listener.received()
    assert 1 in received and 3 in received, received
