"""The site as real processes for fault tests: Daphne (or uvicorn, as the Procfile runs it) on a
free port, and a Celery worker and beat when there is a Redis, all against a private PostgreSQL
(tests/faults/postgres.py) or a SQLite file. The test talks to them over HTTP and websockets
only, kills them with SIGKILL and starts them again, and audits the database afterwards in a
process of its own."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from core import limits
from tests.processes import end, procfile

ROOT = Path(settings.BASE_DIR)
BIN = Path(sys.executable).parent
PASSWORD = "a-long-enough-password-1"
REQUEST_TIMEOUT = 10.0  # no answer within this is a hang: the fault tests fail on it

# Every game's events replay through the engine to its stored state, with seqs 1..n.
AUDIT = """
import json, django
django.setup()
from django.db import connection, transaction
from games import engine
from games.models import Game
report = {}
with transaction.atomic():  # one snapshot: a timer move committed meanwhile is in none of it
  if connection.vendor == "postgresql":
    connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
  for game in Game.objects.exclude(state=None):
      rows = list(game.events.order_by("seq").values("seq", "seat", "auto", "type", "payload"))
      replayed = engine.replay(row["payload"] for row in rows)
      report[game.pk] = {
          "seqs": [row["seq"] for row in rows],
          "seq": game.seq,
          "replays": replayed == game.engine_state(),
          "decisions": [[r["seq"], r["seat"], r["auto"]] for r in rows
                        if r["type"] in engine.PLAYER_DECISIONS],
      }
print(json.dumps(report))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: Any


def call(
    url: str,
    method: str = "GET",
    body: Any = None,
    token: str | None = None,
    timeout: float = REQUEST_TIMEOUT,
) -> Answer:
    """One HTTP request; a request that gets no answer within `timeout` fails the test."""
    headers = {"Accept": "application/json"}
    if body is not None:
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw, got = response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        status, raw, got = error.code, error.read(), dict(error.headers)
    text = raw.decode(errors="replace")
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        parsed = text
    return Answer(status, {key.lower(): value for key, value in got.items()}, parsed)


@dataclass
class Stack:
    database_url: str
    redis_url: str
    folder: Path
    port: int = field(default_factory=free_port)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    settings_module: str = "wizardsite.settings"
    extra_env: dict[str, str] = field(default_factory=dict)
    server: str = "daphne"  # or "uvicorn": the Procfile's own web command

    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
        env.update(
            DJANGO_SETTINGS_MODULE=self.settings_module,
            DATABASE_URL=self.database_url,
            DEBUG="0",  # the production error pages
            RATE_LIMITS_ENABLED="false",
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
        env.update(self.extra_env)
        return env

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def python(self, *argv: str) -> str:
        """Run Python with the stack's settings; its output."""
        done = subprocess.run(
            [sys.executable, *argv],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"{argv[:2]} failed:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    def migrate(self) -> None:
        self.python("manage.py", "migrate", "--noinput")

    def argv(self, name: str) -> list[str]:
        celery = [str(BIN / "celery"), "-A", "wizardsite"]
        quiet = ["--loglevel", "WARNING", "--without-gossip", "--without-mingle"]
        return {
            "web": self._web_argv(),
            # As the Procfiles run them: the default queue (bots, the timer), and the notices'.
            "worker": [
                *celery,
                "worker",
                "--queues",
                "celery",
                "--pool",
                "threads",
                "--concurrency",
                "2",
                *quiet,
                "--without-heartbeat",
            ],
            "notify": [
                *celery,
                "worker",
                "--queues",
                "notifications",
                "--hostname",
                "notify@%h",
                "--pool",
                "threads",
                "--concurrency",
                "4",
                *quiet,
                "--without-heartbeat",
            ],
            "beat": [
                *celery,
                "beat",
                "--loglevel",
                "WARNING",
                "--schedule",
                str(self.folder / "beat-schedule"),
            ],
        }[name]

    def _web_argv(self) -> list[str]:
        if self.server == "uvicorn":
            program, *options = procfile({"WEB_PORT": str(self.port)})["web"]
            return [str(BIN / program), *options]
        return [
            str(BIN / "daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(self.port),
            "--websocket-max-message-size",
            str(limits.SOCKET_SERVER_MAX_BYTES),
            "wizardsite.asgi:application",
        ]

    def start(self, name: str) -> None:
        log = (self.folder / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(
            self.argv(name), cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        if name == "web":
            self._wait_web()

    def kill(self, name: str) -> None:
        """SIGKILL: no shutdown of any kind, as when a machine or a container dies."""
        process = self.processes.pop(name)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def _wait_web(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.processes["web"].poll() is not None:
                pytest.fail(f"the web server exited:\n{self.logs()}")
            try:
                with urllib.request.urlopen(self.base + "/rules/", timeout=2):
                    return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        pytest.fail(f"the web server did not answer:\n{self.logs()}")

    def logs(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}"
            for log in sorted(self.folder.glob("*.log"))
        )

    def api(
        self,
        path: str,
        method: str = "GET",
        body: Any = None,
        token: str = "",
        timeout: float = REQUEST_TIMEOUT,
    ) -> Answer:
        return call(self.base + "/api/v1" + path, method, body, token or None, timeout)

    def audit(self) -> dict[str, Any]:
        report: dict[str, Any] = json.loads(self.python("-c", AUDIT).strip().splitlines()[-1])
        return report

    def stop_all(self) -> None:
        for name in list(self.processes):
            end(self.processes.pop(name))


@contextmanager
def stack(database_url: str, redis_url: str, folder: Path) -> Iterator[Stack]:
    running = Stack(database_url=database_url, redis_url=redis_url, folder=folder)
    try:
        yield running
    finally:
        running.stop_all()


@dataclass
class Person:
    username: str
    token: str
    user_id: int


def register(site: Stack, username: str) -> Person:
    body = {"username": username, "password": PASSWORD, "email": f"{username}@example.com"}
    answer = site.api("/accounts/register/", "POST", body)
    assert answer.status == 201, answer.body
    return Person(username, answer.body["token"], answer.body["id"])


def seat_three(site: Stack, people: list[Person], **options: Any) -> int:
    """A table of these three, started; its id."""
    body = {"seats": 3, "blind_first_round": False, **options}
    created = site.api("/games/", "POST", body, people[0].token)
    assert created.status == 201, created.body
    for person in people[1:]:
        joined = site.api(f"/games/{created.body['id']}/join/", "POST", {}, person.token)
        assert joined.status == 200, joined.body
    game_id: int = created.body["id"]
    return game_id


def assert_sound(report: dict[str, Any]) -> None:
    """Every game: seqs 1..n with no gap, the stored seq the last, the state their replay."""
    assert report, "no game was stored"
    for game_id, game in report.items():
        assert game["seqs"] == list(range(1, game["seq"] + 1)), (game_id, game["seqs"])
        assert game["replays"], f"game {game_id}: its events do not replay to its state"
