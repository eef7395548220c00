"""The live benchmark's stack: the web server, Celery worker, review worker and beat as
subprocesses on loopback, started as the Procfiles start them (tests/processes.py, the stack of
the browser and fault tests too), against PostgreSQL and Redis, and their CPU time from /proc."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import psycopg

from tests.processes import HOST, ProcessStack, with_option

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
USER_PREFIX = "livebench-"


def loopback_only(url: str, what: str) -> None:
    host = urlsplit(url).hostname
    if host not in LOOPBACK:
        sys.exit(f"live: {what} must point at a loopback address, not {host!r}")


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


def parse_server(text: str) -> int:
    """How many web processes: `uvicorn` → 1 (the Procfile's web server, as `make run`);
    `uvicorn-workers:N` → N (Procfile.production's, as `make serve` with WEB_CONCURRENCY=N).
    ValueError otherwise."""
    if text == "uvicorn":
        return 1
    name, _, count = text.partition(":")
    if name == "uvicorn-workers" and count.isdigit() and 1 <= int(count) <= 64:
        return int(count)
    raise ValueError(f"--server is 'uvicorn' or 'uvicorn-workers:N', not {text!r}")


def web_command(workers: int, port: int) -> list[str]:
    """The web server as the Procfiles start it: `make run`'s for one process, `make serve`'s
    (Procfile.production, its workers sharing the port) for several."""
    if workers == 1:
        return ProcessStack({"WEB_PORT": str(port)}, Path()).command("web")
    values = {"HOST": HOST, "PORT": str(port), "WEB_CONCURRENCY": str(workers)}
    return ProcessStack(values, Path()).command("web", "Procfile.production")


class Stack(ProcessStack):
    """The web server, Celery worker, review worker and beat, each as the Procfile starts it
    (`web_command` for the web server), logging to `workdir`."""

    def __init__(
        self,
        *,
        port: int,
        env: dict[str, str],
        workdir: Path,
        workers: int = 1,
        review: bool = True,
    ) -> None:
        super().__init__({**env, "WEB_PORT": str(port)}, workdir)
        self.port = port
        self.workdir = workdir
        self.workers = workers
        self.review = review

    def start_all(self) -> None:
        beat = with_option(self.command("beat"), "--schedule", str(self.workdir / "beat-schedule"))
        commands = {
            "web": web_command(self.workers, self.port),
            "worker": self.command("worker"),
            # Its own queue, at the lowest priority (its CPU is the review of finished games,
            # not the move path: reported apart, not in a move's cost).
            "review": self.command("review"),
            "beat": beat,
        }
        if not self.review:
            del commands["review"]
        for name, command in commands.items():
            self.start(name, command)


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
