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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REQUIRE_SERVICES
from tests.e2e.helpers import ARTIFACTS, CHROMIUM, LAUNCH_ARGS, WAIT_MS, manage
from tests.processes import ProcessStack, free_port, with_option

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


def _stack_commands(stack: ProcessStack, tmp: Path) -> dict[str, list[str]]:
    """The processes to start, in order: the Procfile's, with one worker for every queue and
    beat's schedule file in this run's folder."""
    worker = with_option(stack.command("worker"), "--queues", WORKER_QUEUES)
    worker = with_option(worker, "--concurrency", WORKER_THREADS)
    beat = with_option(stack.command("beat"), "--schedule", str(tmp / "beat-schedule"))
    return {
        "redis": stack.command("redis"),
        "web": stack.command("web"),
        "worker": worker,
        "beat": beat,
    }


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This run's folder of the site: its SQLite file and beat's schedule."""
    return tmp_path_factory.mktemp("e2e-server")


@pytest.fixture(scope="session")
def site_env(site_dir: Path) -> dict[str, str]:
    """The environment the site's processes run in: a fresh SQLite file, the embedded Redis
    and the web server on free ports."""
    tmp = site_dir
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    redis_port, web_port = free_port(), free_port()
    env.update(
        # As `make run` sets them (the stack puts the venv's programs first on PATH).
        EMBEDDED_REDIS="1",
        EMBEDDED_REDIS_PORT=str(redis_port),
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
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
    return env


@pytest.fixture(scope="session")
def server_url(
    chromium_path: str, artifacts: Path, site_dir: Path, site_env: dict[str, str]
) -> Iterator[str]:
    """Migrates the site's fresh SQLite file and starts the embedded Redis, the web server, the
    Celery worker and beat; the site's address."""
    env, redis_url, web_port = site_env, site_env["REDIS_URL"], site_env["WEB_PORT"]
    node = os.environ.get("PYTEST_XDIST_WORKER", "main")  # each xdist worker has its own stack
    url = f"http://127.0.0.1:{web_port}"
    with ProcessStack(env, lambda name: artifacts / f"e2e-{node}-{name}.log") as stack:
        commands = _stack_commands(stack, site_dir)
        stack.start("redis", commands["redis"])
        manage(stack.env, "migrate", "--noinput")
        stack.wait_redis(redis_url)
        for name in ("web", "worker", "beat"):
            stack.start(name, commands[name])
        stack.wait_web(url)
        stack.wait_workers(redis_url, "worker")
        yield url


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
