"""Browser tests: the site as `make run` serves it, on a fresh SQLite file, driven by Debian's
Chromium.

Each pytest-xdist worker starts the Procfile's stack as subprocesses: the embedded Redis, the
web server, one Celery worker taking every queue (bots, the turn timer, notices, the review) and
Celery beat. Bots and the timer act in the worker, after a move's answer, as in production; the
tests wait for what they do. The processes share the SQLite file (each waits for its lock, as
under `make run`); no Django test database is used: everything goes through HTTP and websockets.
Each process logs to test-artifacts/e2e-<xdist worker>-<process>.log. Without /usr/bin/chromium
the tests skip, unless REQUIRE_SERVICES=1, which makes that a failure. Playwright never
downloads a browser.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery

from tests.conftest import REQUIRE_SERVICES
from tests.e2e.helpers import ARTIFACTS, CHROMIUM, LAUNCH_ARGS, ROOT, WAIT_MS
from tests.processes import end, procfile

STARTUP_SECONDS = 90  # a loaded CI machine imports Django in three processes at once
# One worker for all the queues the Procfile splits over three (its review worker, at the
# lowest priority, only matters when moves compete with reviews for the cores).
WORKER_QUEUES = "celery,notifications,review"
WORKER_THREADS = "4"


def _unavailable(reason: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """Debian's Chromium; a skip (or, with REQUIRE_SERVICES=1, a failure) without it."""
    if not os.access(CHROMIUM, os.X_OK):
        _unavailable(
            f"the browser tests need Debian's chromium at {CHROMIUM} (apt install chromium)"
        )
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _unavailable("the browser tests need the playwright package (pip install -e '.[dev]')")
    return str(CHROMIUM)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """test-artifacts/ (git-ignored): screenshots and the servers' logs."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _with_option(argv: list[str], option: str, value: str) -> list[str]:
    """`argv` with `option`'s value replaced (the option must be there)."""
    at = argv.index(option) + 1
    return [*argv[:at], value, *argv[at + 1 :]]


def _stack_commands(env: dict[str, str], tmp: Path) -> dict[str, list[str]]:
    """The processes to start, in order: the Procfile's, with one worker for every queue and
    beat's schedule file in this run's folder."""
    commands = procfile(env)
    worker = _with_option(commands["worker"], "--queues", WORKER_QUEUES)
    worker = _with_option(worker, "--concurrency", WORKER_THREADS)
    beat = _with_option(commands["beat"], "--schedule", str(tmp / "beat-schedule"))
    return {"redis": commands["redis"], "web": commands["web"], "worker": worker, "beat": beat}


def _log_tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


class Stack:
    """The running processes of one pytest-xdist worker, each logging to its own file."""

    def __init__(self, env: dict[str, str], logs: Callable[[str], Path]) -> None:
        self.env = env
        self.logs = logs
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, argv: list[str]) -> None:
        with self.logs(name).open("wb") as log:
            self.processes[name] = subprocess.Popen(
                argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )

    def wait_for(self, what: str, ready: Callable[[], bool]) -> None:
        """Until `ready()`; fails at once, with every log's end, if a process exits."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while not ready():
            for name, process in self.processes.items():
                if process.poll() is not None:
                    pytest.fail(f"{name} exited with {process.returncode}:\n{self.report()}")
            if time.monotonic() > deadline:
                pytest.fail(f"{what} not ready within {STARTUP_SECONDS} s:\n{self.report()}")
            time.sleep(0.1)

    def report(self) -> str:
        return "\n".join(f"--- {name}\n{_log_tail(self.logs(name))}" for name in self.processes)

    def stop(self) -> None:
        """Beat first (no new sweeps), Redis last (the others' broker)."""
        for name in reversed(list(self.processes)):
            end(self.processes.pop(name))


def _redis_answers(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except (redis.RedisError, OSError):
        return False


def _web_answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/", timeout=2) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def _worker_answers(broker: str) -> bool:
    """A worker answers a ping over the broker (`celery inspect ping`, without a process)."""
    app = Celery("e2e-ping", broker=broker, set_as_current=False)
    try:
        return bool(app.control.ping(timeout=1.0))
    except OSError:
        return False
    finally:
        app.close()


@pytest.fixture(scope="session")
def server_url(
    chromium_path: str, artifacts: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Migrates a fresh SQLite file and starts the embedded Redis, the web server, the Celery
    worker and beat on free ports; the site's address."""
    tmp = tmp_path_factory.mktemp("e2e-server")
    redis_port, web_port = _free_port(), _free_port()
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        # As `make run` sets them; the Procfile's commands are found in the venv.
        PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]),
        EMBEDDED_REDIS="1",
        EMBEDDED_REDIS_PORT=str(redis_port),
        REDIS_URL=redis_url,
        WEB_PORT=str(web_port),
        DJANGO_SETTINGS_MODULE="wizardsite.settings",
        DATABASE_URL=f"sqlite:///{tmp / 'e2e.sqlite3'}",
        DEBUG="1",
        # Bots answer at once (the page paces what it shows), the review of a finished game
        # takes a second or two, and the many sign-ups of the tests are not throttled.
        BOT_MOVE_DELAY_MS="0",
        REVIEW_BUDGET_MS="5",
        RATE_LIMITS_ENABLED="false",
        # A scenario's player fixes the shuffle seed of the tables they create (helpers.sign_up).
        TEST_SHUFFLE_SEEDS="true",
        PYTHONUNBUFFERED="1",
    )
    node = os.environ.get("PYTEST_XDIST_WORKER", "main")  # each xdist worker has its own stack
    stack = Stack(env, lambda name: artifacts / f"e2e-{node}-{name}.log")
    commands = _stack_commands(env, tmp)
    url = f"http://127.0.0.1:{web_port}"
    try:
        stack.start("redis", commands["redis"])
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        assert migrate.returncode == 0, (
            f"manage.py migrate failed:\n{migrate.stdout}\n{migrate.stderr}"
        )
        stack.wait_for("the embedded Redis", lambda: _redis_answers(redis_url))
        for name in ("web", "worker", "beat"):
            stack.start(name, commands[name])
        stack.wait_for("the web server", lambda: _web_answers(url))
        stack.wait_for("the Celery worker", lambda: _worker_answers(redis_url))
        yield url
    finally:
        stack.stop()


@pytest.fixture(scope="package")
def browser(chromium_path: str) -> Iterator[Any]:
    """One headless Chromium for the browser tests; each player gets their own context.

    Package scope: Playwright's sync API keeps an event loop running in this thread until it
    stops, which would break asyncio tests that run after these."""
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=LAUNCH_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()
