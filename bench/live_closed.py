"""Closed-loop play: K concurrent 4-player games whose clients never think.

A player moves as soon as its socket's view says it is to act, over its websocket (`socket`) or
its keep-alive HTTP connection (`rest`). Latency: from sending a move until all four sockets
hold a view with a greater `seq` (only the mover can act, so that view is its move's). A game
that ends is replaced at once, so K games keep running.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed

from bench.clients import (
    STALL_SECONDS,
    Account,
    HttpError,
    Player,
    Table,
    bounded,
    connect_sockets,
    error_code,
    listen,
    open_table,
    seat_players,
)

TURN_SECONDS = 600  # the timer never interferes
DRAIN_SECONDS = 5.0  # after the window, how long moves sent in it may take to arrive


@dataclass
class Sent:
    """A move on its way: sent with `seq`, not yet on every socket."""

    seq: int
    mover: int
    waiting: set[int]
    sent: float = math.inf  # set when it leaves
    applied: bool = False  # some socket holds it


@dataclass
class Game:
    """One of the K table slots: the same four players, one game after another."""

    slot: int
    players: list[Player]
    id: int = 0
    sent: list[Sent] = field(default_factory=list)
    progressed: float = field(default_factory=time.perf_counter)
    over: bool = False
    replacing: bool = False
    listeners: list[asyncio.Task[None]] = field(default_factory=list)


@dataclass
class Result:
    mode: str
    games: int
    window: float = 0.0
    latencies: list[float] = field(default_factory=list)
    applied: int = 0  # moves first seen applied inside the window
    sent: int = 0  # moves sent inside the window
    errors: Counter[str] = field(default_factory=Counter)
    resyncs: int = 0
    lost: int = 0  # moves of the window that never reached every socket
    finished: int = 0  # games that ended inside the window
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of each part in it

    @property
    def rate(self) -> float:
        return self.applied / self.window if self.window > 0 else 0.0


class ClosedLoop:
    def __init__(self, port: int, accounts: list[Account], games: int, mode: str, seed: int):
        assert mode in ("socket", "rest")
        self.port = port
        self.mode = mode
        self.result = Result(mode, games)
        self.games = [Game(g, seat_players(port, accounts, seed, g)) for g in range(games)]
        self.running = False
        self.window_start = math.inf
        self.window_end = math.inf
        self.tasks: set[asyncio.Task[None]] = set()

    def in_window(self, at: float) -> bool:
        return self.window_start <= at < self.window_end

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ----------------------------------------------------------------------- tables

    async def open(self) -> None:
        """Open the K tables and their sockets; nobody moves yet."""

        def job(game: Game) -> Callable[[], Any]:
            async def one() -> None:
                game.id = await open_table(game.players, TURN_SECONDS)
                await connect_sockets(self.port, [Table(game.id, game.players)])
                self.listen(game)

            return one

        await bounded(8, [job(game) for game in self.games])

    def listen(self, game: Game) -> None:
        game.listeners = [
            asyncio.create_task(
                listen(
                    player,
                    functools.partial(self.on_view, game, game.id, player),
                    functools.partial(self.on_refusal, game, player),
                )
            )
            for player in game.players
        ]

    async def close_sockets(self, game: Game) -> None:
        for task in game.listeners:
            task.cancel()
        await asyncio.gather(*game.listeners, return_exceptions=True)
        game.listeners = []
        for player in game.players:
            await player.close_socket()
            player.view, player.seq, player.acted_seq = None, -1, -1

    async def replace(self, game: Game) -> None:
        """The game ended: its players start a new one at once."""
        game.replacing = True
        try:
            await self.close_sockets(game)
            game.sent.clear()
            game.id = await open_table(game.players, TURN_SECONDS)
            await connect_sockets(self.port, [Table(game.id, game.players)])
            game.over = False
            game.progressed = time.perf_counter()
            self.listen(game)
            for player in game.players:
                self.maybe_move(game, player)
        except (TimeoutError, HttpError, OSError, RuntimeError) as error:
            self.result.errors[f"new game: {type(error).__name__}"] += 1
            game.progressed = time.perf_counter()  # the watchdog tries again later
        finally:
            game.replacing = False

    async def close(self) -> None:
        for task in set(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await asyncio.gather(*(self.close_sockets(game) for game in self.games))
        for game in self.games:
            for player in game.players:
                player.http.close()

    # ----------------------------------------------------------------------- moves

    def on_view(self, game: Game, game_id: int, player: Player, view: dict[str, Any]) -> None:
        arrived = time.perf_counter()
        if game_id != game.id:
            return
        seq = int(view["seq"])
        if seq < player.seq:
            return
        if seq > player.seq:
            game.progressed = arrived
        player.view, player.seq = view, seq
        for sent in list(game.sent):
            if seq > sent.seq and player.index in sent.waiting:
                if not sent.applied:
                    sent.applied = True
                    self.result.applied += self.in_window(arrived)
                sent.waiting.discard(player.index)
                if not sent.waiting:
                    game.sent.remove(sent)
                    if self.in_window(sent.sent):
                        self.result.latencies.append(arrived - sent.sent)
        if view["status"] != "active":
            if not game.over:
                game.over = True
                self.result.finished += self.in_window(arrived)
            if not game.sent and not game.replacing and self.running:
                game.replacing = True
                self.spawn(self.replace(game))
            return
        self.maybe_move(game, player)

    def on_refusal(self, game: Game, player: Player, error: dict[str, Any]) -> None:
        """A socket move was refused (it comes back on the mover's socket only)."""
        self.result.errors[str(error.get("code"))] += 1
        for sent in list(game.sent):
            if sent.mover == player.index and not sent.applied:
                game.sent.remove(sent)
        self.spawn(player.resync())

    def maybe_move(self, game: Game, player: Player) -> None:
        if not self.running or game.over or (move := player.next_move()) is None:
            return
        waiting = {p.index for p in game.players if p.seq <= player.seq}
        sent = Sent(player.seq, player.index, waiting)
        game.sent.append(sent)
        self.spawn(self.send(game, player, sent, move))

    async def send(self, game: Game, player: Player, sent: Sent, move: dict[str, Any]) -> None:
        sent.sent = time.perf_counter()
        self.result.sent += self.in_window(sent.sent)
        try:
            if self.mode == "socket":
                assert player.ws is not None
                await player.ws.send(json.dumps({"type": "move", "move": move}))
            else:
                await player.http.post(f"/api/v1/games/{game.id}/moves/", move)
        except (HttpError, OSError, asyncio.IncompleteReadError, ConnectionClosed) as error:
            self.result.errors[error_code(error)] += 1
            if sent in game.sent and not sent.applied:
                game.sent.remove(sent)
            await player.resync()

    def watch(self, now: float) -> None:
        """A lost push stalls a table: its players ask again, or at a game's end start the next."""
        for game in self.games:
            if game.replacing or now - game.progressed <= STALL_SECONDS:
                continue
            game.progressed = now
            if game.over or not game.id:
                self.result.lost += sum(self.in_window(s.sent) for s in game.sent)
                if self.running:
                    game.replacing = True
                    self.spawn(self.replace(game))
            else:
                self.result.resyncs += 1
                for player in game.players:
                    self.spawn(player.resync())

    # ----------------------------------------------------------------------- the run

    async def play(
        self,
        warmup: float,
        seconds: float,
        snapshot: Callable[[], dict[str, float]],
        stop: Callable[[], None] = lambda: None,
    ) -> Result:
        """Play `warmup` seconds, then measure `seconds`, with `snapshot`'s CPU seconds by part
        at both ends of the window; `stop` raises when the stack died."""
        try:
            await self.open()
            self.running = True
            now = time.perf_counter()
            for game in self.games:
                game.progressed = now
                for player in game.players:
                    self.maybe_move(game, player)
            await self.tick_until(now + warmup, stop)
            before = snapshot()
            self.window_start = time.perf_counter()
            await self.tick_until(self.window_start + seconds, stop)
            self.window_end = time.perf_counter()
            after = snapshot()
            self.running = False
            self.result.window = self.window_end - self.window_start
            self.result.cpu = {name: after[name] - before[name] for name in before}
            limit = self.window_end + DRAIN_SECONDS
            while time.perf_counter() < limit and any(
                self.in_window(s.sent) for game in self.games for s in game.sent
            ):
                await asyncio.sleep(0.02)
            self.result.lost += sum(
                self.in_window(s.sent) for game in self.games for s in game.sent
            )
        finally:
            self.running = False
            await self.close()
        return self.result

    async def tick_until(self, limit: float, stop: Callable[[], None]) -> None:
        while (now := time.perf_counter()) < limit:
            await asyncio.sleep(min(0.25, limit - now))
            stop()
            self.watch(time.perf_counter())
