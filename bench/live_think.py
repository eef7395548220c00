"""Think-time play and the turn timer (`--mode think`, `--mode lateness`).

1. Throughput: `--games` tables of humans with 600 s turns; each player thinks (`--think`), then
   POSTs a seeded random legal move. Latency: from the HTTP answer (and from the request) until
   all four sockets hold a view with its `seq`.
2. Auto-move lateness: `--idle-games` tables with 5 s turns where nobody moves; each auto-move's
   event row time (taken in its transaction) and its push on each socket, minus the deadline.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import math
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bench.clients import (
    PLAYERS,
    STALL_SECONDS,
    Account,
    HttpError,
    Pending,
    Player,
    Table,
    close_all,
    connect_sockets,
    error_code,
    error_summary,
    listen,
    ms,
    open_tables,
    percentile,
)
from bench.live_stack import Stack, cpu_report, cpu_snapshot

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


def maybe_move(run: Throughput, table: Table, player: Player) -> None:
    if not run.running or (body := player.next_move()) is None:
        return
    task = asyncio.create_task(move(run, table, player, body))
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
        run.errors[error_code(error)] += 1
        await player.resync()
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
                stalled = now - table.progressed > STALL_SECONDS
                if stalled and not table.finished and not table.moving:
                    table.progressed = now
                    run.resyncs += 1
                    for player in table.players:
                        await player.resync()
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
    samples: list[float] = field(default_factory=list)  # push on a socket - the deadline
    early: int = 0  # a new view before its deadline: someone (or something) moved
    # Per auto-move: its event row's time (written in the transaction that commits it) minus
    # the deadline it was made for.
    committed: dict[tuple[int, int], float] = field(default_factory=dict)


async def auto_moves(
    port: int, accounts: list[Account], games: int, seconds: float, seed: int
) -> Lateness:
    # Tables start at random points of the timer sweep's 1 s period, as real ones do.
    tables = await open_tables(port, accounts, games, turn_seconds=5, seed=seed, stagger=1.0)
    await connect_sockets(port, tables)
    found = Lateness()

    def on_idle_rows(table: Table, player: Player, rows: list[dict[str, Any]]) -> None:
        previous = player.view
        deadline = parse_deadline(previous["deadline"]) if previous is not None else None
        # The first auto row is the expired turn's; the blind round's cards (R9) may follow.
        expired = next((r for r in rows if r["auto"] and r["seq"] > player.seq), None)
        if expired is not None and deadline is not None:
            at = parse_deadline(expired["at"])
            assert at is not None
            found.committed.setdefault((table.id, expired["seq"]), at - deadline)

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
        asyncio.create_task(
            listen(
                p,
                functools.partial(on_idle_view, p),
                rows=functools.partial(on_idle_rows, t, p),
            )
        )
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


def lateness_lines(late: Lateness) -> list[str]:
    committed = list(late.committed.values())
    return [
        f"live: {len(committed)} expired turns, {len(late.samples)} auto-move pushes observed"
        f" ({late.early} before a deadline)",
        f"live: auto-move lateness at the commit p50 {ms(percentile(committed, 0.5))} ms,"
        f" p99 {ms(percentile(committed, 0.99))} ms, max {ms(max(committed, default=math.nan))}"
        " ms (its event row's time - the deadline)",
        f"live: auto-move lateness on the sockets p50 {ms(percentile(late.samples, 0.5))} ms,"
        f" p99 {ms(percentile(late.samples, 0.99))} ms (push arrival - the deadline)",
    ]


async def idle_tables(args: argparse.Namespace, accounts: list[Account]) -> Lateness:
    """Auto-move lateness over `--idle-games` tables where nobody moves, for `--idle-seconds`."""
    print(
        f"live: {args.idle_games} idle games with 5 s turns for {args.idle_seconds:.0f} s ...",
        flush=True,
    )
    return await auto_moves(args.port, accounts, args.idle_games, args.idle_seconds, args.seed)


async def measure_lateness(args: argparse.Namespace, stack: Stack, accounts: list[Account]) -> None:
    """`--mode lateness`: only the turn timer, `--idle-games` tables where nobody moves."""
    before = cpu_snapshot(stack)
    late = await idle_tables(args, accounts)
    after = cpu_snapshot(stack)
    stack.check_alive()
    print(f"live: CPU while idle (100% = one core): {cpu_report(before, after, args.idle_seconds)}")
    for line in lateness_lines(late):
        print(line)


async def measure_think(args: argparse.Namespace, stack: Stack, accounts: list[Account]) -> None:
    """`--mode think`: think-time play over REST, then the turn timer's lateness."""
    before = cpu_snapshot(stack)
    run = await throughput(args.port, accounts, args.games, args.seconds, args.seed, args.think)
    after = cpu_snapshot(stack)
    stack.check_alive()
    window = run.ended - run.started
    rate = run.moves / window if window > 0 else 0.0
    print(
        f"live: {run.moves} moves in {window:.1f} s, {run.finished} games finished,"
        f" {len(run.latencies)} latency samples ({run.pushed_first} pushed before the answer),"
        f" {run.lost} pushes missing, {run.resyncs} stalled-table resyncs,"
        f" errors: {error_summary(run.errors)}"
    )
    print(
        f"live: move request-to-every-socket p50 {ms(percentile(run.round_trips, 0.5))} ms,"
        f" p99 {ms(percentile(run.round_trips, 0.99))} ms (the answer itself included)"
    )
    print(f"live: CPU during the moves (100% = one core): {cpu_report(before, after, window)}")
    stack.check_alive()
    late = await idle_tables(args, accounts)
    stack.check_alive()

    print(
        f"live: {rate:.0f} moves/s over {args.games} concurrent {PLAYERS}-player games"
        f" ({args.think:g} s mean think time)"
    )
    print(
        f"live: move-to-every-socket p50 {ms(percentile(run.latencies, 0.5))} ms,"
        f" p99 {ms(percentile(run.latencies, 0.99))} ms"
    )
    for line in lateness_lines(late):
        print(line)
