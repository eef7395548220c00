"""The move's read and write through querysets and through the literal SQL of games/sql.py: this
process's CPU (and wall time) a call, on PostgreSQL.

    .venv/bin/python bench/move_sql.py [--calls 2000] [--repeats 5] [--database-url URL]

The database is created if missing and migrated; a 4-player table mid-game (round 8, its state
the size a move reads) is set up once. A call of "move" is one transaction as a move runs it: the
game row locked, its seats with their users and standing read, one event row appended and the
game row written, then rolled back (so every call appends the same seq; a commit costs the
server, not this process). Calls alternate between the two ways in `--repeats` rounds of
`--calls` each; the figures are each way's median round, in µs a call. The settings are the
site's (prepared statements).

The querysets: `Game.objects.select_for_update(no_key=True, of=("self",))
.select_related("created_by").get(...)`, then the seats with
`select_related("user", "user__suspension")` (two queries, as the literal read), and
`Event.objects.bulk_create(rows)` with `game.save(update_fields=...)`.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.postgres import ensure_database  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/wizard_bench_move_sql"
PLAYERS = 4
ROUND = 8
GAME_FIELDS = [
    "seq",
    "state",
    "to_act",
    "deadline",
    "turn_renewed",
    "status",
    "started_at",
    "finished_at",
]


def setup_django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "wizardsite.settings"
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def mid_game() -> int:
    """A 4-player table in round ROUND, as the engine leaves it: its id."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from games import engine
    from games.models import Game, GameStatus, Seat

    seed = "bench-move-sql"
    state, _ = engine.start_game(players=PLAYERS, seed=seed)
    rng = random.Random(0)
    while state.round < ROUND:
        move = rng.choice(engine.legal_moves(state))
        state, _ = engine.take_turn(state, state.to_act or 0, move, seed=seed)
    users = [
        User.objects.get_or_create(username=f"bench-sql-{n}", defaults={"email": f"{n}@x.test"})[0]
        for n in range(PLAYERS)
    ]
    game = Game.objects.create(
        created_by=users[0],
        seats=PLAYERS,
        seed=seed,
        commitment=engine.commitment(seed),
        status=GameStatus.ACTIVE,
        started_at=timezone.now(),
        seq=state.seq,
        state=state.to_json(),
        to_act=state.to_act,
        deadline=timezone.now(),
    )
    Seat.objects.bulk_create([Seat(game=game, number=n, user=user) for n, user in enumerate(users)])
    return int(game.pk)


def move_through_orm(game_id: int) -> None:
    from django.db import transaction

    from games.models import Event, Game, Seat

    with transaction.atomic():
        game = (
            Game.objects.select_for_update(no_key=True, of=("self",))
            .select_related("created_by")
            .get(pk=game_id)
        )
        seats = list(
            Seat.objects.filter(game_id=game_id)
            .select_related("user", "user__suspension")
            .order_by("number")
        )
        frozenset(s.number for s in seats if s.user and _suspended(s.user))
        game.seq += 1
        rows = [_event(game)]
        Event.objects.bulk_create(rows)
        game.save(update_fields=GAME_FIELDS)
        transaction.set_rollback(True)


def move_through_sql(game_id: int) -> None:
    from django.db import transaction

    from games import sql

    with transaction.atomic():
        found = sql.locked_table(game_id)
        assert found is not None
        game = found[0]
        game.seq += 1
        sql.game_record([_event(game)], game)
        transaction.set_rollback(True)


def _suspended(user: Any) -> bool:
    suspension = getattr(user, "suspension", None)
    return suspension is not None and bool(suspension.in_force)


def _event(game: Any) -> Any:
    from django.utils import timezone

    from games.models import Event

    payload = {"type": "play", "seat": game.to_act, "card": "W1", "seq": game.seq}
    return Event(
        game=game,
        seq=game.seq,
        type="play",
        seat=game.to_act,
        payload=payload,
        created_at=timezone.now(),
    )


def round_of(call: Callable[[], None], calls: int) -> tuple[float, float]:
    """µs of this process's CPU, and of wall time, a call over `calls` calls."""
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(calls):
        call()
    return (
        (time.process_time() - cpu) / calls * 1e6,
        (time.perf_counter() - wall) / calls * 1e6,
    )


def compare(label: str, ways: dict[str, Callable[[], None]], calls: int, repeats: int) -> None:
    for call in ways.values():  # warm-up: caches, prepared statements
        for _ in range(50):
            call()
    figures: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
    for _ in range(repeats):
        for way, call in ways.items():
            figures[way].append(round_of(call, calls))
    for way, rounds in figures.items():
        cpu = statistics.median(r[0] for r in rounds)
        wall = statistics.median(r[1] for r in rounds)
        print(f"move_sql: {label} {way:>9}: {cpu:6.0f} µs CPU a call, {wall:6.0f} µs wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--database-url", default=DEFAULT_URL)
    args = parser.parse_args()
    ensure_database(args.database_url, "move_sql")
    setup_django(args.database_url)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    game_id = mid_game()
    print(f"move_sql: {args.repeats} rounds of {args.calls} calls each way, game {game_id}")
    compare(
        "move",
        {"querysets": lambda: move_through_orm(game_id), "sql": lambda: move_through_sql(game_id)},
        args.calls,
        args.repeats,
    )


if __name__ == "__main__":
    main()
