"""The benchmarks' clients and measures: a keep-alive HTTP/1.1 connection, sign-up, tables of
four players and their game websockets, percentiles and milliseconds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import secrets
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.live_stack import USER_PREFIX
from tests.processes import HOST

PLAYERS = 4
STALL_SECONDS = 5.0  # a table without news this long asks for its views again
PASSWORD = "a bench passphrase that is long enough"

T = TypeVar("T")

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


def error_code(error: Exception) -> str:
    """The refusal's code of an HTTP error, "connection" for any other failure."""
    return error.code if isinstance(error, HttpError) else "connection"


def error_summary(errors: Counter[str]) -> str:
    """`code count, ...`, most frequent first; "none" without errors."""
    return ", ".join(f"{code} {n}" for code, n in errors.most_common()) or "none"


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
        """The JSON body of a 2xx answer, else HttpError; reconnects once to a closed idle
        connection (moves carry `seq`, so a repeat cannot apply twice)."""
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
    """`count` new players through POST /accounts/register/, four at a time (each sign-up
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

    def next_move(self) -> dict[str, Any] | None:
        """A seeded random legal move if the view says this player is to act and it has not
        acted on that view yet; None otherwise."""
        view = self.view
        if (
            view is None
            or view["status"] != "active"
            or view["to_act"] != view["you"]
            or not view["legal"]
            or self.seq <= self.acted_seq
        ):
            return None
        self.acted_seq = self.seq
        legal, seq = view["legal"], view["seq"]
        if legal.get("bids"):
            return {"type": "bid", "bid": self.rng.choice(legal["bids"]), "seq": seq}
        if legal.get("cards"):
            return {"type": "play", "card": self.rng.choice(legal["cards"]), "seq": seq}
        return {"type": "trump", "suit": self.rng.choice(legal["suits"]), "seq": seq}

    async def resync(self) -> None:
        """Out of step: ask the socket for the view again."""
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send('{"type": "sync"}')

    async def close_socket(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), timeout=5)
        self.ws = None


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


def seat_players(port: int, accounts: list[Account], seed: int, g: int) -> list[Player]:
    """The four players of table slot `g`: their accounts, HTTP connections and seeded choices."""
    chosen = [accounts[(PLAYERS * g + i) % len(accounts)] for i in range(PLAYERS)]
    return [
        Player(account, Http(port, account.token), i, random.Random(f"{seed}-{g}-{i}"))
        for i, account in enumerate(chosen)
    ]


async def open_table(players: list[Player], turn_seconds: int) -> int:
    """The id of a new full table of four humans: the first player creates it, three join."""
    body = {"seats": PLAYERS, "bots": 0, "turn_seconds": turn_seconds}
    view = await players[0].http.post("/api/v1/games/", body)
    game_id = int(view["id"])
    for player in players[1:]:
        await player.http.post(f"/api/v1/games/{game_id}/join/")
    return game_id


async def open_tables(
    port: int,
    accounts: list[Account],
    games: int,
    turn_seconds: int,
    seed: int,
    stagger: float = 0.0,
) -> list[Table]:
    """`games` full tables of four humans, each opened after a random delay of up to `stagger`
    seconds."""
    rng = random.Random(seed)
    delays = [rng.random() * stagger for _ in range(games)]

    def job(g: int) -> Callable[[], Awaitable[Table]]:
        async def one_table() -> Table:
            players = seat_players(port, accounts, seed, g)
            await asyncio.sleep(delays[g])
            return Table(await open_table(players, turn_seconds), players)

        return one_table

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
    players = [player for table in tables for player in table.players]
    await asyncio.gather(*(player.close_socket() for player in players))
    for player in players:
        player.http.close()


async def listen(
    player: Player,
    handle: Callable[[dict[str, Any]], None],
    refused: Callable[[dict[str, Any]], None] | None = None,
    rows: Callable[[list[dict[str, Any]]], None] | None = None,
) -> None:
    """Hand each pushed view to `handle` (its event rows first to `rows`), each error to
    `refused`."""
    assert player.ws is not None
    with contextlib.suppress(ConnectionClosed):
        async for raw in player.ws:
            message = json.loads(raw)
            if message.get("type") == "state":
                if rows is not None:
                    rows(message["events"])
                handle(message["state"])
            elif message.get("type") == "error" and refused is not None:
                refused(message["error"])


def percentile(samples: list[float], q: float) -> float:
    """Nearest-rank percentile; NaN without samples."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ms(seconds: float, digits: int = 0) -> str:
    """Seconds as milliseconds with `digits` decimals; "n/a" for NaN."""
    return "n/a" if math.isnan(seconds) else f"{seconds * 1000:.{digits}f}"
