"""League reads at scale: the leaderboard API and page over a filled league, and a full rebuild.

    .venv/bin/python bench/league.py [--players 10000] [--games 100000] [--requests 50]
                                     [--refill] [--seed N] [--database-url URL] [--show-sql]

Uses PostgreSQL (the database is created if missing, then migrated). Fills it with
`manage.py league_fill` (users `fill-…`, finished league games with their seats, then the real
`ratings_rebuild()`) unless the `fill-` data there already has these sizes; `--refill` fills
again regardless. Then VACUUM ANALYZE, as a long-running server's autovacuum would have done.

In-process with Django's test Client (so no HTTP server or network is timed; DEBUG is off, as
in production), `--requests` times each after 3 warm-up requests:

- GET /api/v1/league/leaderboard/?page_size=50, pages 1, 2 and a deep page (100 or the last);
- GET /leaderboard/ (the HTML page), pages 1 and the deep one;
- GET /api/v1/league/leaderboard/?season=YYYY-MM for the last complete season (and the page).

For each: median and p95 (nearest rank) and the SQL queries one request makes (counted with
CaptureQueriesContext on an extra request). Then one full `ratings_rebuild()`.
Nothing is asserted. The last four lines are the figures the README records.
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

from bench.postgres import ensure_database  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/wizard_league_bench"
API = "/api/v1/league/leaderboard/"
PAGE = "/leaderboard/"
PAGE_SIZE = 50
DEEP_PAGE = 100
WARM_UP = 3


@dataclass
class Timing:
    url: str
    median_ms: float
    p95_ms: float
    queries: int
    sql_ms: float
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


def nearest_rank(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


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
        times.append((time.perf_counter() - started) * 1000)
    statements: list[tuple[float, str]] = []

    def timed(execute: Any, statement: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(statement, params, many, context)
        finally:
            statements.append(((time.perf_counter() - started) * 1000, statement))

    with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(timed):
        response = client.get(url)
    rows: int | None = None
    if response["Content-Type"].startswith("application/json"):
        rows = len(response.json()["results"])
    return Timing(
        url=url,
        median_ms=statistics.median(times),
        p95_ms=nearest_rank(times, 0.95),
        queries=len(captured),
        sql_ms=sum(ms for ms, _ in statements),
        rows=rows,
        statements=statements,
    )


def report(timing: Timing, show_sql: bool) -> None:
    rows = f", {timing.rows} rows" if timing.rows is not None else ""
    print(
        f"league: GET {timing.url}: median {timing.median_ms:.1f} ms"
        f" (p95 {timing.p95_ms:.1f} ms), {timing.queries} queries"
        f" ({timing.sql_ms:.1f} ms in SQL){rows}"
    )
    if show_sql:
        for ms, statement in timing.statements:
            print(f"    {ms:7.1f} ms  {statement[:400]}")


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
        f"league: leaderboard API median {api.median_ms:.1f} ms (p95 {api.p95_ms:.1f} ms),"
        f" {api.queries} queries, {api.rows} rows, {board} players, {league_games} games"
    )
    print(
        f"league: leaderboard page median {page.median_ms:.1f} ms"
        f" (p95 {page.p95_ms:.1f} ms), {page.queries} queries"
    )
    print(
        f"league: season leaderboard API median {season_api.median_ms:.1f} ms"
        f" (p95 {season_api.p95_ms:.1f} ms)"
    )
    print(f"league: rebuild {rebuilt / elapsed if elapsed else 0.0:.0f} games/s")


if __name__ == "__main__":
    main()
