"""League reads at scale: the leaderboard API and page over a filled league, and a full rebuild.

    .venv/bin/python bench/league.py [--players 10000] [--games 100000] [--requests 50]
                                     [--refill] [--seed N] [--database-url URL] [--show-sql]

On PostgreSQL (the database is created if missing, then migrated), filled by `manage.py
league_fill` unless a fill of these sizes is there (`--refill`: fill anyway), then VACUUM
ANALYZE. In process with Django's test Client and DEBUG off, `--requests` timed GETs after 3
warm-ups of the leaderboard API (pages 1, 2 and a deep one), its HTML page (1 and the deep one)
and the last complete season's API and page: median, p95 (nearest rank) and one request's SQL
queries each. Then one full `ratings_rebuild()`. The last four lines are the README's figures.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.clients import ms, percentile  # noqa: E402
from bench.postgres import ensure_database  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/wizard_league_bench"
API = "/api/v1/league/leaderboard/"
PAGE = "/leaderboard/"
PAGE_SIZE = 50
DEEP_PAGE = 100
WARM_UP = 3


@dataclass
class Timing:
    """One URL's figures, in seconds."""

    url: str
    median: float
    p95: float
    queries: int
    sql: float
    rows: int | None
    statements: list[tuple[float, str]]


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "wizardsite.settings"
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def filled(players: int, games: int) -> bool:
    """Whether the database holds a complete fill of these sizes, ratings included."""
    from django.contrib.auth.models import User

    from league.management.commands.league_fill import PREFIX, filled_games
    from league.models import Rating

    return (
        User.objects.filter(username__startswith=PREFIX).count() == players
        and filled_games().filter(league_entry__counts=True).count() == games
        and Rating.objects.filter(user__username__startswith=PREFIX).exists()
    )


def measure(url: str, requests: int) -> Timing:
    """Time `requests` GETs of `url` after a warm-up, then count one request's queries."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    for _ in range(WARM_UP):
        response = client.get(url)
        if response.status_code != 200:
            sys.exit(f"league: GET {url} answered {response.status_code}")
    times = []
    for _ in range(requests):
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
    statements: list[tuple[float, str]] = []

    def timed(execute: Any, statement: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(statement, params, many, context)
        finally:
            statements.append((time.perf_counter() - started, statement))

    with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(timed):
        response = client.get(url)
    rows: int | None = None
    if response["Content-Type"].startswith("application/json"):
        rows = len(response.json()["results"])
    return Timing(
        url=url,
        median=statistics.median(times),
        p95=percentile(times, 0.95),
        queries=len(captured),
        sql=sum(seconds for seconds, _ in statements),
        rows=rows,
        statements=statements,
    )


def report(timing: Timing, show_sql: bool) -> None:
    rows = f", {timing.rows} rows" if timing.rows is not None else ""
    print(
        f"league: GET {timing.url}: median {ms(timing.median, 1)} ms"
        f" (p95 {ms(timing.p95, 1)} ms), {timing.queries} queries"
        f" ({ms(timing.sql, 1)} ms in SQL){rows}"
    )
    if show_sql:
        for seconds, statement in timing.statements:
            print(f"    {ms(seconds, 1):>7} ms  {statement[:400]}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=10000)
    parser.add_argument("--games", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=1, help="seed of the fill")
    parser.add_argument("--requests", type=int, default=50, help="timed requests per URL")
    parser.add_argument("--refill", action="store_true", help="fill again even if filled")
    parser.add_argument("--show-sql", action="store_true", help="print each URL's statements")
    parser.add_argument("--database-url", default=DEFAULT_URL, help=f"default {DEFAULT_URL}")
    args = parser.parse_args()
    if not args.database_url.startswith(("postgres://", "postgresql://")):
        parser.error("--database-url must be a postgres:// URL")

    ensure_database(args.database_url, "league")
    setup_django(args.database_url)
    from django.core.management import call_command
    from django.db import connection

    from games.models import Game
    from league import selectors
    from league.services import ratings_rebuild

    call_command("migrate", verbosity=0, interactive=False)
    if args.refill or not filled(args.players, args.games):
        started = time.perf_counter()
        call_command(
            "league_fill", players=args.players, games=args.games, seed=args.seed, clear=True
        )
        print(f"league: fill took {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        print(f"league: VACUUM ANALYZE took {time.perf_counter() - started:.1f} s")
    else:
        print(f"league: reusing the fill of {args.players} players and {args.games} games")

    league_games = Game.objects.filter(league_entry__counts=True).count()
    board = selectors.leaderboard(None).count()
    deep = max(1, min(DEEP_PAGE, math.ceil(board / PAGE_SIZE)))
    seasons = selectors.seasons()
    season = seasons[1] if len(seasons) > 1 else (seasons[0] if seasons else "2000-01")
    print(
        f"league: {board} players on the board, {league_games} league games,"
        f" {len(seasons)} seasons; season measured {season}"
    )

    timings: dict[str, Timing] = {}
    urls = {
        "api": f"{API}?page_size={PAGE_SIZE}",
        "api2": f"{API}?page_size={PAGE_SIZE}&page=2",
        "api_deep": f"{API}?page_size={PAGE_SIZE}&page={deep}",
        "page": PAGE,
        "page_deep": f"{PAGE}?page={deep}",
        "season": f"{API}?page_size={PAGE_SIZE}&season={season}",
        "season_page": f"{PAGE}?season={season}",
    }
    for name, url in urls.items():
        timings[name] = measure(url, args.requests)
        report(timings[name], args.show_sql)

    started = time.perf_counter()
    rebuilt = ratings_rebuild()
    elapsed = time.perf_counter() - started
    print(f"league: ratings_rebuild() of {rebuilt} games took {elapsed:.1f} s")

    api, page, season_api = timings["api"], timings["page"], timings["season"]
    print(
        f"league: leaderboard API median {ms(api.median, 1)} ms (p95 {ms(api.p95, 1)} ms),"
        f" {api.queries} queries, {api.rows} rows, {board} players, {league_games} games"
    )
    print(
        f"league: leaderboard page median {ms(page.median, 1)} ms"
        f" (p95 {ms(page.p95, 1)} ms), {page.queries} queries"
    )
    print(
        f"league: season leaderboard API median {ms(season_api.median, 1)} ms"
        f" (p95 {ms(season_api.p95, 1)} ms)"
    )
    print(f"league: rebuild {rebuilt / elapsed if elapsed else 0.0:.0f} games/s")


if __name__ == "__main__":
    main()
