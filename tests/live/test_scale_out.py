"""The site scales out: two web processes share PostgreSQL and Redis, and a move made through
one of them reaches the sockets held by the other (each socket with only its own view)."""

from __future__ import annotations

import asyncio
import json
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.games.helpers import choose_move
from tests.live.helpers import db, table
from tests.live.test_redis import ROOT, database_url, running, service_env, tail

UVICORN = str(Path(ROOT / ".venv" / "bin" / "uvicorn"))
WEB = [UVICORN, "wizardsite.asgi:application", "--no-proxy-headers"]  # as the Procfiles have it
READY_WITHIN = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_up(port: int, log: Path) -> None:
    deadline = time.monotonic() + READY_WITHIN
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"the web process on {port} did not answer\n{tail(log)}")


def post_move(port: int, game_id: int, token: str, body: dict[str, Any]) -> int:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/games/{game_id}/moves/",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Token {token}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        status: int = response.status
        return status


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_made_through_one_process_reaches_sockets_held_by_another(
    redis_url: str, tmp_path: Path
) -> None:
    game_id, people = await db(table, 3, blind_first_round=False)
    env = service_env(redis_url, DATABASE_URL=database_url(), RATE_LIMITS_ENABLED="false")
    ports = [free_port(), free_port()]
    logs = [tmp_path / f"web-{port}.log" for port in ports]
    argv = [[*WEB, "--port", str(port)] for port in ports]
    with running(argv[0], env, logs[0]), running(argv[1], env, logs[1]):
        for port, log in zip(ports, logs, strict=True):
            await asyncio.to_thread(wait_until_up, port, log)
        url = f"ws://127.0.0.1:{ports[1]}/ws/games/{game_id}/?token="
        sockets = [await connect(url + person.token) for person in people]
        try:
            first = [json.loads(await ws.recv(decode=True)) for ws in sockets]
            for index, ws in enumerate(sockets):  # the fresh views telling who came online
                while not all(p["online"] for p in first[index]["state"]["players"]):
                    first[index] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            view = first[0]["state"]
            mover = people[view["to_act"]]
            body = {**choose_move(first[view["to_act"]]["state"]["legal"], None)}
            body["seq"] = view["seq"]
            assert await asyncio.to_thread(post_move, ports[0], game_id, mover.token, body) == 200

            pushed = [json.loads(await asyncio.wait_for(ws.recv(), 10)) for ws in sockets]
        finally:
            for ws in sockets:
                await ws.close()
    for seat, message in enumerate(pushed):
        assert message["type"] == "state", tail(*logs)
        assert message["state"]["seq"] > view["seq"] and message["state"]["you"] == seat
        assert message["events"][0]["seat"] == view["to_act"]  # the move itself, as a row
        assert message["state"]["visible_hands"] == {}  # no other hand, ever
    hands = [set(message["state"]["hand"]) for message in pushed]
    assert all(hands) and not hands[0] & hands[1] and not hands[1] & hands[2]
