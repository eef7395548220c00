"""A push service that accepts connections and never answers delays no game: on a real stack
(the web server, the main worker, the notices' worker and beat, as the Procfile starts them,
on a private PostgreSQL and Redis), four players with 10 subscriptions each to such a service,
each at a table of their own whose turns keep pushing to it, hold every thread of the notices'
worker; meanwhile an unrelated table's bots bid at their usual pace and its turn timer
auto-moves on time.

Before the notices had a queue of their own, these pushes ran on the worker of the bots and
the timer, and held an unrelated game's first bot bid a minute late.

Marked `postgres`: it runs in CI's PostgreSQL pass, with the other fault tests."""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from notifications.services import MAX_PUSH_SUBSCRIPTIONS
from tests.faults.conftest import PrivateRedis
from tests.faults.postgres import PrivatePostgres
from tests.faults.stack import Person, Stack, register, stack
from tests.notifications.push_server import BrowserKeys

pytestmark = pytest.mark.postgres

TURN_SECONDS = 5  # the shortest limit (R16)
HOLDERS = 4  # players whose pushes go to the hung service
NOTIFY_THREADS = 4  # the notices' worker's concurrency (Procfile's `notify`)
# Generous bounds: a bot steps about a second after the previous decision (BOT_MOVE_DELAY_MS,
# TRICK_PAUSE_MS); the timer moves TURN_SECONDS after the turn began. Held up behind the
# hung pushes, they were a minute late.
BOT_STEP_WITHIN = 15.0
AUTO_MOVE_WITHIN = TURN_SECONDS + 15.0
WATCH_FOR = 120.0


class HungService:
    """A TCP listener on loopback that accepts every connection, reads nothing and never
    answers (a push service that hangs); counts the connections it holds."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0), backlog=128)
        self.listener.settimeout(0.2)
        self.held: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.listener.getsockname()[1]}"

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                self.held.append(self.listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.listener.close()
        for connection in self.held:
            connection.close()


@pytest.fixture
def hung_service() -> Iterator[HungService]:
    service = HungService()
    try:
        yield service
    finally:
        service.close()


def bot_table(site: Stack, person: Person) -> int:
    """A table of this player (seat 0) and two bots, started at once; its id."""
    body = {"seats": 3, "bots": 2, "turn_seconds": TURN_SECONDS, "blind_first_round": False}
    created = site.api("/games/", "POST", body, person.token)
    assert created.status == 201, (created.body, site.logs())
    game_id: int = created.body["id"]
    return game_id


def at(row: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(row["at"]).replace("Z", "+00:00"))


def test_a_hung_push_service_leaves_bot_steps_and_auto_moves_on_time(
    private_pg: PrivatePostgres,
    private_redis: PrivateRedis,
    hung_service: HungService,
    tmp_path: Path,
) -> None:
    with stack(private_pg.url, private_redis.url, tmp_path) as site:
        site.settings_module = "tests.faults.push_settings"
        site.extra_env["WEB_PUSH_TEST_ORIGINS"] = hung_service.url
        site.start("web", "worker", "notify", "beat")

        # Players whose every turn pushes to the hung service, 10 subscriptions each.
        for n in range(HOLDERS):
            holder = register(site, f"hung_push_{n}")
            for k in range(MAX_PUSH_SUBSCRIPTIONS):
                keys = BrowserKeys.new()
                body = {
                    "endpoint": f"{hung_service.url}/push/{n}/{k}",
                    "keys": {"p256dh": keys.p256dh, "auth": keys.auth},
                }
                answer = site.api("/accounts/me/push-subscriptions/", "POST", body, holder.token)
                assert answer.status == 201, answer.body
            bot_table(site, holder)
        deadline = time.monotonic() + 60
        while len(hung_service.held) < NOTIFY_THREADS and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(hung_service.held) >= NOTIFY_THREADS, site.logs()

        # An unrelated player's table: watched on its socket only (a read of the game would
        # make an overdue auto-move itself, and hide a late timer).
        player = register(site, "hung_push_bystander")
        game_id = bot_table(site, player)
        url = f"ws://127.0.0.1:{site.port}/ws/games/{game_id}/?token={player.token}"
        bot_decisions = auto_moves = 0
        with connect(url, open_timeout=10) as watching:
            json.loads(watching.recv(timeout=10))  # the view on connect
            until = time.monotonic() + WATCH_FOR
            while (bot_decisions < 4 or not auto_moves) and time.monotonic() < until:
                try:
                    pushed = json.loads(watching.recv(timeout=until - time.monotonic()))
                except TimeoutError:
                    break
                for row in pushed.get("events", []):
                    if row["seat"] is not None and row["seat"] != 0 and not row["auto"]:
                        bot_decisions += 1
                    if row["seat"] == 0 and row["auto"]:
                        auto_moves += 1
        held_meanwhile = len(hung_service.held)
        events = site.api(f"/games/{game_id}/events/?after=0", token=player.token)
        assert events.status == 200, events.body
        logs = site.logs()

    assert bot_decisions >= 4 and auto_moves, (bot_decisions, auto_moves, logs)
    # The hung service was kept busy the whole time: the notices' worker kept trying.
    assert held_meanwhile > NOTIFY_THREADS
    # Each step on time, measured by the server's own clock (each event's `at`) from the
    # event before it.
    rows = events.body if isinstance(events.body, list) else events.body["results"]
    for before, row in itertools.pairwise(rows):
        waited = (at(row) - at(before)).total_seconds()
        if row["seat"] is not None and row["auto"]:
            assert waited <= AUTO_MOVE_WITHIN, (row, waited)
        elif row["seat"] not in (None, 0):
            assert waited <= BOT_STEP_WITHIN, (row, waited)
    assert any(row["seat"] == 0 and row["auto"] for row in rows)
    assert sum(row["seat"] not in (None, 0) and not row["auto"] for row in rows) >= 4
