"""MAX_SOCKETS_PER_USER across web processes: the user's sockets are in one set of the socket
registry (Redis), so a socket opened through one process tells the oldest, held by another,
to close (4429) through the channel layer."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from games.presence import CLOSE_TOO_MANY_SOCKETS
from tests.live.helpers import WAIT, db, table
from tests.live.test_redis import database_url, service_env
from tests.live.test_scale_out import ports, wait_until_up, web_processes

LIMIT = 3


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_limit_holds_across_web_processes(redis_url: str, tmp_path: Path) -> None:
    """Two uvicorn processes on one Redis: sockets opened through the second close the
    user's oldest, held by the first."""
    game_id, people = await db(table, 3)
    env = service_env(
        redis_url,
        DATABASE_URL=database_url(),
        RATE_LIMITS_ENABLED="true",
        MAX_SOCKETS_PER_USER=str(LIMIT),
    )
    path = f"/ws/games/{game_id}/?token={people[0].token}"
    with web_processes(env, tmp_path) as stack:
        await wait_until_up(stack)
        first, second = ports(stack)
        opened = []
        try:
            for port in (first, first, second, second):
                client = await connect(f"ws://127.0.0.1:{port}{path}")
                opened.append(client)
                assert json.loads(await asyncio.wait_for(client.recv(), WAIT))["type"] == "state"
            await asyncio.wait_for(opened[0].wait_closed(), WAIT * 2)
            assert opened[0].close_code == CLOSE_TOO_MANY_SOCKETS, stack.report()
            for client in opened[1:]:
                await client.send(json.dumps({"type": "sync"}))
                answer = json.loads(await asyncio.wait_for(client.recv(), WAIT))
                assert answer["type"] == "state", stack.report()
        finally:
            for client in opened:
                await client.close()
