"""The live stack under load: REST moves, websocket pushes and the turn timer, end to end.

    .venv/bin/python bench/live.py [--games 50] [--seconds 60] [--idle-games 10]
                                   [--idle-seconds 30] [--database-url URL] [--redis-url URL]

Starts the stack on loopback itself, as `make run` would but without honcho: Daphne, a Celery
worker (threads, concurrency 2) and Celery beat, against PostgreSQL (the database is created if
missing and migrated) and Redis (channel layer and broker). DEBUG is off, as in production.
Every process it starts is terminated when it ends, however it ends.

1. Throughput and push latency. Registers the players through the REST API, opens `--games`
   4-player tables of humans (600 s turns, so the timer never interferes) and connects one
   websocket per player. A scripted client per player waits for a pushed view in which it is
   to act, then POSTs a seeded random legal move with the view's `seq` over its own keep-alive
   HTTP/1.1 connection. For every accepted move: time from the HTTP response's arrival until
   each of the table's four sockets has received a view with `seq` ≥ the response's (0 when
   the pushes beat the response). Runs `--seconds` or until every game ends.
2. Auto-move lateness. Opens `--idle-games` tables with 5 s turns where nobody moves; every
   socket records, for each pushed view whose `seq` grew (an R16 auto-move), its arrival time
   minus the `deadline` of the view before it.

All clients live in this one asyncio process (the machine has two cores). The last three lines
are the figures; the lines before them give counts, errors and where the CPU went.
Games left running by a run (this or an interrupted one) are marked aborted in the benchmark's
database afterwards, so the turn timer of the next run has nothing stale to sweep.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import math
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any, TypeVar
from urllib.parse import urlsplit

import psycopg
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import ensure_database  # noqa: E402

BIN = ROOT / ".venv" / "bin" if (ROOT / ".venv" / "bin").is_dir() else Path(sys.executable).parent
HOST = "127.0.0.1"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
PLAYERS = 4
USER_PREFIX = "livebench-"
PASSWORD = "a bench passphrase that is long enough"

T = TypeVar("T")


# --------------------------------------------------------------------------- the stack


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
    """Mark the unfinished games of benchmark users aborted (this database only holds bench
    data), so no later turn-timer sweep works on them. Returns how many."""
    with psycopg.connect(url, autocommit=True, connect_timeout=10) as conn:
        cursor = conn.execute(
            "UPDATE games_game SET status = 'aborted', to_act = NULL, deadline = NULL,"
            " finished_at = now() WHERE status IN ('open', 'active') AND created_by_id IN"
            " (SELECT id FROM auth_user WHERE username LIKE %s)",
            (USER_PREFIX + "%",),
        )
        return cursor.rowcount


class Stack:
    """Daphne, a Celery worker and Celery beat as subprocesses; logs in a temporary folder."""

    def __init__(self, *, port: int, env: dict[str, str], workdir: Path) -> None:
        self.port = port
        self.env = env
        self.workdir = workdir
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self._logs: list[IO[bytes]] = []

    def start(self) -> None:
        commands = {
            "daphne": [
                str(BIN / "daphne"),
                "-b",
                HOST,
                "-p",
                str(self.port),
                "wizardsite.asgi:application",
            ],
            "worker": [
                str(BIN / "celery"),
                "-A",
                "wizardsite",
                "worker",
                "--pool",
                "threads",
                "--concurrency",
                "2",
                "-l",
                "WARNING",
            ],
            "beat": [
                str(BIN / "celery"),
                "-A",
                "wizardsite",
                "beat",
                "-l",
                "WARNING",
                "--schedule",
                str(self.workdir / "beat-schedule"),
            ],
        }
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


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU time of a process (all its threads), from /proc; with `children`,
    plus that of the children it has reaped. 0 when unknown."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = [int(value) for value in stat.rsplit(")", 1)[1].split()[11:15]]
    return sum(fields if children else fields[:2]) / CLOCK_TICKS


def pids_where(match: Callable[[str, str], bool]) -> list[int]:
    """The processes whose (comm, command line) match."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                comm = (entry / "comm").read_text().strip()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                if match(comm, cmdline):
                    found.append(int(entry.name))
    return found


def cpu_snapshot(stack: Stack, redis_port: int) -> dict[str, float]:
    """Cumulative CPU seconds of each part. PostgreSQL forks a backend per connection (and the
    app connects per request), so its figure counts living backends plus the ones the
    postmaster has reaped; it includes every other client of that server."""
    snapshot = {name: cpu_seconds(p.pid) for name, p in stack.processes.items()}
    snapshot["client (this)"] = time.process_time()
    postgres = pids_where(lambda comm, _: comm == "postgres")
    snapshot["postgres (whole server)"] = sum(cpu_seconds(p, children=True) for p in postgres)
    redis = pids_where(lambda comm, line: comm == "redis-server" and f":{redis_port}" in line)
    snapshot["redis-server"] = sum(cpu_seconds(pid) for pid in redis)
    return snapshot


def cpu_report(before: dict[str, float], after: dict[str, float], seconds: float) -> str:
    shares = [f"{name} {100 * (after[name] - before[name]) / seconds:.0f}%" for name in before]
    return ", ".join(shares)


# --------------------------------------------------------------------------- a small client


class HttpError(Exception):
    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body

    @property
    def code(self) -> str:
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return str(self.body["error"].get("code"))
        return f"http_{self.status}"


class Http:
    """One keep-alive HTTP/1.1 connection, one request at a time: what one client holds."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()

    async def post(self, path: str, body: Any = None) -> Any:
        return await self.request("POST", path, body)

    async def request(self, method: str, path: str, body: Any = None) -> Any:
        """The JSON body of a 2xx answer; HttpError otherwise. Reconnects once if the server
        closed the idle connection (moves carry `seq`, so a repeat cannot apply twice)."""
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", "Accept: */*"]
        if self.token is not None:
            head.append(f"Authorization: Token {self.token}")
        if body is not None:
            head.append("Content-Type: application/json")
        head.append(f"Content-Length: {len(payload)}")
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + payload
        async with self._lock:
            for attempt in range(2):
                try:
                    if self._writer is None:
                        self._reader, self._writer = await asyncio.open_connection(HOST, self.port)
                    self._writer.write(message)
                    status, data = await self._response()
                    break
                except (ConnectionError, asyncio.IncompleteReadError):
                    self.close()
                    if attempt == 1:
                        raise
        parsed = json.loads(data) if data else None
        if not 200 <= status < 300:
            raise HttpError(status, parsed)
        return parsed

    async def _response(self) -> tuple[int, bytes]:
        assert self._reader is not None
        reader = self._reader
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("connection closed")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            data = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while size := int((await reader.readline()).split(b";")[0], 16):
                chunks.append(await reader.readexactly(size))
                await reader.readline()
            await reader.readline()
            data = b"".join(chunks)
        else:
            data = await reader.read()
            self.close()
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, data

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


async def bounded(limit: int, jobs: list[Callable[[], Awaitable[T]]]) -> list[T]:
    """Run the jobs with at most `limit` in flight; results in order."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[T]]) -> T:
        async with gate:
            return await job()

    return list(await asyncio.gather(*(one(job) for job in jobs)))


@dataclass
class Account:
    username: str
    token: str


async def register(port: int, count: int) -> list[Account]:
    """`count` new players through POST /accounts/register/ (a few at a time: each sign-up
    hashes a password, which is meant to be slow)."""
    run = secrets.token_hex(4)
    connections = [Http(port) for _ in range(4)]

    def job(i: int) -> Callable[[], Awaitable[Account]]:
        async def sign_up() -> Account:
            username = f"{USER_PREFIX}{run}-{i}"
            http = connections[i % len(connections)]
            body = {"username": username, "password": PASSWORD, "email": f"{username}@example.org"}
            answer = await http.post("/api/v1/accounts/register/", body)
            return Account(username, str(answer["token"]))

        return sign_up

    try:
        return await bounded(len(connections), [job(i) for i in range(count)])
    finally:
        for http in connections:
            http.close()


# --------------------------------------------------------------------------- tables and sockets


@dataclass
class Player:
    account: Account
    http: Http
    index: int  # 0..3 at its table
    rng: random.Random
    ws: ClientConnection | None = None
    view: dict[str, Any] | None = None
    seq: int = -1
    acted_seq: int = -1
    arrivals: deque[tuple[int, float]] = field(default_factory=lambda: deque(maxlen=16))

    def reached(self, seq: int) -> float | None:
        """When this socket first received a view with `seq` or later (None: not yet)."""
        return next((at for got, at in self.arrivals if got >= seq), None)


@dataclass
class Pending:
    seq: int
    sent: float
    answered: float
    waiting: set[int]


@dataclass
class Table:
    id: int
    players: list[Player]
    pending: list[Pending] = field(default_factory=list)
    progressed: float = field(default_factory=time.perf_counter)
    finished: bool = False
    moving: bool = False


async def open_tables(
    port: int,
    accounts: list[Account],
    games: int,
    turn_seconds: int,
    seed: int,
    stagger: float = 0.0,
) -> list[Table]:
    """`games` full tables of four humans: one creates it, three join (it starts at once).
    With `stagger`, each table opens after a random delay of up to that many seconds."""
    rng = random.Random(seed)
    delays = [rng.random() * stagger for _ in range(games)]

    def job(g: int) -> Callable[[], Awaitable[Table]]:
        async def open_table() -> Table:
            chosen = [accounts[(PLAYERS * g + i) % len(accounts)] for i in range(PLAYERS)]
            players = [
                Player(account, Http(port, account.token), i, random.Random(f"{seed}-{g}-{i}"))
                for i, account in enumerate(chosen)
            ]
            await asyncio.sleep(delays[g])
            body = {"seats": PLAYERS, "bots": 0, "turn_seconds": turn_seconds}
            view = await players[0].http.post("/api/v1/games/", body)
            game_id = int(view["id"])
            for player in players[1:]:
                await player.http.post(f"/api/v1/games/{game_id}/join/")
            return Table(game_id, players)

        return open_table

    return await bounded(games if stagger else 8, [job(g) for g in range(games)])


async def connect_sockets(port: int, tables: list[Table]) -> None:
    """One websocket per player; waits for the view each sends on connect."""

    def job(table: Table, player: Player) -> Callable[[], Awaitable[None]]:
        async def open_socket() -> None:
            uri = f"ws://{HOST}:{port}/ws/games/{table.id}/?token={player.account.token}"
            player.ws = await connect(
                uri, compression=None, open_timeout=60, ping_interval=None, max_size=2**22
            )
            first = json.loads(await asyncio.wait_for(player.ws.recv(), timeout=60))
            if first.get("type") != "state":
                raise RuntimeError(f"first message on game {table.id}: {first}")
            player.view = first["state"]
            player.seq = int(first["state"]["seq"])
            player.arrivals.append((player.seq, time.perf_counter()))

        return open_socket

    await bounded(16, [job(table, player) for table in tables for player in table.players])


async def close_all(tables: list[Table]) -> None:
    async def close(player: Player) -> None:
        if player.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(player.ws.close(), timeout=5)
        player.http.close()

    await asyncio.gather(*(close(p) for table in tables for p in table.players))


# --------------------------------------------------------------------------- 1. throughput


@dataclass
class Throughput:
    running: bool = False
    started: float = 0.0
    ended: float = 0.0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)  # HTTP answer → every socket
    round_trips: list[float] = field(default_factory=list)  # HTTP request → every socket
    pushed_first: int = 0  # every socket had the view before the HTTP answer arrived
    errors: Counter[str] = field(default_factory=Counter)
    resyncs: int = 0
    lost: int = 0
    finished: int = 0
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    think: float = 0.0  # mean seconds before each move


def legal_move(player: Player, view: dict[str, Any]) -> dict[str, Any]:
    legal = view["legal"]
    if legal.get("bids"):
        return {"type": "bid", "bid": player.rng.choice(legal["bids"]), "seq": view["seq"]}
    if legal.get("cards"):
        return {"type": "play", "card": player.rng.choice(legal["cards"]), "seq": view["seq"]}
    return {"type": "trump", "suit": player.rng.choice(legal["suits"]), "seq": view["seq"]}


def maybe_move(run: Throughput, table: Table, player: Player) -> None:
    view = player.view
    if (
        not run.running
        or view is None
        or view["status"] != "active"
        or view["to_act"] != view["you"]
        or not view["legal"]
        or player.seq <= player.acted_seq
    ):
        return
    player.acted_seq = player.seq
    task = asyncio.create_task(move(run, table, player, legal_move(player, view)))
    run.tasks.add(task)
    task.add_done_callback(run.tasks.discard)


async def move(run: Throughput, table: Table, player: Player, body: dict[str, Any]) -> None:
    table.moving = True
    if run.think > 0:  # a player looks at the table before moving
        await asyncio.sleep(run.think * player.rng.uniform(0.5, 1.5))
    sent = time.perf_counter()
    try:
        answer = await player.http.post(f"/api/v1/games/{table.id}/moves/", body)
    except (HttpError, OSError, asyncio.IncompleteReadError) as error:
        run.errors[error.code if isinstance(error, HttpError) else "connection"] += 1
        if player.ws is not None:  # out of step: ask for the view again
            with contextlib.suppress(ConnectionClosed):
                await player.ws.send('{"type": "sync"}')
        return
    finally:
        table.moving = False
    answered = time.perf_counter()
    if answered <= run.ended or run.running:
        run.moves += 1
    seq = int(answer["seq"])
    waiting = {p.index for p in table.players if p.seq < seq}
    if waiting:
        table.pending.append(Pending(seq, sent, answered, waiting))
    else:  # every socket already has it
        run.latencies.append(0.0)
        run.round_trips.append(max(p.reached(seq) or answered for p in table.players) - sent)
        run.pushed_first += 1


def on_view(run: Throughput, table: Table, player: Player, view: dict[str, Any]) -> None:
    arrived = time.perf_counter()
    seq = int(view["seq"])
    if seq < player.seq:
        return
    if seq > player.seq:
        table.progressed = arrived
        player.arrivals.append((seq, arrived))
    player.view, player.seq = view, seq
    for pending in list(table.pending):
        if seq >= pending.seq and player.index in pending.waiting:
            pending.waiting.discard(player.index)
            if not pending.waiting:
                table.pending.remove(pending)
                run.latencies.append(max(0.0, arrived - pending.answered))
                run.round_trips.append(arrived - pending.sent)
    if view["status"] != "active" and not table.finished:
        table.finished = True
        run.finished += 1
    maybe_move(run, table, player)


async def listen(player: Player, handle: Callable[[dict[str, Any]], None]) -> None:
    assert player.ws is not None
    with contextlib.suppress(ConnectionClosed):
        async for raw in player.ws:
            message = json.loads(raw)
            if message.get("type") == "state":
                handle(message["state"])


async def throughput(
    port: int, accounts: list[Account], games: int, seconds: float, seed: int, think: float
) -> Throughput:
    tables = await open_tables(port, accounts, games, turn_seconds=600, seed=seed)
    await connect_sockets(port, tables)
    run = Throughput(think=think)
    listeners = [
        asyncio.create_task(listen(p, functools.partial(on_view, run, t, p)))
        for t in tables
        for p in t.players
    ]
    try:
        run.running = True
        run.started = time.perf_counter()
        for table in tables:
            table.progressed = run.started
            for player in table.players:
                maybe_move(run, table, player)
        limit = run.started + seconds
        while (now := time.perf_counter()) < limit and run.finished < len(tables):
            await asyncio.sleep(0.25)
            for table in tables:  # a lost push stalls a table: its players ask again
                if not table.finished and not table.moving and now - table.progressed > 5:
                    table.progressed = now
                    run.resyncs += 1
                    for player in table.players:
                        if player.ws is not None:
                            with contextlib.suppress(ConnectionClosed):
                                await player.ws.send('{"type": "sync"}')
        run.running = False
        run.ended = time.perf_counter()
        settle = run.ended + 5  # answers in flight, and the pushes that follow them
        while (run.tasks or any(t.pending for t in tables)) and time.perf_counter() < settle:
            await asyncio.sleep(0.05)
        run.lost = sum(len(t.pending) for t in tables)
    finally:
        for task in run.tasks | set(listeners):
            task.cancel()
        await asyncio.gather(*run.tasks, *listeners, return_exceptions=True)
        await close_all(tables)
    return run


# --------------------------------------------------------------------------- 2. auto-moves


def parse_deadline(text: str | None) -> float | None:
    return datetime.fromisoformat(text).timestamp() if text else None


@dataclass
class Lateness:
    samples: list[float] = field(default_factory=list)
    early: int = 0  # a new view before its deadline: someone (or something) moved


async def auto_moves(
    port: int, accounts: list[Account], games: int, seconds: float, seed: int
) -> Lateness:
    # Tables start at random points of the timer sweep's 1 s period, as real ones do.
    tables = await open_tables(port, accounts, games, turn_seconds=5, seed=seed, stagger=1.0)
    await connect_sockets(port, tables)
    found = Lateness()

    def on_idle_view(player: Player, view: dict[str, Any]) -> None:
        arrived = time.time()
        seq = int(view["seq"])
        previous = player.view
        if seq <= player.seq:
            return
        deadline = parse_deadline(previous["deadline"]) if previous is not None else None
        if deadline is not None:
            if arrived >= deadline:
                found.samples.append(arrived - deadline)
            else:
                found.early += 1
        player.view, player.seq = view, seq

    listeners = [
        asyncio.create_task(listen(p, functools.partial(on_idle_view, p)))
        for t in tables
        for p in t.players
    ]
    try:
        await asyncio.sleep(seconds)
    finally:
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
        await close_all(tables)
    return found


# --------------------------------------------------------------------------- figures


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile; NaN without samples."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value * 1000:.0f}"


async def wait_for_server(port: int, stack: Stack, timeout: float = 90) -> None:
    limit = time.monotonic() + timeout
    while True:
        stack.check_alive()
        http = Http(port)
        try:
            await http.request("GET", "/api/v1/accounts/me/")
        except HttpError:
            return  # 401: Django answers
        except OSError:
            if time.monotonic() > limit:
                raise RuntimeError(f"daphne did not answer:\n{stack.log_tail('daphne')}") from None
            await asyncio.sleep(0.3)
        else:
            return
        finally:
            http.close()


async def measure(args: argparse.Namespace, stack: Stack) -> None:
    port: int = args.port
    await wait_for_server(port, stack)
    users = args.users or PLAYERS * max(args.games, args.idle_games)
    began = time.perf_counter()
    accounts = await register(port, users)
    print(f"live: registered {users} players in {time.perf_counter() - began:.1f} s")

    redis_port = urlsplit(args.redis_url).port or 6379
    before = cpu_snapshot(stack, redis_port)
    run = await throughput(port, accounts, args.games, args.seconds, args.seed, args.think)
    after = cpu_snapshot(stack, redis_port)
    stack.check_alive()
    window = run.ended - run.started
    rate = run.moves / window if window > 0 else 0.0
    errors = ", ".join(f"{code} {n}" for code, n in run.errors.most_common()) or "none"
    print(
        f"live: {run.moves} moves in {window:.1f} s, {run.finished} games finished,"
        f" {len(run.latencies)} latency samples ({run.pushed_first} pushed before the answer),"
        f" {run.lost} pushes missing, {run.resyncs} stalled-table resyncs, errors: {errors}"
    )
    print(
        f"live: move request-to-every-socket p50 {ms(percentile(run.round_trips, 0.5))} ms,"
        f" p99 {ms(percentile(run.round_trips, 0.99))} ms (the answer itself included)"
    )
    print(f"live: CPU during the moves (100% = one core): {cpu_report(before, after, window)}")

    print(
        f"live: {args.idle_games} idle games with 5 s turns for {args.idle_seconds:.0f} s ...",
        flush=True,
    )
    stack.check_alive()
    late = await auto_moves(port, accounts, args.idle_games, args.idle_seconds, args.seed)
    stack.check_alive()
    print(f"live: {len(late.samples)} auto-move pushes observed ({late.early} before a deadline)")

    print(
        f"live: {rate:.0f} moves/s over {args.games} concurrent {PLAYERS}-player games"
        f" ({args.think:g} s mean think time)"
    )
    print(
        f"live: move-to-every-socket p50 {ms(percentile(run.latencies, 0.5))} ms,"
        f" p99 {ms(percentile(run.latencies, 0.99))} ms"
    )
    print(
        f"live: auto-move lateness p50 {ms(percentile(late.samples, 0.5))} ms,"
        f" p99 {ms(percentile(late.samples, 0.99))} ms"
    )


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=50, help="concurrent 4-player games")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the move run")
    parser.add_argument("--idle-games", type=int, default=10, help="games left to the timer")
    parser.add_argument("--idle-seconds", type=float, default=30.0, help="time to watch them")
    parser.add_argument(
        "--users", type=int, default=0, help="distinct accounts (default: one per seat)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean seconds a player thinks before each move (0: move at once, saturating)",
    )
    parser.add_argument("--port", type=int, default=0, help="Daphne's port (default: a free one)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/wizard_bench"),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/7")
    )
    args = parser.parse_args()
    if not (1 <= args.games <= 500 and 1 <= args.idle_games <= 200):
        parser.error("--games is 1 to 500, --idle-games 1 to 200")
    if not (0 < args.seconds <= 3600 and 0 < args.idle_seconds <= 3600):
        parser.error("--seconds and --idle-seconds are 0 to 3600")
    if args.users and args.users < PLAYERS:
        parser.error(f"--users must be at least {PLAYERS}")
    if urlsplit(args.database_url).scheme not in ("postgres", "postgresql"):
        parser.error("--database-url must be a postgres:// URL")
    loopback_only(args.database_url, "--database-url")
    loopback_only(args.redis_url, "--redis-url")
    args.port = args.port or free_port()
    signal.signal(signal.SIGTERM, interrupted)  # stop the stack on `kill` too, not only Ctrl-C
    signal.signal(signal.SIGINT, interrupted)  # even when started with SIGINT ignored

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "wizardsite.settings",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }
    ensure_database(args.database_url, "live")
    subprocess.run(
        [str(BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    retired = retire_bench_games(args.database_url)
    if retired:
        print(f"live: aborted {retired} games left running by an earlier run")
    with tempfile.TemporaryDirectory(prefix="wizard-live-") as workdir:
        stack = Stack(port=args.port, env=env, workdir=Path(workdir))
        try:
            stack.start()
            asyncio.run(measure(args, stack))
        except KeyboardInterrupt:
            print("live: interrupted", file=sys.stderr)
            raise SystemExit(130) from None
        except BaseException:
            for name in stack.processes:
                print(f"--- {name} log (last lines)\n{stack.log_tail(name)}", file=sys.stderr)
            raise
        finally:
            stack.stop()
            retire_bench_games(args.database_url)


if __name__ == "__main__":
    main()
