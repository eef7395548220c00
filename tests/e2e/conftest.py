"""Browser tests: a real Daphne server on a fresh SQLite file, driven by Debian's Chromium.

The server runs as a subprocess with the in-memory channel layer (REDIS_URL unset), so the
whole site (pages, REST moves, websocket pushes) runs in that one process. No Django test
database is used: everything goes through HTTP. Without /usr/bin/chromium the tests skip,
unless REQUIRE_SERVICES=1, which makes that a failure. Playwright never downloads a browser.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REQUIRE_SERVICES
from tests.e2e.helpers import ARTIFACTS, CHROMIUM, LAUNCH_ARGS, ROOT
from tests.processes import end


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
    """test-artifacts/ (git-ignored): screenshots and the server log."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _log_tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@pytest.fixture(scope="session")
def server_url(
    chromium_path: str, artifacts: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """Migrates a fresh SQLite file and serves the site with Daphne on a free port."""
    tmp = tmp_path_factory.mktemp("e2e-server")
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="wizardsite.settings",
        DATABASE_URL=f"sqlite:///{tmp / 'e2e.sqlite3'}",
        DEBUG="1",
        # No Celery worker runs here: bots answer at once (the page paces what it shows), and
        # the many sign-ups of the tests are not throttled.
        BOT_MOVE_DELAY_MS="0",
        RATE_LIMITS_ENABLED="false",
        PYTHONUNBUFFERED="1",
    )
    migrate = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert migrate.returncode == 0, f"manage.py migrate failed:\n{migrate.stdout}\n{migrate.stderr}"

    daphne = ROOT / ".venv" / "bin" / "daphne"
    command = [str(daphne)] if daphne.exists() else [shutil.which("daphne") or "daphne"]
    port = _free_port()
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # each pytest-xdist worker has its server
    log_path = artifacts / (f"e2e-server-{worker}.log" if worker else "e2e-server.log")
    url = f"http://127.0.0.1:{port}"
    with log_path.open("w") as log:
        process = subprocess.Popen(
            [*command, "-b", "127.0.0.1", "-p", str(port), "wizardsite.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_up(process, url, log_path)
            yield url
        finally:
            end(process)


def _wait_until_up(process: subprocess.Popen[Any], url: str, log_path: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(
                f"daphne exited with {process.returncode} before answering:\n{_log_tail(log_path)}"
            )
        try:
            with urllib.request.urlopen(url + "/", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    pytest.fail(f"daphne did not answer at {url} within 60 s:\n{_log_tail(log_path)}")


@pytest.fixture(scope="package")
def browser(chromium_path: str) -> Iterator[Any]:
    """One headless Chromium for the browser tests; each player gets their own context.

    Package scope: Playwright's sync API keeps an event loop running in this thread until it
    stops, which would break asyncio tests that run after these."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=chromium_path, headless=True, args=LAUNCH_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()
