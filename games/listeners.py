"""Which channel-layer groups sockets of *other* processes listen to, as a web process knows it
(games.layers sends every other group's messages without Redis).

Two sources: every REFRESH_SECONDS the process asks Redis which group channels have
subscribers and how many are its own (PUBSUB CHANNELS and NUMSUB); and a process whose socket
is the first of its own to join a group says so at once, on the control channel every web
process hears, so the others know before that socket has read its first view. An answer older
than TRUSTED_FOR is not used (Redis unreachable): everything then goes through Redis.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any

import redis.asyncio as aioredis
from channels_redis.utils import create_pool

log = logging.getLogger(__name__)

REFRESH_SECONDS = 1.0
TRUSTED_FOR = 2 * REFRESH_SECONDS
ME = uuid.uuid4().hex  # this process, in what it announces


class Listeners:
    """What this process knows; read from any thread, written by the push loop's tasks."""

    def __init__(self) -> None:
        self.elsewhere: frozenset[str] = frozenset()  # as last looked up
        self.looked_up_at = float("-inf")  # monotonic time that look-up was asked for
        self.announced: dict[str, float] = {}  # channel: when another process said it joined

    def known(self) -> bool:
        return time.monotonic() - self.looked_up_at <= TRUSTED_FOR

    def heard_elsewhere(self, channel: str) -> bool:
        return channel in self.elsewhere or channel in self.announced

    def answer(self, elsewhere: set[str], asked: float) -> None:
        """A look-up's answer; announcements heard before it was asked are in it."""
        self.elsewhere, self.looked_up_at = frozenset(elsewhere), asked
        self.announced = {c: at for c, at in list(self.announced.items()) if at >= asked}

    def hear(self, data: bytes) -> None:
        sender, _, channel = data.decode().partition(" ")
        if sender != ME:
            self.announced[channel] = time.monotonic()


def control_channel(loop_layer: Any) -> str:
    return f"{loop_layer.prefix}__listening"


async def announce(loop_layer: Any, channel: str) -> None:
    """Tell the other web processes that this one now listens to `channel` (best effort: the
    next look-up finds it anyway)."""
    control = control_channel(loop_layer)
    shard = loop_layer._get_shard(control)
    try:
        async with shard._lock:
            shard._ensure_redis()
            await shard._redis.publish(control, f"{ME} {channel}")
    except Exception as error:
        log.info("joining %s not announced: %r", channel, error)


async def watch(listeners: Listeners, loop_layer: Any, here: Any) -> None:
    """Forever: hear the announcements, and look up every REFRESH_SECONDS. `here()` gives
    this process's groups and, for a channel, how many of its own subscriptions hear it."""
    hearing = asyncio.ensure_future(hear_announcements(listeners, loop_layer))
    failing = False
    try:
        while True:
            try:
                await look_up(listeners, loop_layer, here)
            except Exception as error:
                if not failing:  # once an outage, not every second of it
                    log.warning("listeners elsewhere unknown (pushes go through Redis): %r", error)
                failing = True
            else:
                failing = False
            await asyncio.sleep(REFRESH_SECONDS)
    finally:
        hearing.cancel()


async def look_up(listeners: Listeners, loop_layer: Any, here: Any) -> None:
    """Ask Redis, as watch does every REFRESH_SECONDS."""
    asked = time.monotonic()
    pattern = loop_layer._get_group_channel_name("*")
    groups, subscribed_here = here()
    elsewhere: set[str] = set()
    for shard in loop_layer._shards:
        async with shard._lock:
            shard._ensure_redis()
            client = shard._redis
            listened = [channel.decode() for channel in await client.pubsub_channels(pattern)]
            shared = [channel for channel in listened if channel in groups]
            counts = await client.pubsub_numsub(*shared) if shared else []
        elsewhere.update(channel for channel in listened if channel not in groups)
        elsewhere.update(
            channel.decode()
            for channel, count in counts
            if count > subscribed_here(channel.decode())
        )
    listeners.answer(elsewhere, asked)


async def hear_announcements(listeners: Listeners, loop_layer: Any) -> None:
    """Announcements, on a connection of their own (resubscribed after a lost connection)."""
    control = control_channel(loop_layer)
    host = loop_layer._get_shard(control).host
    while True:
        client = aioredis.Redis(connection_pool=create_pool(host))
        try:
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(control)
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        listeners.hear(message["data"])
        except Exception as error:
            log.info("announcements unheard for a moment: %r", error)
        finally:
            await client.aclose(close_connection_pool=True)
        await asyncio.sleep(REFRESH_SECONDS)
