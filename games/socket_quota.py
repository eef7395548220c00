"""At most MAX_SOCKETS_PER_USER open sockets a user (`ws/games/` and `ws/me/` together), across
every web process: past it, the user's oldest socket closes with CLOSE_TOO_MANY_SOCKETS. (Signed
out, at most MAX_ANONYMOUS_SOCKETS_PER_ADDRESS an address: past it a new one is refused with the
same code; FastJsonConsumer counts them through games.presence.)

Each socket announces itself on the user's group of the channel layer (Redis in production, so
every process hears it) when it opens, again every REFRESH_SECONDS while it lives, and once
more when it closes. Each socket keeps the set of the user's sockets that opened after it; one
that hears of MAX_SOCKETS_PER_USER younger ones is the oldest past the limit, and closes. A
younger socket not heard of for EXPIRE_SECONDS (its process died, or a close was lost: the
layer delivers at most once) no longer counts.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, TypedDict

from django.conf import settings

from games import push

log = logging.getLogger(__name__)
CLOSE_TOO_MANY_SOCKETS = 4429  # HTTP's 429 in the application range of close codes
REFRESH_SECONDS = 60.0
EXPIRE_SECONDS = REFRESH_SECONDS * 3


def address_limit() -> int | None:
    """The most signed-out sockets one address may hold (game, lobby and tournament sockets
    together, counted in the shared cache across processes); None when off."""
    most = int(settings.MAX_ANONYMOUS_SOCKETS_PER_ADDRESS)
    return most if most > 0 and settings.RATE_LIMITS_ENABLED else None


class SocketAnnounced(TypedDict):
    """On the user's group: one of their sockets opened (or still lives), or closed."""

    type: str  # "socket.opened" | "socket.closed"
    channel: str
    opened_at: float


def limit() -> int | None:
    """The most sockets a user may hold; None when off (0, or rate limits disabled)."""
    most = int(settings.MAX_SOCKETS_PER_USER)
    return most if most > 0 and settings.RATE_LIMITS_ENABLED else None


class SocketQuota:
    """One open socket's place among its user's sockets."""

    def __init__(self, layer: Any, user_id: int, channel: str) -> None:
        self.layer, self.group, self.channel = layer, push.user_group(user_id), channel
        self.opened_at = time.time()
        self.younger: dict[str, float] = {}  # channel → when last heard of
        self._beat: asyncio.Task[None] | None = None

    async def start(self) -> SocketQuota:
        """Announce this socket to the user's others, now and while it lives."""
        await self._announce("socket.opened")
        self._beat = asyncio.create_task(self._refreshing())
        return self

    async def stop(self) -> None:
        if self._beat is None:
            return
        self._beat.cancel()
        self._beat = None
        await self._announce("socket.closed")

    def heard(self, message: SocketAnnounced) -> bool:
        """Take in another socket's announcement; True when this socket is now one too many."""
        channel = message["channel"]
        if channel == self.channel:
            return False
        if message["type"] == "socket.closed":
            self.younger.pop(channel, None)
            return False
        if (message["opened_at"], channel) > (self.opened_at, self.channel):
            self.younger[channel] = time.monotonic()
        most = limit()
        if most is None:
            return False
        stale = time.monotonic() - EXPIRE_SECONDS
        self.younger = {c: heard for c, heard in self.younger.items() if heard > stale}
        return len(self.younger) >= most

    async def _announce(self, kind: str) -> None:
        message: SocketAnnounced = {
            "type": kind,
            "channel": self.channel,
            "opened_at": self.opened_at,
        }
        # Best effort, like every push: a socket opens and closes whatever the layer does.
        try:
            await asyncio.wait_for(self.layer.group_send(self.group, message), push.PUSH_TIMEOUT)
        except Exception as error:
            log.warning("socket of %s not announced: %r", self.group, error)

    async def _refreshing(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            await self._announce("socket.opened")


async def stop(quota: SocketQuota | None) -> None:
    if quota is not None:
        await quota.stop()
