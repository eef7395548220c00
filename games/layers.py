"""The channel layer: channels_redis's pub/sub layer, plus a push of many groups' messages in
one Redis round trip that goes through Redis only where another process listens."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

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


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """A move's push is a message per seat group, one for the watch group and a few for the
    players' `ws/me/` sockets: `group_send_many` sends them all with one script call per Redis
    host (one command to send and one reply to parse) instead of one awaited round trip, and
    one turn of the host's lock, each. Each message still goes to its own group only.

    A group that no other process subscribes to (every socket of a game in this web process,
    or no socket anywhere) is not published at all: its message goes straight into the queues
    of this process's sockets in it, as the subscriber would have put it there. A group that
    another process listens to is published, to every subscriber, this process's included."""

    async def group_send_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Each message to the subscribers of its group, in order, one round trip per host."""
        # channels_redis keeps one connection set per event loop: use this loop's.
        layer = self._get_layer()
        by_shard: dict[Any, list[tuple[str, bytes]]] = {}
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

    def _subscribed_here(self, channel: str) -> int:
        """How many of this process's subscriptions to Redis hear `channel` (one per event
        loop with sockets in its group). A loop whose last member left counts none from the
        moment it forgets the group, before it unsubscribes."""
        return sum(
            channel in loop_layer.groups
            and channel in loop_layer._get_shard(channel)._subscribed_to
            for loop_layer in list(self._layers.values())
        )

    def _deliver_here(self, items: list[tuple[str, bytes]]) -> None:
        """Into the queue of each socket of this process in each group, in order, in the
        socket's own event loop."""
        if not items:
            return
        running = asyncio.get_running_loop()
        for loop, loop_layer in list(self._layers.items()):
            if not any(channel in loop_layer.groups for channel, _ in items):
                continue
            if loop is running:
                _deliver(loop_layer, items)
            elif not loop.is_closed():
                with contextlib.suppress(RuntimeError):  # closed meanwhile: no sockets left
                    loop.call_soon_threadsafe(_deliver, loop_layer, items)


def _deliver(loop_layer: Any, items: list[tuple[str, bytes]]) -> None:
    for channel, data in items:
        for member in tuple(loop_layer.groups.get(channel, ())):
            queue = loop_layer.channels.get(member)
            if queue is not None:
                queue.put_nowait(data)
