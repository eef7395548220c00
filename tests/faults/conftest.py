"""Fault tests start and stop their own Redis (never the machine's shared one): a private
redis-server on a free port, in a temporary folder, killed at the end."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis

from tests.conftest import REQUIRE_SERVICES


@dataclass
class PrivateRedis:
    url: str
    process: subprocess.Popen[bytes]

    def freeze(self) -> None:
        """Stop the server dead (SIGSTOP): connections stay open, nothing answers."""
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        self.process.send_signal(signal.SIGCONT)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    binary = shutil.which("redis-server")
    if binary is None:
        if REQUIRE_SERVICES:
            pytest.fail("REQUIRE_SERVICES=1 but redis-server is not installed")
        pytest.skip("needs the redis-server program")
    port = _free_port()
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(
        [*argv, "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis.from_url(url, socket_connect_timeout=1).ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    pytest.fail("the private redis-server did not start")
                time.sleep(0.05)
        yield PrivateRedis(url=url, process=process)
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGCONT)
            process.kill()
            process.wait(timeout=10)
