"""The channel layer: channels_redis's pub/sub layer, plus a push of many groups' messages that
goes through Redis only where another process listens."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from channels_redis.pubsub import RedisPubSubChannelLayer

from games import listeners
from games.listeners import Listeners

# For each KEY: PUBLISH its ARGV when the channel has more subscribers than this process holds
# itself (the count after the messages), that is when another process listens. Returns 1 for
# each message published, 0 for each left to this process.
PUBLISH_ELSEWHERE = """
local count = #KEYS
local published = {}
for i = 1, count do
  published[i] = 0
  if redis.call('PUBSUB', 'NUMSUB', KEYS[i])[2] > tonumber(ARGV[count + i]) then
    redis.call('PUBLISH', KEYS[i], ARGV[i])
    published[i] = 1
  end
end
return published
"""

M = TypeVar("M", bound=Mapping[str, Any])
Message = tuple[str, dict[str, Any]]
Item = tuple[str, bytes]  # a group's channel name and a serialized message


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """A move's push is a message per seat group, one for the watch group and a few for the
    players' `ws/me/` sockets. Each message still goes to its own group only.

    A web process keeps up (`watch_listeners`, games.listeners) with the groups that sockets
    of other processes listen to. A message to any other group never touches Redis: `send_here`
    puts it straight into the queues of this process's sockets in that group, as the
    subscriber would have (none, when nobody listens). The rest, and everything a process
    without that knowledge sends (a Celery worker), goes to `group_send_many`: one script call
    per Redis host publishes each message whose group another process subscribes to, and this
    process's own sockets get the others from their queues."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.listeners = Listeners()

    def send_here(self, messages: Sequence[tuple[str, M]]) -> list[tuple[str, M]]:
        """From any thread: deliver each message whose group no other process listens to (as
        asked at most TRUSTED_FOR ago) to this process's sockets; returns the others, in
        order, for group_send_many (all of them without a fresh answer)."""
        known = self.listeners
        if not known.known():
            return list(messages)
        here: list[Item] = []
        rest: list[tuple[str, M]] = []
        for group, message in messages:
            channel = self._group_channel(group)
            if known.heard_elsewhere(channel):
                rest.append((group, message))
            else:
                here.append((channel, self.serialize(message)))
        self._deliver_here(here)
        return rest

    async def group_send_many(self, messages: Sequence[Message]) -> None:
        """Each message to the subscribers of its group, in order, one round trip per host."""
        # channels_redis keeps one connection set per event loop: use this loop's.
        layer = self._get_layer()
        by_shard: dict[Any, list[Item]] = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            shard = layer._get_shard(channel)
            by_shard.setdefault(shard, []).append((channel, self.serialize(message)))
        for shard, items in by_shard.items():
            # Counted before the script runs: a subscription still on its way is not counted,
            # so its channel is published and the subscriber hears it (never neither).
            own = [self._subscribed_here(channel) for channel, _ in items]
            # The shard's lock orders this call with its other publishes and subscriptions.
            async with shard._lock:
                shard._ensure_redis()
                client = shard._redis
                # One script object per client (a flush makes a new one); it loads itself
                # into Redis when Redis does not know it.
                known = shard.__dict__.get("_publish_elsewhere")
                if known is None or known[0] is not client:
                    known = shard.__dict__["_publish_elsewhere"] = (
                        client,
                        client.register_script(PUBLISH_ELSEWHERE),
                    )
                keys = [channel for channel, _ in items]
                published = await known[1](keys=keys, args=[data for _, data in items] + own)
            self._deliver_here(
                [item for item, sent in zip(items, published, strict=True) if not sent]
            )

    async def watch_listeners(self) -> None:
        """Forever: keep up with which groups sockets of other processes listen to."""
        await listeners.watch(self.listeners, self._get_layer(), self._here)

    async def look_up_listeners(self) -> None:
        """Ask Redis now who listens elsewhere (as watch_listeners does every second)."""
        await listeners.look_up(self.listeners, self._get_layer(), self._here)

    async def group_add(self, group: str, channel: str) -> None:
        """As channels_redis's, and the first socket of this process in a group tells the
        other web processes at once (games.listeners)."""
        layer = self._get_layer()
        group_channel = layer._get_group_channel_name(group)
        first = group_channel not in layer.groups
        await layer.group_add(group, channel)
        if first:
            await listeners.announce(layer, group_channel)

    def _here(self) -> tuple[set[str], Callable[[str], int]]:
        loop_layers = list(self._layers.values())
        groups = {channel for loop_layer in loop_layers for channel in list(loop_layer.groups)}
        return groups, self._subscribed_here

    def _group_channel(self, group: str) -> str:
        return f"{self._kwargs.get('prefix', 'asgi')}__group__{group}"

    def _subscribed_here(self, channel: str) -> int:
        """How many of this process's subscriptions to Redis hear `channel` (one per event
        loop with sockets in its group). A loop whose last member left counts none from the
        moment it forgets the group, before it unsubscribes."""
        return sum(
            channel in loop_layer.groups
            and channel in loop_layer._get_shard(channel)._subscribed_to
            for loop_layer in list(self._layers.values())
        )

    def _deliver_here(self, items: list[Item]) -> None:
        """Into the queue of each socket of this process in each group, in order, in the
        socket's own event loop."""
        if not items:
            return
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # a move's thread
            running = None
        for loop, loop_layer in list(self._layers.items()):
            if not any(channel in loop_layer.groups for channel, _ in items):
                continue
            if loop is running:
                _deliver(loop_layer, items)
            elif not loop.is_closed():
                with contextlib.suppress(RuntimeError):  # closed meanwhile: no sockets left
                    loop.call_soon_threadsafe(_deliver, loop_layer, items)


def _deliver(loop_layer: Any, items: list[Item]) -> None:
    for channel, data in items:
        for member in tuple(loop_layer.groups.get(channel, ())):
            queue = loop_layer.channels.get(member)
            if queue is not None:
                queue.put_nowait(data)
