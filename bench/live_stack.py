"""The live benchmark's stack: the web server, Celery worker, review worker and beat as
subprocesses on loopback, against PostgreSQL and Redis, and their CPU time from /proc."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

import psycopg

from core import limits

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv" / "bin" if (ROOT / ".venv" / "bin").is_dir() else Path(sys.executable).parent
HOST = "127.0.0.1"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
USER_PREFIX = "livebench-"


def loopback_only(url: str, what: str) -> None:
    host = urlsplit(url).hostname
    if host not in LOOPBACK:
        sys.exit(f"live: {what} must point at a loopback address, not {host!r}")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


def retire_bench_games(url: str) -> int:
    """Mark benchmark users' unfinished games aborted, so no later timer sweep works on them;
    returns how many."""
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        cursor = conn.execute(
            "UPDATE games_game SET status = 'aborted', to_act = NULL, deadline = NULL,"
            " finished_at = now() WHERE status IN ('open', 'active') AND created_by_id IN"
            " (SELECT id FROM auth_user WHERE username LIKE %s)",
            (USER_PREFIX + "%",),
        )
        return cursor.rowcount


# --------------------------------------------------------------------------- the web server


def uvicorn_available() -> bool:
    found = subprocess.run(
        [str(BIN / "python"), "-c", "import uvicorn"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return found.returncode == 0


def parse_server(text: str) -> tuple[str, int]:
    """`daphne` → ("daphne", 1); `uvicorn-workers:N` → ("uvicorn", N). ValueError otherwise."""
    if text == "daphne":
        return "daphne", 1
    name, _, count = text.partition(":")
    if name == "uvicorn-workers" and count.isdigit() and 1 <= int(count) <= 64:
        return "uvicorn", int(count)
    raise ValueError(f"--server is 'daphne' or 'uvicorn-workers:N', not {text!r}")


def web_command(server: str, workers: int, port: int) -> list[str]:
    """The web server as the Procfiles run it, with their bound on a socket message's size."""
    most = str(limits.SOCKET_SERVER_MAX_BYTES)
    if server == "daphne":
        return [
            str(BIN / "daphne"),
            "-b",
            HOST,
            "-p",
            str(port),
            "--websocket-max-message-size",
            most,
            "wizardsite.asgi:application",
        ]
    return [
        str(BIN / "python"),
        "-m",
        "uvicorn",
        "wizardsite.asgi:application",
        "--host",
        HOST,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--log-level",
        "warning",
        "--no-access-log",
        "--no-proxy-headers",  # as the Procfiles: the site decides the client's address
        "--ws-max-size",
        most,
    ]


class Stack:
    """The web server, Celery worker, review worker and beat as subprocesses, logging to
    `workdir`."""

    def __init__(
        self,
        *,
        port: int,
        env: dict[str, str],
        workdir: Path,
        server: str = "daphne",
        workers: int = 1,
        review: bool = True,
    ) -> None:
        self.port = port
        self.env = env
        self.workdir = workdir
        self.server = server
        self.workers = workers
        self.review = review
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self._logs: list[IO[bytes]] = []

    def start(self) -> None:
        celery = [str(BIN / "celery"), "-A", "wizardsite"]
        background = [str(BIN / "python"), "-m", "wizardsite.background"]
        quiet = ["-l", "WARNING"]
        review = ["--queues", "review", "--hostname", "review@%h", "--pool", "solo"]
        commands = {
            "web": web_command(self.server, self.workers, self.port),
            "worker": [*celery, "worker", "--pool", "threads", "--concurrency", "2", *quiet],
            # As the Procfiles run it: its own queue, at the lowest priority (its CPU is the
            # review of finished games, not the move path: reported apart, not in a move's cost).
            "review": [*background, *celery, "worker", *review, *quiet],
            "beat": [*celery, "beat", *quiet, "--schedule", str(self.workdir / "beat-schedule")],
        }
        if not self.review:
            del commands["review"]
        for name, command in commands.items():
            log = (self.workdir / f"{name}.log").open("wb")
            self._logs.append(log)
            self.processes[name] = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C reaches us, and we stop them in order
            )

    def check_alive(self) -> None:
        for name, process in self.processes.items():
            if process.poll() is not None:
                raise RuntimeError(
                    f"{name} exited with {process.returncode}:\n{self.log_tail(name)}"
                )

    def log_tail(self, name: str, lines: int = 30) -> str:
        path = self.workdir / f"{name}.log"
        if not path.exists():
            return ""
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 15
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            if process.poll() is None:
                process.kill()
                process.wait(timeout=5)
        for log in self._logs:
            log.close()


# --------------------------------------------------------------------------- CPU accounting

CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass
class ProcStat:
    ppid: int
    own: float  # user + system seconds of the process, all its threads
    reaped: float  # the same for the children it has waited for


def proc_stat(pid: int) -> ProcStat | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    ticks = [int(value) for value in fields[11:15]]
    return ProcStat(int(fields[1]), sum(ticks[:2]) / CLOCK_TICKS, sum(ticks[2:]) / CLOCK_TICKS)


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU seconds of a process (with `children`, plus its reaped children's);
    0 when unknown."""
    stat = proc_stat(pid)
    if stat is None:
        return 0.0
    return stat.own + (stat.reaped if children else 0.0)


def all_pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of a process and all its descendants, living or reaped (uvicorn's workers)."""
    stats = {pid: stat for pid in all_pids() if (stat := proc_stat(pid)) is not None}
    tree, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, stat in stats.items():
            if stat.ppid == parent and pid not in tree:
                tree.add(pid)
                frontier.append(pid)
    return sum(stats[pid].own + stats[pid].reaped for pid in tree if pid in stats)


def pids_where(match: Callable[[str, str], bool]) -> list[int]:
    """The processes whose (comm, command line) match."""
    found = []
    for pid in all_pids():
        with contextlib.suppress(OSError):
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            if match(comm, cmdline):
                found.append(pid)
    return found


SERVER_PARTS = ("web", "worker", "beat", "postgres", "redis")


def cpu_snapshot(stack: Stack) -> dict[str, float]:
    """Cumulative CPU seconds of each part, this client and the machine; PostgreSQL's and
    Redis's count all their clients (and PostgreSQL's, its reaped backends)."""
    redis_port = urlsplit(stack.env["REDIS_URL"]).port or 6379
    snapshot = {name: tree_cpu_seconds(p.pid) for name, p in stack.processes.items()}
    postgres = pids_where(lambda comm, _: comm == "postgres")
    snapshot["postgres"] = sum(cpu_seconds(p, children=True) for p in postgres)
    redis = pids_where(lambda comm, line: comm == "redis-server" and f":{redis_port}" in line)
    snapshot["redis"] = sum(cpu_seconds(pid) for pid in redis)
    snapshot["client"] = time.process_time()
    snapshot["machine"] = machine_busy_seconds()
    return snapshot


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has spent busy (not idle nor waiting on I/O)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields)
    return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS


def cpu_report(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    shares = [f"{name} {100 * (after[name] - before[name]) / seconds:.0f}%" for name in before]
    return ", ".join(shares)


# --------------------------------------------------------------------------- shared servers


def other_databases_transactions(url: str) -> int:
    """Transactions so far in this PostgreSQL server's other databases: growth means someone
    else used it (and its CPU is counted)."""
    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(xact_commit + xact_rollback), 0) FROM pg_stat_database"
            " WHERE datname IS NOT NULL AND datname <> %s",
            (name,),
        ).fetchone()
    return int(row[0]) if row else 0


def other_redis_clients(url: str, within: float) -> int:
    """Clients of this redis-server's other databases active in the last `within` seconds."""
    import redis

    db = int(urlsplit(url).path.lstrip("/") or 0)
    client = redis.Redis.from_url(url, socket_timeout=5)
    try:
        listed = client.client_list()
    finally:
        client.close()
    return sum(1 for c in listed if int(c.get("db", db)) != db and int(c.get("idle", 0)) <= within)
