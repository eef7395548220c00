"""Fault tests start and stop their own Redis (never the machine's shared one): a private
redis-server on a free port, in a temporary folder, killed at the end."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES
from tests.faults.postgres import PrivatePostgres, private_postgres
from tests.faults.stack import Stack
from tests.processes import free_port, redis_answers


@dataclass
class PrivateRedis:
    url: str
    process: subprocess.Popen[bytes]
    argv: list[str]

    def freeze(self) -> None:
        """Stop the server dead (SIGSTOP): connections stay open, nothing answers."""
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)

    def restart(self) -> None:
        """Killed (SIGKILL, its data lost: it keeps none) and started again on the same port:
        every connection to it breaks."""
        self.process.kill()
        self.process.wait(timeout=10)
        self.process = _start_redis(self.argv, self.url)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        if REQUIRE_SERVICES:
            pytest.fail("REQUIRE_SERVICES=1 but redis-server is not installed")
        pytest.skip("needs the redis-server program")
    port = free_port()
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    argv += ["--dir", str(tmp_path)]
    url = f"redis://127.0.0.1:{port}/0"
    server = PrivateRedis(url=url, process=_start_redis(argv, url), argv=argv)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            os.kill(server.process.pid, signal.SIGCONT)
            server.process.kill()
            server.process.wait(timeout=10)


def _start_redis(argv: list[str], url: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 10
    while not redis_answers(url):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail("the private redis-server did not start")
        time.sleep(0.05)
    return process


@pytest.fixture(scope="session")
def private_pg() -> Iterator[PrivatePostgres]:
    """A private PostgreSQL server with an empty, migrated `wizard` database, shared by the
    fault tests of the session; a test that stops it starts it again."""
    with private_postgres(free_port()) as server:
        folder = Path(server.data)
        Stack(database_url=server.url, redis_url="", folder=folder).migrate()
        yield server
