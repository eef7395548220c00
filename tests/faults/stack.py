"""The site as real processes for fault tests: the web server on a free port, and the Celery
workers and beat when there is a Redis, each started as the Procfile starts it (tests/processes.py),
all against a private PostgreSQL (tests/faults/postgres.py) or a SQLite file. The test talks to
them over HTTP and websockets only, kills them with SIGKILL and starts them again, and audits the
database afterwards in a process of its own."""

from __future__ import annotations

import json
import os
import re
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.processes import ProcessStack, free_port, run_python, with_option

PASSWORD = "a-long-enough-password-1"
REQUEST_TIMEOUT = 10.0  # no answer within this is a hang: the fault tests fail on it
WORKERS = ("worker", "notify", "review")  # the Procfile's Celery workers, pinged when started
# Added to the Procfile's Celery workers here: the site uses none of the three, and with gossip
# on, a worker whose Redis restarts logs "Error on restarting Gossip" with a traceback (Celery
# 5.7: the consumer drops its lost connection before the Gossip step stops), which the process
# fault test would take for a failure.
WORKER_OPTIONS = ["--without-gossip", "--without-mingle", "--without-heartbeat"]

# A traceback a fault makes a library log and recover from, by the line that logs it and the
# exception it ends with: channels_redis's pub/sub receive task logs its lost connection to a
# killed Redis as an error, then connects again a second later (channels_redis 4.3,
# pubsub._do_receiving); a Celery worker logs its lost broker as a warning and reconnects. Any
# other traceback in a process's log fails a fault test.
RECOVERED = [
    ("ERROR channels_redis.pubsub Unexpected exception in receive task", "redis.exceptions."),
    # A worker whose Redis restarted says so, with the error, and reconnects (celery 5.6).
    ("WARNING celery.worker.consumer.consumer consumer: Connection to broker", "redis."),
    # A task that ended while Redis was down could not be acked: its message comes back through
    # the visibility timeout, and runs again as a no-op (every task is idempotent by seq).
    ("CRITICAL celery.worker.request Couldn't ack", "redis."),
]
LOG_RECORD = re.compile(r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) |^\[\d{4}-\d\d-\d\d ")

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
    """The fault tests' site: its processes (`processes`, by name), their logs in `folder`.
    `settings_module` and `extra_env` may change until the first process starts."""

    database_url: str
    redis_url: str
    folder: Path
    port: int = field(default_factory=free_port)
    settings_module: str = "wizardsite.settings"
    extra_env: dict[str, str] = field(default_factory=dict)
    _stack: ProcessStack | None = field(default=None, init=False, repr=False)

    @property
    def env(self) -> dict[str, str]:
        if self._stack is not None:
            return self._stack.env
        env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
        env.update(
            DJANGO_SETTINGS_MODULE=self.settings_module,
            DATABASE_URL=self.database_url,
            WEB_PORT=str(self.port),
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
    def stack(self) -> ProcessStack:
        """The processes, with the environment as it is at the first start."""
        if self._stack is None:
            self._stack = ProcessStack(self.env, self.folder)
        return self._stack

    @property
    def processes(self) -> dict[str, subprocess.Popen[bytes]]:
        return self.stack.processes

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def python(self, *argv: str) -> str:
        """Run Python with the stack's settings; its output."""
        return run_python(self.env, *argv)

    def migrate(self) -> None:
        self.python("manage.py", "migrate", "--noinput")

    def argv(self, name: str) -> list[str]:
        """The Procfile's command for `name`; beat keeps its schedule in `folder`, the workers
        take WORKER_OPTIONS too."""
        command = self.stack.command(name)
        if name == "beat":
            return with_option(command, "--schedule", str(self.folder / "beat-schedule"))
        if name in WORKERS:
            return [*command, *WORKER_OPTIONS]
        return command

    def start(self, *names: str) -> None:
        """Starts these processes of the Procfile, all at once, and waits until they answer:
        the web server a page, each Celery worker a ping over the broker (beat answers
        nothing)."""
        for name in names:
            self.stack.start(name, self.argv(name))
        if "web" in names:
            self.stack.wait_web(self.base)
        if workers := [name for name in names if name in WORKERS]:
            self.stack.wait_workers(self.redis_url, *workers)

    def kill(self, name: str) -> None:
        """SIGKILL: no shutdown of any kind, as when a machine or a container dies."""
        self.stack.kill(name)

    def logs(self, lines: int | None = 60) -> str:
        """The end of every process's log (None: all of each)."""
        return self.stack.report(lines)

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
        if self._stack is not None:
            self._stack.stop_all()


@contextmanager
def stack(database_url: str, redis_url: str, folder: Path) -> Iterator[Stack]:
    running = Stack(database_url=database_url, redis_url=redis_url, folder=folder)
    try:
        yield running
    finally:
        running.stop_all()


def unexpected_tracebacks(logs: str) -> list[str]:
    """Each log record in `logs` that holds a traceback, but those of RECOVERED: a record is a
    line in the format of the site's or Celery's log lines and the lines after it up to the
    next such line."""
    records: list[list[str]] = [[]]
    for line in logs.splitlines():
        if LOG_RECORD.match(line) or line.startswith("--- "):  # a record, or a log's heading
            records.append([])
        records[-1].append(line)
    found = []
    for record in records:
        if not any(line.startswith("Traceback (most recent call last):") for line in record):
            continue
        ending = [line for line in record if line and not line[0].isspace()][-1]
        if not any(
            record[0].startswith(logged) and ending.startswith(error) for logged, error in RECOVERED
        ):
            found.append("\n".join(record))
    return found


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
