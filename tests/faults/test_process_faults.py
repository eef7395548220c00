"""A game goes on through the faults of a real stack (the web server, a Celery worker and beat
as the Procfile starts them, on a private PostgreSQL and a private Redis): the worker and then
the web server killed with SIGKILL and started again, Redis frozen and then killed and started
again. After each the turn timer plays on by itself and sockets connect and converge on the
latest seq; at the end every event replays through the engine to the stored state, seq has no
gap, and the moves that were answered 200 are in the game exactly once each.

Marked `postgres`: it runs once in CI, in .ci/run's PostgreSQL pass."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.faults.conftest import PrivateRedis
from tests.faults.postgres import PrivatePostgres
from tests.faults.stack import (
    Person,
    Stack,
    assert_sound,
    register,
    seat_three,
    stack,
    unexpected_tracebacks,
)
from tests.games.helpers import choose_move

pytestmark = pytest.mark.postgres

TURN_SECONDS = 5  # the shortest limit (R16): the timer acts within the test
FROZEN_MOVE_WITHIN = 5.0  # a push waits 1 s (games.push.PUSH_TIMEOUT), the view's reads none
TIMER_WITHIN = 30.0  # a 5 s turn, renewed once after an outage (5 s more), worker start-up


@dataclass
class Game:
    site: Stack
    game_id: int
    people: list[Person]
    answered: list[list[int]] = field(default_factory=list)  # [seq, seat] of each 200 move

    def view(self, person: Person | None = None) -> dict[str, Any]:
        answer = self.site.api(f"/games/{self.game_id}/", token=(person or self.people[0]).token)
        assert answer.status == 200, (answer.body, self.site.logs())
        view: dict[str, Any] = answer.body
        return view

    def move(self, within: float = 10.0) -> None:
        """The player to act moves (with the view's seq); it must be answered 200, within
        `within` seconds."""
        to_act = self.view()["to_act"]
        mover = self.people[to_act]
        mine = self.view(mover)
        body = {**choose_move(mine["legal"], None), "seq": mine["seq"]}
        path = f"/games/{self.game_id}/moves/"
        answer = self.site.api(path, "POST", body, mover.token, timeout=within)
        assert answer.status == 200, (answer.body, self.site.logs())
        self.answered.append([mine["seq"] + 1, to_act])

    def socket(self, person: Person | None = None) -> Any:
        token = (person or self.people[0]).token
        url = f"ws://127.0.0.1:{self.site.port}/ws/games/{self.game_id}/?token={token}"
        return connect(url, open_timeout=10)

    def timer_moves(self) -> None:
        """Nobody moves, and nobody reads the game (a read would make an overdue auto-move
        itself): a socket is pushed the turn timer's auto-move."""
        with self.socket() as socket:
            json.loads(socket.recv(timeout=10))  # the view on connect
            deadline = time.monotonic() + TIMER_WITHIN
            while time.monotonic() < deadline:
                try:
                    pushed = json.loads(socket.recv(timeout=deadline - time.monotonic()))
                except TimeoutError:
                    break
                if any(row["auto"] for row in pushed.get("events", [])):
                    return
        pytest.fail(f"no auto-move pushed within {TIMER_WITHIN} s\n{self.site.logs()}")

    def sockets_converge(self) -> None:
        """A socket of each player opens and is sent the latest view, their own."""
        latest = self.view()["seq"]
        for seat, person in enumerate(self.people):
            with self.socket(person) as socket:
                first = json.loads(socket.recv(timeout=10))
            assert first["type"] == "state", first
            assert first["state"]["seq"] >= latest and first["state"]["you"] == seat

    def pushed_after_move(self) -> None:
        """A socket opened now is pushed the next move (the channel layer works)."""
        with self.socket() as socket:
            first = json.loads(socket.recv(timeout=10))
            self.move()
            state_after(socket, first["state"]["seq"])


def test_worker_web_and_redis_faults_lose_and_double_no_move(
    private_pg: PrivatePostgres, private_redis: PrivateRedis, tmp_path: Path
) -> None:
    with stack(private_pg.url, private_redis.url, tmp_path) as site:
        site.start("web", "worker", "beat")
        people = [register(site, f"proc_fault_{n}") for n in range(3)]
        game = Game(site, seat_three(site, people, turn_seconds=TURN_SECONDS), people)
        game.move()
        game.timer_moves()

        # The worker dies mid-game: moves still go through; the timer resumes with it.
        site.kill("worker")
        game.move()
        site.start("worker")
        game.timer_moves()

        # The web server dies: its sockets with it. Started again, every client converges.
        site.kill("web")
        site.start("web")
        game.sockets_converge()
        game.move()

        # Redis frozen: a move is still answered (its pushes are dropped after a second, its
        # timer task is sent off the request), not after Redis's 20 s of silence.
        private_redis.freeze()
        try:
            game.move(within=FROZEN_MOVE_WITHIN)
        finally:
            private_redis.thaw()
        game.sockets_converge()

        # Redis killed and started again: pushes, sockets and the timer recover by themselves.
        with game.socket() as held:
            seq = json.loads(held.recv(timeout=10))["state"]["seq"]
            private_redis.restart()
            game.move()
            held_sees_it(held, seq)
        game.pushed_after_move()
        game.timer_moves()
        game.sockets_converge()

        report = site.audit()
        logs = site.logs(lines=None)
    assert not unexpected_tracebacks(logs) and "Unrecoverable" not in logs, logs
    assert_sound(report)
    stored = report[str(game.game_id)]
    humans = [[seq, seat] for seq, seat, auto in stored["decisions"] if not auto]
    assert humans == game.answered  # each move answered 200 is there once; no other
    assert any(auto for _, _, auto in stored["decisions"])  # the timer's, R16


PUSH_WITHIN = 30.0  # a push reaches a socket well within this, even on a loaded machine


def state_after(socket: Any, seq: int) -> None:
    """The socket is pushed a state past `seq` within PUSH_WITHIN seconds; other messages, and
    one that repeats a state it had (same seq), may come first."""
    deadline = time.monotonic() + PUSH_WITHIN
    while True:
        pushed = json.loads(socket.recv(timeout=max(0.1, deadline - time.monotonic())))
        if pushed.get("type") == "state" and pushed["state"]["seq"] > seq:
            return


def held_sees_it(socket: Any, seq: int) -> None:
    """A socket open across the Redis restart is pushed the move after it, or is closed, so
    that its client reconnects and syncs: it is never left open and silent."""
    try:
        state_after(socket, seq)
    except ConnectionClosed:
        return
    except TimeoutError:
        pytest.fail("a socket open across the Redis restart was left open and silent")
