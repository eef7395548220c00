"""The channel layer: channels_redis's pub/sub layer, plus a push of many groups' messages in
one Redis round trip."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

# PUBLISH each ARGV to the channel named by the KEY of the same index, in order.
PUBLISH_ALL = "for i = 1, #KEYS do redis.call('PUBLISH', KEYS[i], ARGV[i]) end"


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """A move's push is a message per seat group, one for the watch group and a few for the
    players' `ws/me/` sockets: `group_send_many` PUBLISHes them all with one script call per
    Redis host (one command to send and one reply to parse) instead of one awaited round trip,
    and one turn of the host's lock, each. Each message still goes to its own group only."""

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
            # The shard's lock orders this pipeline with its other publishes and subscriptions.
            async with shard._lock:
                shard._ensure_redis()
                client = shard._redis
                # One script object per client (a flush makes a new one); it loads itself
                # into Redis when Redis does not know it.
                known = shard.__dict__.get("_publish_all")
                if known is None or known[0] is not client:
                    known = shard.__dict__["_publish_all"] = (
                        client,
                        client.register_script(PUBLISH_ALL),
                    )
                await known[1](keys=[c for c, _ in items], args=[d for _, d in items])
