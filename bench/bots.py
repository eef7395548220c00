"""Bot arenas: duplicate, seat-rotated games, so the luck of the cards cancels out.

    python bench/bots.py [--players N] [--games G] [--budget-ms MS] [--kinds expert,heuristic]
                         [--processes P] [--minutes M] [--special all|bomb,cloud,…]

Each deal (one game seed) is played once per kind, the kinds rotated one seat each time (two
kinds: swapped), so every kind holds every seat's cards equally often. Prints, per kind, points
per game, the exact-bid rate and ms per decision, then the first kind's margin over each other
kind per game with its 2-sigma interval (over deals). With --minutes, no deal is started after
that time and the figures are of the deals completed by then. With --special, the games are
played with those special cards (R20; `all` for every one).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.clients import ms
from games.engine import SPECIAL_OPTIONS, bot_move, make_bot, special_cards, start_game, take_turn


@dataclass
class Tally:
    """One kind's figures over some games."""

    seat_games: int = 0
    points: int = 0
    bids: int = 0
    exact: int = 0
    decisions: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    slowest_cpu: float = 0.0  # the same decision's processor time: the wall clock less waiting

    def add(self, other: Tally) -> None:
        self.seat_games += other.seat_games
        self.points += other.points
        self.bids += other.bids
        self.exact += other.exact
        self.decisions += other.decisions
        self.seconds += other.seconds
        self.slowest = max(self.slowest, other.slowest)
        self.slowest_cpu = max(self.slowest_cpu, other.slowest_cpu)


@dataclass
class DealResult:
    """A deal played once per rotation: each kind's tally and mean points per seat-game."""

    tallies: dict[str, Tally] = field(default_factory=dict)


@dataclass(frozen=True)
class Arena:
    players: int
    kinds: tuple[str, ...]
    budget_ms: float
    special_cards: tuple[str, ...] = ()  # R20: their codes


def play_game(arena: Arena, deal: int, rotation: int, tallies: dict[str, Tally]) -> None:
    seed = f"arena-{deal}"
    kinds = [arena.kinds[(seat + rotation) % len(arena.kinds)] for seat in range(arena.players)]
    bots = [
        make_bot(kind, seed=f"{seed}:{rotation}:{seat}", budget_ms=arena.budget_ms)
        for seat, kind in enumerate(kinds)
    ]
    state, _ = start_game(players=arena.players, seed=seed, special_cards=arena.special_cards)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        started, started_cpu = time.perf_counter(), time.process_time()
        move = bot_move(bots[seat], state, seat)
        spent = time.perf_counter() - started
        tally = tallies[kinds[seat]]
        tally.decisions += 1
        tally.seconds += spent
        tally.slowest = max(tally.slowest, spent)
        tally.slowest_cpu = max(tally.slowest_cpu, time.process_time() - started_cpu)
        state, _ = take_turn(state, seat, move, seed=seed)
    for seat, kind in enumerate(kinds):
        tally = tallies[kind]
        tally.seat_games += 1
        tally.points += state.totals[seat]
        for record in state.scores:
            tally.bids += 1
            tally.exact += record["bids"][seat] == record["tricks"][seat]


def play_deal(job: tuple[Arena, int]) -> DealResult:
    arena, deal = job
    result = DealResult({kind: Tally() for kind in arena.kinds})
    for rotation in range(len(arena.kinds)):
        play_game(arena, deal, rotation, result.tallies)
    return result


def per_game(tally: Tally) -> float:
    return tally.points / tally.seat_games if tally.seat_games else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20, help="games in all (deals × kinds)")
    parser.add_argument("--budget-ms", type=float, default=150.0, help="expert time per decision")
    parser.add_argument("--kinds", default="expert,heuristic", help="comma-separated bot kinds")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (at most 2)")
    parser.add_argument("--minutes", type=float, default=None, help="start no deal after this")
    parser.add_argument("--special", default="", help="special cards: all, or names (R20)")
    args = parser.parse_args()
    kinds = tuple(args.kinds.split(","))
    names = list(SPECIAL_OPTIONS) if args.special == "all" else args.special.split(",")
    special = special_cards([name for name in names if name])
    arena = Arena(args.players, kinds, args.budget_ms, special)
    deals = max(1, args.games // len(kinds))
    jobs = [(arena, deal) for deal in range(deals)]
    totals = {kind: Tally() for kind in kinds}
    margins: dict[str, list[float]] = {kind: [] for kind in kinds[1:]}
    started = time.perf_counter()
    stop = started + 60 * args.minutes if args.minutes is not None else math.inf
    done = 0
    with Pool(min(2, max(1, args.processes))) as pool:
        for result in pool.imap_unordered(play_deal, jobs):
            done += 1
            for kind, tally in result.tallies.items():
                totals[kind].add(tally)
            for kind in kinds[1:]:
                margins[kind].append(
                    per_game(result.tallies[kinds[0]]) - per_game(result.tallies[kind])
                )
            if done % 10 == 0:
                margin = "".join(f", margin {sum(v) / len(v):+.1f}" for v in margins.values())
                elapsed = time.perf_counter() - started
                print(f"… {done}/{deals} deals, {elapsed:.0f} s{margin}", file=sys.stderr)
            if time.perf_counter() >= stop:
                break  # leaving the block terminates the deals still in play
    print(
        f"{done * len(kinds)} games ({done} deals × {len(kinds)} seatings), "
        f"{args.players} players, budget {args.budget_ms:g} ms"
        + (f", special cards {' '.join(special)}" if special else "")
    )
    for kind, tally in totals.items():
        print(
            f"{kind}: {per_game(tally):.1f} points/game, "
            f"exact bids {100 * tally.exact / max(1, tally.bids):.1f}%, "
            f"{ms(tally.seconds / max(1, tally.decisions), 1)} ms/decision"
            f" (slowest {ms(tally.slowest)} ms, {ms(tally.slowest_cpu)} ms of processor time)"
        )
    for kind, values in margins.items():
        mean = sum(values) / len(values)
        spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1))
        sigma2 = 2 * spread / math.sqrt(len(values))
        print(
            f"margin {kinds[0]} − {kind}: {mean:+.1f} points/game "
            f"(2σ interval {mean - sigma2:+.1f} … {mean + sigma2:+.1f})"
        )


if __name__ == "__main__":
    main()
