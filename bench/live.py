"""The live stack under load: moves, websocket pushes and the turn timer, end to end.

    .venv/bin/python bench/live.py [--mode socket,rest] [--sweep 1,5,20 | --games K]
                                   [--seconds 20] [--warmup 3] [--server uvicorn]
    .venv/bin/python bench/live.py --mode think [--games 50] [--seconds 60] [--think 1]
                                   [--idle-games 10] [--idle-seconds 30]
    .venv/bin/python bench/live.py --mode lateness [--idle-games 10] [--idle-seconds 30]

Starts the stack on loopback (bench/live_stack.py), each process as the Procfiles start it: the
web server (the Procfile's, as `make run`; with `--server uvicorn-workers:N` Procfile.production's
with WEB_CONCURRENCY=N, as `make serve`), a Celery worker, the review worker and beat, against
PostgreSQL (the database is created if missing and migrated) and Redis, with DEBUG, rate limits
and bot pacing off; every process it starts is stopped when it ends, however it ends. Players
sign up over REST. All clients run in this one asyncio process (bench/clients.py); its CPU is
printed too.

`--mode socket` and `--mode rest` (default: both): K closed-loop 4-player games without think
time (bench/live_closed.py). For each K of `--sweep` (or the one `--games`) and each mode, after
`--warmup`, one line: p50 and p99 latency (from sending a move until all four players' sockets
hold it), moves/s and the server's CPU per move by part (web, Celery, PostgreSQL, Redis; the
last two are shared servers, so each line says whether anything else used them). A Markdown
table of all the lines ends the output.

`--mode think`: think-time play over REST, then the turn timer's auto-move lateness;
`--mode lateness`: that lateness alone, `--idle-games` tables with 5 s turns where nobody moves
(bench/live_think.py). Games a run leaves running are marked aborted in its database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.clients import (  # noqa: E402
    PLAYERS,
    Account,
    error_summary,
    ms,
    percentile,
    register,
)
from bench.live_closed import ClosedLoop, Result  # noqa: E402
from bench.live_stack import (  # noqa: E402
    SERVER_PARTS,
    Stack,
    cpu_snapshot,
    loopback_only,
    other_databases_transactions,
    other_redis_clients,
    parse_server,
    retire_bench_games,
)
from bench.live_think import measure_lateness, measure_think  # noqa: E402
from bench.postgres import ensure_database  # noqa: E402
from tests.processes import BIN, HOST, free_port  # noqa: E402

MODES = ("socket", "rest", "think", "lateness")
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/wizard_bench_live"
DEFAULT_REDIS = "redis://127.0.0.1:6379/5"
BUSY_MACHINE_PERCENT = 20  # other processes' CPU, in % of a core, that makes a run suspect


# --------------------------------------------------------------------------- closed loop


def cpu_parts(result: Result) -> dict[str, float]:
    """Milliseconds of server CPU per applied move, by part, and their total."""
    moves = max(result.applied, 1)
    parts = {name: 1000 * result.cpu.get(name, 0.0) / moves for name in SERVER_PARTS}
    parts["total"] = sum(parts.values())
    return parts


def result_line(result: Result, busy: str) -> str:
    parts = cpu_parts(result)
    split = ", ".join(f"{name} {parts[name]:.2f}" for name in SERVER_PARTS)
    client = share(result, result.cpu.get("client", 0.0))
    review = share(result, result.cpu.get("review", 0.0))
    return (
        f"live: {result.mode:6} K={result.games:<3} p50 {ms(percentile(result.latencies, 0.5))} ms,"
        f" p99 {ms(percentile(result.latencies, 0.99))} ms, {result.rate:.1f} moves/s,"
        f" server CPU {parts['total']:.2f} ms/move ({split})\n"
        f"live:            {result.applied} moves applied in {result.window:.1f} s,"
        f" {len(result.latencies)} latency samples, {result.finished} games finished,"
        f" {result.lost} moves never on every socket, {result.resyncs} stalled-table resyncs,"
        f" errors: {error_summary(result.errors)}; CPU of this client {client:.0f}% of a core,"
        f" of the review worker {review:.0f}% (finished games' review, not a move's cost),"
        f" of other processes {share(result, other_load(result)):.0f}%; {busy}"
    )


def share(result: Result, seconds: float) -> float:
    """Percent of one core over the window."""
    return 100 * seconds / result.window if result.window > 0 else 0.0


def other_load(result: Result) -> float:
    """CPU seconds the machine spent in the window outside this stack and this client."""
    ours = sum(result.cpu.get(name, 0.0) for name in (*SERVER_PARTS, "review", "client"))
    return max(0.0, result.cpu.get("machine", 0.0) - ours)


def markdown_table(rows: list[tuple[Result, str]], server: str) -> str:
    header = (
        "| mode | K | p50 (ms) | p99 (ms) | moves/s | server CPU/move (ms) | web | Celery"
        " worker + beat | PostgreSQL | Redis | other load (% of a core) |"
    )
    lines = [header, "|" + "---|" * 11]
    for result, _ in rows:
        parts = cpu_parts(result)
        lines.append(
            f"| {result.mode} | {result.games} | {ms(percentile(result.latencies, 0.5))}"
            f" | {ms(percentile(result.latencies, 0.99))} | {result.rate:.1f}"
            f" | {parts['total']:.2f} | {parts['web']:.2f}"
            f" | {parts['worker'] + parts['beat']:.2f} | {parts['postgres']:.2f}"
            f" | {parts['redis']:.2f} | {share(result, other_load(result)):.0f} |"
        )
    busy = [f"{r.mode} K={r.games}" for r, note in rows if not note.startswith("nothing else")]
    loaded = max((share(r, other_load(r)) for r, _ in rows), default=0.0)
    lines.append("")
    lines.append(
        f"Web server: {server}. Latency: from sending a move until all four players' sockets"
        " hold a view that includes it. CPU per move: user + system seconds of each part in"
        " the window over the moves applied in it; PostgreSQL and Redis are the machine's"
        " shared servers"
        + (f" (other clients were active during {', '.join(busy)})" if busy else ", idle else")
        + "; other load: the CPU the machine's other processes used in the window"
        + f" (up to {loaded:.0f}% of a core)."
    )
    return "\n".join(lines)


async def closed_loop(args: argparse.Namespace, stack: Stack, accounts: list[Account]) -> None:
    """Each K of the sweep in each mode: one result line, then the table of them all."""
    rows: list[tuple[Result, str]] = []
    for games in args.sweep:
        for mode in args.modes:
            retire_bench_games(args.database_url)  # the previous run's tables
            print(f"live: {mode} K={games}: warm-up {args.warmup:g} s ...", flush=True)
            others = await asyncio.to_thread(other_databases_transactions, args.database_url)
            loop = ClosedLoop(args.port, accounts, games, mode, args.seed)
            result = await loop.play(
                args.warmup,
                args.seconds,
                lambda: cpu_snapshot(stack),
                stack.check_alive,
            )
            others = (
                await asyncio.to_thread(other_databases_transactions, args.database_url) - others
            )
            redis_others = await asyncio.to_thread(
                other_redis_clients, args.redis_url, result.window + args.warmup + 10
            )
            if others or redis_others:
                busy = (
                    f"SHARED SERVERS BUSY: {others} transactions in other databases,"
                    f" {redis_others} active clients of other Redis databases (their CPU is"
                    " counted)"
                )
            else:
                busy = "nothing else used PostgreSQL or Redis"
            if share(result, other_load(result)) > BUSY_MACHINE_PERCENT:
                busy += "; MACHINE BUSY: other processes competed for the cores"
            print(result_line(result, busy), flush=True)
            rows.append((result, busy))
    print()
    print(markdown_table(rows, args.server))


# --------------------------------------------------------------------------- the run


async def measure(args: argparse.Namespace, stack: Stack) -> None:
    await asyncio.to_thread(stack.wait_web, f"http://{HOST}:{args.port}")
    began = time.perf_counter()
    accounts = await register(args.port, args.users)
    print(f"live: registered {args.users} players in {time.perf_counter() - began:.1f} s")
    if args.modes == ["think"]:
        await measure_think(args, stack, accounts)
    elif args.modes == ["lateness"]:
        await measure_lateness(args, stack, accounts)
    else:
        await closed_loop(args, stack, accounts)


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def numbers(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of whole numbers: {text!r}") from None
    if not values or not all(1 <= value <= 500 for value in values):
        raise argparse.ArgumentTypeError("each K is 1 to 500")
    return values


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--mode",
        default="socket,rest",
        help="socket, rest (either or both, comma-separated), think, or lateness",
    )
    parser.add_argument(
        "--games",
        type=int,
        help="concurrent games (socket/rest: one K, not the sweep; think: default 50)",
    )
    parser.add_argument(
        "--sweep", type=numbers, default=[1, 5, 20], help="the Ks, in order (default 1,5,20)"
    )
    parser.add_argument("--seconds", type=float, help="measured window per run (20; think 60)")
    parser.add_argument(
        "--warmup", type=float, default=3.0, help="seconds of play before each window (default 3)"
    )
    parser.add_argument(
        "--server",
        default="uvicorn",
        help="uvicorn (the Procfile's web server, one process; the default) or"
        " uvicorn-workers:N (Procfile.production's, N processes on one port)",
    )
    parser.add_argument(
        "--no-review",
        action="store_true",
        help="leave out the review worker (finished games wait in its queue, unreviewed)",
    )
    parser.add_argument("--idle-games", type=int, default=10, help="think: games left to the timer")
    parser.add_argument("--idle-seconds", type=float, default=30.0, help="think: time to watch")
    parser.add_argument(
        "--users", type=int, default=0, help="distinct accounts (default: one per seat)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the clients' choices")
    parser.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="think: mean seconds a player thinks before each move",
    )
    parser.add_argument("--port", type=int, default=0, help="the web port (default: a free one)")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS)
    args = parser.parse_args()

    args.modes = [mode.strip() for mode in args.mode.split(",") if mode.strip()]
    if not args.modes or any(mode not in MODES for mode in args.modes):
        parser.error(f"--mode is a comma-separated list of {', '.join(MODES)}")
    alone = {"think", "lateness"} & set(args.modes)
    if alone and len(args.modes) > 1:
        parser.error(f"--mode {alone.pop()} runs on its own")
    think = args.modes == ["think"]
    idle = args.modes == ["lateness"]
    if args.games is not None:
        args.sweep = [args.games]
    args.games = args.games or 50
    args.seconds = args.seconds or (60.0 if think else 20.0)
    if not (1 <= args.games <= 500 and 1 <= args.idle_games <= 200):
        parser.error("--games is 1 to 500, --idle-games 1 to 200")
    if not (0 < args.seconds <= 3600 and 0 < args.idle_seconds <= 3600 and args.warmup >= 0):
        parser.error("--seconds and --idle-seconds are 0 to 3600, --warmup at least 0")
    most = max(args.games, args.idle_games) if think else max(args.sweep)
    most = args.idle_games if idle else most
    args.users = args.users or PLAYERS * most
    if args.users < PLAYERS:
        parser.error(f"--users must be at least {PLAYERS}")
    try:
        args.workers = parse_server(args.server)
    except ValueError as error:
        parser.error(str(error))
    if urlsplit(args.database_url).scheme not in ("postgres", "postgresql"):
        parser.error("--database-url must be a postgres:// URL")
    if int(urlsplit(args.redis_url).path.lstrip("/") or 0) == 0:
        parser.error("--redis-url must name a database other than 0 (e.g. /5)")
    loopback_only(args.database_url, "--database-url")
    loopback_only(args.redis_url, "--redis-url")
    args.port = args.port or free_port()
    return args


def main() -> None:
    args = parse_arguments()
    print(f"live: command: {shlex.join(sys.orig_argv)}", flush=True)
    if args.no_review:
        print("live: no review worker: finished games wait in its queue, unreviewed", flush=True)
    if args.modes[0] in ("socket", "rest"):
        print(
            "live: PostgreSQL and redis-server are this machine's shared servers, and the cores"
            " are shared too: the CPU and latency figures hold only while nothing else runs"
            " (each line says whether something did)",
            flush=True,
        )
    signal.signal(signal.SIGTERM, interrupted)  # stop the stack on `kill` too, not only Ctrl-C
    signal.signal(signal.SIGINT, interrupted)  # even when started with SIGINT ignored

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "wizardsite.settings",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "DEBUG": "false",
        "RATE_LIMITS_ENABLED": "false",
        "BOT_MOVE_DELAY_MS": "0",
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
        stack = Stack(
            port=args.port,
            env=env,
            workdir=Path(workdir),
            workers=args.workers,
            review=not args.no_review,
        )
        try:
            stack.start_all()
            asyncio.run(measure(args, stack))
        except KeyboardInterrupt:
            print("live: interrupted", file=sys.stderr)
            raise SystemExit(130) from None
        except BaseException:
            print(f"live: the processes' logs (last lines)\n{stack.report(30)}", file=sys.stderr)
            raise
        finally:
            stack.stop_all()
            retire_bench_games(args.database_url)


if __name__ == "__main__":
    main()
