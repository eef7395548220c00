"""The socket registry (games/presence.py) across two web processes on one Redis, as the
Procfile starts them: a seeded walk opens and closes many sockets (players' game sockets and
`ws/me/`, signed-in and signed-out spectators) through both in random order, and after each
step the registry, the table's presence (`/games/{id}/presence/`: spectators, offline seats)
and the limits (4429 to a user's oldest sockets, wherever they are; a signed-out socket past
its address's limit refused) agree with a model of what is open. Then one process is killed
with SIGKILL: once the TTL has passed its sockets no longer count, and the other's still do."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from games import presence
from tests.games.helpers import Player
from tests.live.helpers import WAIT, db, new_players, table
from tests.live.test_redis import database_url, service_env
from tests.live.test_scale_out import ports, wait_until_up, web_processes

REGISTRY_DB = 6  # a Redis database of this test's own: it starts from an empty registry
SEED = 20240611
STEPS = 80
LIMIT = 3  # MAX_SOCKETS_PER_USER
ADDRESS_LIMIT = 4  # MAX_ANONYMOUS_SOCKETS_PER_ADDRESS (every client here is 127.0.0.1)
REFRESH = 1  # SOCKET_REFRESH_SECONDS
TTL = REFRESH * 3
SETTLE = 10.0  # seconds for the registry and the page to agree with the model
ADDRESS = "ip-127.0.0.1"


@dataclass(eq=False)
class Held:
    """One socket the model holds open: through process `web`, of `user` (None: signed out)."""

    ws: ClientConnection
    web: int
    user: Player | None
    kind: str  # "game" | "me"
    first: asyncio.Future[dict[str, Any] | None] = field(init=False)
    reader: asyncio.Task[None] = field(init=False)

    def __post_init__(self) -> None:
        self.first = asyncio.get_running_loop().create_future()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        """Every frame read as it comes (pushed views never back up); the first kept."""
        try:
            async for frame in self.ws:
                if not self.first.done():
                    self.first.set_result(json.loads(frame))
        except ConnectionClosed:
            pass
        finally:
            if not self.first.done():
                self.first.set_result(None)

    async def closed_with(self) -> int | None:
        await asyncio.wait_for(self.reader, WAIT)
        return self.ws.close_code


class Walk:
    """The model of what is open, and the checks that the site agrees with it."""

    def __init__(self, url: str, web_ports: list[int], game_id: int, people: list[Player]) -> None:
        self.store, self.redis = presence.RedisStore(url), redis.Redis.from_url(url)
        self.ports, self.game_id = web_ports, game_id
        self.seated, self.others = people[:3], people[3:]  # player i in seat i
        self.held: list[Held] = []  # in the order they opened
        self.opened: list[Held] = []  # every socket, closed on the way out
        self.taken: Counter[str] = Counter()  # which paths the walk took, how often

    def of(self, user: Player) -> list[Held]:
        return [held for held in self.held if held.user is user]

    async def open(self, web: int, user: Player | None, kind: str) -> None:
        token = f"?token={user.token}" if user is not None else ""
        path = f"/ws/me/{token}" if kind == "me" else f"/ws/games/{self.game_id}/{token}"
        ws = await connect(f"ws://127.0.0.1:{self.ports[web]}{path}", open_timeout=WAIT)
        held = Held(ws, web, user, kind)
        self.opened.append(held)
        if user is None and len([h for h in self.held if h.user is None]) >= ADDRESS_LIMIT:
            assert await held.closed_with() == presence.CLOSE_TOO_MANY_SOCKETS, self.where(web)
            self.taken["refused"] += 1
            return
        if kind == "game":
            first = await asyncio.wait_for(held.first, WAIT)
            assert first is not None and first["type"] == "state", (first, ws.close_code)
        self.held.append(held)
        if user is not None:
            for oldest in self.of(user)[:-LIMIT]:  # the user's oldest past the limit
                code = await oldest.closed_with()
                assert code == presence.CLOSE_TOO_MANY_SOCKETS, self.where(oldest.web)
                self.held.remove(oldest)
                self.taken["evicted across" if oldest.web != web else "evicted"] += 1

    async def close(self, held: Held) -> None:
        await held.ws.close()
        await held.closed_with()
        self.held.remove(held)
        self.taken["closed"] += 1

    def lose(self, user: Player) -> None:
        """The user's set vanishes under their live sockets (Redis lost it): the refresh of
        each process holding one puts back its own, and no more."""
        self.redis.delete(presence.user_key(user.user_id))
        self.taken["lost"] += 1

    def expected(self) -> dict[str, Any]:
        users = self.seated + self.others
        watching = [h for h in self.held if h.kind == "game" and h.user not in self.seated]
        return {
            "users": [len(self.of(user)) for user in users],
            "from": len([h for h in self.held if h.user is None]),
            "watching": len(watching),
            "spectators": len(watching),
            "offline": [seat for seat, player in enumerate(self.seated) if not self.of(player)],
        }

    def found(self, web: int) -> dict[str, Any]:
        users = self.seated + self.others
        keys = [presence.user_key(user.user_id) for user in users]
        keys += [presence.watch_key(self.game_id), presence.from_key(ADDRESS)]
        *counts, watching, signed_out = self.store.counts(keys)
        page = table_presence(self.ports[web], self.game_id)
        return {
            "users": counts,
            "from": signed_out,
            "watching": watching,
            "spectators": page["spectators"],
            "offline": page["offline"],
        }

    async def agrees(self, web: int, step: str) -> None:
        """Until the registry and the page (asked of process `web`) say what the model says,
        within SETTLE seconds; then every socket the model holds is still open."""
        deadline = time.monotonic() + SETTLE
        while (found := await asyncio.to_thread(self.found, web)) != self.expected():
            assert time.monotonic() < deadline, (step, found, self.expected(), self.where(web))
            await asyncio.sleep(0.05)
        closed = [(h.web, h.kind, h.ws.close_code) for h in self.held if h.reader.done()]
        assert not closed, (step, closed)

    def where(self, web: int) -> str:
        return f"(seed {SEED}, web-{web})"


def table_presence(port: int, game_id: int) -> dict[str, Any]:
    url = f"http://127.0.0.1:{port}/games/{game_id}/presence/"
    with urllib.request.urlopen(url, timeout=WAIT) as response:
        body: dict[str, Any] = json.loads(response.read())
        return body


def registry_url(redis_url: str) -> str:
    """The test Redis, in this test's own database, emptied first."""
    url = f"{redis_url.rsplit('/', 1)[0]}/{REGISTRY_DB}"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_presence_spectators_and_limits_hold_across_processes_and_a_kill(
    redis_url: str, tmp_path: Path
) -> None:
    game_id, seated = await db(table, 3)
    people = seated + await db(new_players, 2)  # two who watch when at the table
    url = await asyncio.to_thread(registry_url, redis_url)
    env = service_env(
        url,
        DATABASE_URL=database_url(),
        RATE_LIMITS_ENABLED="true",
        MAX_SOCKETS_PER_USER=str(LIMIT),
        MAX_ANONYMOUS_SOCKETS_PER_ADDRESS=str(ADDRESS_LIMIT),
        SOCKET_REFRESH_SECONDS=str(REFRESH),
    )
    rng = random.Random(SEED)
    with web_processes(env, tmp_path) as stack:
        await wait_until_up(stack)
        walk = Walk(url, ports(stack), game_id, people)
        try:
            for number in range(STEPS):
                roll = rng.random()
                web = rng.randrange(2)
                if walk.held and roll < 0.05:
                    user = rng.choice([h.user for h in walk.held if h.user is not None] or [None])
                    if user is not None:
                        walk.lose(user)
                    step = f"{number}: the set of {user and user.username} lost"
                elif walk.held and roll < 0.4:
                    held = rng.choice(walk.held)
                    await walk.close(held)
                    step = f"{number}: closed a {held.kind} socket of web-{held.web}"
                else:
                    user = rng.choice([*people, None, None])
                    kind = "me" if user is not None and rng.random() < 0.3 else "game"
                    await walk.open(web, user, kind)
                    step = f"{number}: opened a {kind} socket on web-{web}"
                await walk.agrees(rng.randrange(2), step)
            paths = {"refused", "evicted", "evicted across", "closed", "lost"}
            assert set(walk.taken) == paths, walk.taken  # the seed walks every path
            for web in (0, 1):  # each process holds a spectator's socket at least
                await walk.open(web, people[3 + web], "game")
                await walk.agrees(web, f"a spectator on web-{web}")

            # SIGKILL: no close of any kind. After the TTL its sockets count no more.
            stack.kill("web-1")
            walk.held = [h for h in walk.held if h.web == 0]
            await walk.agrees(0, "web-1 killed")
            await asyncio.sleep(TTL)  # several more refreshes: web-0's still count
            await walk.agrees(0, "a TTL after")
        finally:
            for held in walk.opened:
                await held.ws.close()
