"""A private PostgreSQL for fault tests: initdb in a temporary folder, a server on a free port
that the test may stop and start again, removed at the end. Never the machine's shared server.
As root, PostgreSQL's programs run as the `postgres` user (the server refuses to run as root)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from tests.conftest import REQUIRE_SERVICES

DATABASE = "wizard"


def _programs() -> Path | None:
    """The folder of initdb and pg_ctl: the newest /usr/lib/postgresql/*/bin, else the PATH."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=_version)
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).resolve().parent if on_path else None


def _version(path: str) -> int:
    part = Path(path).parts[-3]
    return int(part) if part.isdigit() else 0


@dataclass
class PrivatePostgres:
    bin: Path
    data: Path
    port: int
    as_user: list[str]

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, program: str, *args: str) -> None:
        argv = [*self.as_user, str(self.bin / program), *args]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
        if done.returncode != 0:
            pytest.fail(f"{program} {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data}"
        log = str(self.data / "server.log")
        self._run("pg_ctl", "-D", str(self.data / "db"), "-l", log, "-o", options, "-w", "start")

    def stop(self) -> None:
        """A fast shutdown: sessions are cut off, as in a restart of the server."""
        self._run("pg_ctl", "-D", str(self.data / "db"), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        argv = [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data / "db"), "status"]
        return subprocess.run(argv, capture_output=True, timeout=30, check=False).returncode == 0


@contextmanager
def private_postgres(port: int) -> Iterator[PrivatePostgres]:
    programs = _programs()
    if programs is None or not (programs / "initdb").exists():
        if REQUIRE_SERVICES:
            pytest.fail("REQUIRE_SERVICES=1 but PostgreSQL's initdb and pg_ctl are not installed")
        pytest.skip("needs PostgreSQL's initdb and pg_ctl")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="wizard-faults-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    server = PrivatePostgres(bin=programs, data=folder, port=port, as_user=as_user)
    try:
        server._run(
            "initdb", "-D", str(folder / "db"), "-U", "postgres", "-A", "trust", "-E", "UTF8"
        )
        server.start()
        admin = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f"CREATE DATABASE {DATABASE}")
        yield server
    finally:
        if server.running():
            server._run("pg_ctl", "-D", str(folder / "db"), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)
