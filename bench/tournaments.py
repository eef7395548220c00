"""Tournament seating at scale (tournaments/seating.py: plain Python, one core, no database).

    .venv/bin/python bench/tournaments.py [--players 1000] [--size 4] [--runs 5] [--seed N]
                                          [--tournaments 20]

Prints, each the median of `--runs`: the time to seat Swiss round 5 of `--players` at tables of
`--size` (rounds 1-4 seated by swiss_tables with random game results give the standings and
the pairs met), and to form arena tables from a queue of as many players back from tables of
`--size` (random scores; their table-mates are their last mates). Then the worst inputs found
for each: every neighbour in the standings met before at tables of 5 and 6 (the search limits
its swaps), and a queue where every window holds last table-mates. Last, over `--tournaments`
Swiss tournaments of 5 rounds, 40 players at tables of 4 with random results: the repeated
table-mates seated, against seating the standings in order with no changes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import (
    Waiting,
    arena_tables,
    place_points,
    repeated_pairs,
    standings_key,
    swiss_tables,
    table_sizes,
)

Seat = Callable[[list[int], int, set[frozenset[int]]], list[list[int]]]


def in_order(ranked: list[int], size: int, met: set[frozenset[int]]) -> list[list[int]]:
    """The standings cut into table_sizes, nothing changed (`met` unused: swiss_tables' shape)."""
    tables, at = [], 0
    for seats in table_sizes(len(ranked), size):
        tables.append(ranked[at : at + seats])
        at += seats
    return tables


def swiss(
    players: int, size: int, rounds: int, rng: random.Random, seat: Seat = swiss_tables
) -> tuple[list[int], set[frozenset[int]], int]:
    """Swiss rounds with random totals: the standings after them, the pairs met and the
    repeated pairs seated in all the rounds."""
    points, wizard = dict.fromkeys(range(players), 0), dict.fromkeys(range(players), 0)
    met: set[frozenset[int]] = set()
    repeats = 0
    for _ in range(rounds):
        ranked = sorted(points, key=lambda p: (standings_key(points[p], wizard[p], 0), p))
        tables = seat(ranked, size, met)
        repeats += repeated_pairs(tables, met)
        for table in tables:
            totals = [rng.randrange(-100, 300, 10) for _ in table]
            for player, total, won in zip(table, totals, place_points(totals), strict=True):
                points[player] += won
                wizard[player] += total
            met |= {frozenset(pair) for pair in combinations(table, 2)}
    ranked = sorted(points, key=lambda p: (standings_key(points[p], wizard[p], 0), p))
    return ranked, met, repeats


def back_from_tables(players: int, size: int, rng: random.Random) -> list[Waiting[int]]:
    """A queue of players back from tables of `size`: random scores and waits."""
    queue = []
    for first in range(0, players, size):
        table = frozenset(range(first, min(first + size, players)))
        for player in table:
            score, since = rng.randint(-20, 40), rng.uniform(0, 60)
            queue.append(Waiting(player, score, since, last_mates=table - {player}))
    rng.shuffle(queue)
    return queue


def median_ms(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--size", type=int, default=4, help="the chosen table size, 3 to 6")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tournaments", type=int, default=20)
    args = parser.parse_args()
    n, size = args.players, args.size
    rng = random.Random(args.seed)

    ranked, met, _ = swiss(n, size, 4, rng)
    took = median_ms(args.runs, lambda: swiss_tables(ranked, size, met))
    left = repeated_pairs(swiss_tables(ranked, size, met), met)
    plain = repeated_pairs(in_order(ranked, size, met), met)
    print(
        f"Swiss round 5 of {n} players at tables of {size} ({len(met)} pairs met): "
        f"{took:.0f} ms, {left} repeated pairs (in order: {plain})"
    )
    queue = back_from_tables(n, size, rng)
    took = median_ms(args.runs, lambda: arena_tables(queue, size, now=60.0))
    print(f"arena tables from a queue of {n} at tables of {size}: {took:.0f} ms")

    neighbours = {frozenset((p, p + 1)) for p in range(0, n - 1, 2)}
    for worst in (5, 6):
        took = median_ms(args.runs, partial(swiss_tables, list(range(n)), worst, neighbours))
        left = repeated_pairs(swiss_tables(list(range(n)), worst, neighbours), neighbours)
        plain = repeated_pairs(in_order(list(range(n)), worst, neighbours), neighbours)
        print(
            f"worst Swiss round of {n} at tables of {worst}, every neighbour met: "
            f"{took:.0f} ms, {left} repeated pairs (in order: {plain})"
        )
    chain = [Waiting(p, p, 0.0, frozenset({p + 1})) for p in range(n)]
    took = median_ms(args.runs, lambda: arena_tables(chain, size, now=0.0))
    print(f"worst arena queue of {n}, every window with last mates: {took:.0f} ms")

    changed, unchanged = [], []
    for number in range(args.tournaments):
        changed.append(swiss(40, 4, 5, random.Random(args.seed + number))[2])
        unchanged.append(swiss(40, 4, 5, random.Random(args.seed + number), in_order)[2])
    print(
        f"5 Swiss rounds of 40 players at tables of 4, repeated pairs seated (mean of "
        f"{args.tournaments}): {statistics.mean(changed):.1f} "
        f"(standings in order, unchanged: {statistics.mean(unchanged):.1f})"
    )


if __name__ == "__main__":
    main()
