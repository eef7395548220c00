"""The site scales out: two web processes share PostgreSQL and Redis, and a move made through
one of them reaches the sockets held by the other (each socket with only its own view)."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from tests.games.helpers import choose_move
from tests.live.helpers import db, table
from tests.live.test_redis import database_url, service_env
from tests.processes import ProcessStack, free_port


@contextmanager
def web_processes(env: dict[str, str], folder: Path, count: int = 2) -> Iterator[ProcessStack]:
    """`count` web servers (`web-0`, …), each as the Procfile starts it, on a free port of its
    own; stopped on the way out. Not waited for: see `wait_until_up`."""
    with ProcessStack(env, folder) as stack:
        for number in range(count):
            port = str(free_port())
            stack.start(f"web-{number}", stack.command("web", WEB_PORT=port))
        yield stack


def ports(stack: ProcessStack) -> list[int]:
    """The web servers' ports, in the order of their names."""
    return [int(argv[argv.index("--port") + 1]) for argv in stack.commands.values()]


async def wait_until_up(stack: ProcessStack) -> None:
    """Until every web server answers (off the event loop); with every log's end if not."""
    for port in ports(stack):
        await asyncio.to_thread(stack.wait_web, f"http://127.0.0.1:{port}")


async def pushed_past(ws: Any, seq: int) -> dict[str, Any]:
    """The first message pushed that is not a view at `seq` again (presence changes push the
    same view once more), within 10 s."""
    async with asyncio.timeout(10):
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] != "state" or message["state"]["seq"] > seq:
                return message


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
    with web_processes(env, tmp_path) as stack:
        await wait_until_up(stack)
        one, other = ports(stack)
        url = f"ws://127.0.0.1:{other}/ws/games/{game_id}/?token="
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
            assert await asyncio.to_thread(post_move, one, game_id, mover.token, body) == 200

            pushed = [await pushed_past(ws, view["seq"]) for ws in sockets]
        finally:
            for ws in sockets:
                await ws.close()
        logs = stack.report()
    for seat, message in enumerate(pushed):
        assert message["type"] == "state", logs
        assert message["state"]["seq"] > view["seq"] and message["state"]["you"] == seat
        assert message["events"][0]["seat"] == view["to_act"]  # the move itself, as a row
        assert message["state"]["visible_hands"] == {}  # no other hand, ever
    hands = [set(message["state"]["hand"]) for message in pushed]
    assert all(hands) and not hands[0] & hands[1] and not hands[1] & hands[2]
