"""MAX_SOCKETS_PER_USER across web processes: the user's sockets announce themselves on the
channel layer (Redis), so a socket opened through one process closes the oldest held by
another (4429)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from games.socket_quota import CLOSE_TOO_MANY_SOCKETS
from tests.live.helpers import WAIT, db, table
from tests.live.test_redis import database_url, running, service_env, tail
from tests.live.test_scale_out import WEB, free_port, wait_until_up

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
    ports = [free_port(), free_port()]
    logs = [tmp_path / f"web-{port}.log" for port in ports]
    argv = [[*WEB, "--port", str(port)] for port in ports]
    path = f"/ws/games/{game_id}/?token={people[0].token}"
    with running(argv[0], env, logs[0]), running(argv[1], env, logs[1]):
        for port, log in zip(ports, logs, strict=True):
            await asyncio.to_thread(wait_until_up, port, log)
        opened = []
        try:
            for port in (ports[0], ports[0], ports[1], ports[1]):
                client = await connect(f"ws://127.0.0.1:{port}{path}")
                opened.append(client)
                assert json.loads(await asyncio.wait_for(client.recv(), WAIT))["type"] == "state"
            await asyncio.wait_for(opened[0].wait_closed(), WAIT * 2)
            assert opened[0].close_code == CLOSE_TOO_MANY_SOCKETS, tail(*logs)
            for client in opened[1:]:
                await client.send(json.dumps({"type": "sync"}))
                answer = json.loads(await asyncio.wait_for(client.recv(), WAIT))
                assert answer["type"] == "state", tail(*logs)
        finally:
            for client in opened:
                await client.close()
