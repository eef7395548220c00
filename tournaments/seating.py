"""The tournaments' arithmetic, in plain Python: table sizes and Swiss seating (T3), arena
tables (T4), place points and standings (T2). Players are any hashable values (user ids).

Two players of an `apart` pair (one blocked the other) never share a table, whatever the
standings or the waiting list say: seating keeps them apart before anything else."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)
Met = set[frozenset[P]] | frozenset[frozenset[P]]  # pairs who shared a table before

MIN_TABLE, MAX_TABLE = 3, 6  # T3
EXACT_UP_TO = 10  # two neighbouring tables with at most this many movable players: every split


def table_sizes(players: int, size: int) -> list[int]:
    """T3: tables of the chosen size, changed only as needed: each 3 to 6, sizes differing by
    at most one, the fewest players away from the chosen size (then the fewer tables).
    Largest first."""
    if not MIN_TABLE <= size <= MAX_TABLE:
        raise ValueError(f"A table seats {MIN_TABLE} to {MAX_TABLE} players.")
    if players < MIN_TABLE:
        raise ValueError(f"A round needs at least {MIN_TABLE} players.")
    best: tuple[int, int, list[int]] | None = None
    for tables in range(1, players // MIN_TABLE + 1):
        small, larger = divmod(players, tables)
        sizes = [small + 1] * larger + [small] * (tables - larger)
        if sizes[-1] < MIN_TABLE or sizes[0] > MAX_TABLE:
            continue
        cost = sum(abs(seats - size) for seats in sizes)
        if best is None or (cost, tables) < best[:2]:
            best = (cost, tables, sizes)
    assert best is not None, "3 or more players always fit"
    return best[2]


def repeated_pairs(tables: Iterable[Sequence[P]], met: Met[P]) -> int:
    """How many pairs sitting at one table have shared a table before."""
    return sum(_repeats(table, met) for table in tables)


def _repeats(table: Iterable[P], met: Met[P]) -> int:
    return sum(frozenset(pair) in met for pair in combinations(table, 2))


@dataclass(frozen=True)
class _Avoided(Generic[P]):
    """The pairs a Swiss round keeps from one table: `apart` always, `met` where it can (T3)."""

    apart: Met[P]
    met: Met[P]

    def cost(self, *tables: Sequence[P]) -> tuple[int, int]:
        """Apart pairs together, then repeats: any number of repeats is better than one block
        broken."""
        return sum(_repeats(t, self.apart) for t in tables), repeated_pairs(tables, self.met)


def swiss_tables(
    ranked: Sequence[P], size: int, met: Met[P], apart: Met[P] = frozenset()
) -> list[list[P]]:
    """T3: one Swiss round. The players in standings order fill tables of table_sizes in turn
    (leaders at table 1); then, to avoid repeated table-mates, players may change places
    between neighbouring tables, each at most one table away from their own, never the
    leader: a change is kept only when it lowers the repeats. Two neighbouring tables with
    few movable players try every split between them; larger ones, one exchange at a time.
    An apart pair the changes cannot part: its lower placed player sits this round out, and
    the rest are seated again without them (no table at all below 3 players)."""
    avoided, players = _Avoided(apart, met), list(ranked)
    while len(players) >= MIN_TABLE:
        tables = _swiss_round(players, size, avoided)
        together = [
            p
            for t in tables
            for pair in combinations(t, 2)
            if frozenset(pair) in apart
            for p in pair
        ]
        if not together:
            return tables
        players.remove(max(together, key=players.index))  # tables keep the standings' order
    return []


def _swiss_round(ranked: Sequence[P], size: int, avoided: _Avoided[P]) -> list[list[P]]:
    tables: list[list[P]] = []
    at = 0
    for seats in table_sizes(len(ranked), size):
        tables.append(list(ranked[at : at + seats]))
        at += seats
    home = {player: index for index, table in enumerate(tables) for player in table}
    fixed = {ranked[0]}  # T3: the leader sits at table 1
    improved = True
    while improved:
        improved = False
        for index in range(len(tables) - 1):
            pair = (tables[index], tables[index + 1])
            if avoided.cost(*pair) == (0, 0):
                continue
            better = _rearranged(pair, index, home, fixed, avoided)
            if better is not None:
                tables[index], tables[index + 1] = better
                improved = True
    return tables


def _rearranged(
    pair: tuple[list[P], list[P]],
    index: int,
    home: dict[P, int],
    fixed: set[P],
    avoided: _Avoided[P],
) -> tuple[list[P], list[P]] | None:
    """A split of two neighbouring tables that costs less, or None."""
    upper, lower = pair
    movable = [p for p in upper + lower if home[p] in (index, index + 1) and p not in fixed]
    now = avoided.cost(upper, lower)
    if len(movable) <= EXACT_UP_TO:
        stay_up = [p for p in upper if p not in movable]
        stay_down = [p for p in lower if p not in movable]
        best: tuple[tuple[int, int], list[P], list[P]] | None = None
        for chosen in combinations(movable, len(upper) - len(stay_up)):
            up = stay_up + list(chosen)
            down = stay_down + [p for p in movable if p not in chosen]
            cost = avoided.cost(up, down)
            if cost < now and (best is None or cost < best[0]):
                best = (cost, up, down)
        return (best[1], best[2]) if best is not None else None
    for a in (p for p in upper if p in movable):
        for b in (p for p in lower if p in movable):
            up = [b if p == a else p for p in upper]
            down = [a if p == b else p for p in lower]
            if avoided.cost(up, down) < now:
                return up, down
    return None


def place_points(totals: Sequence[int]) -> list[int]:
    """T2: for each seat, the players below it minus the players above it (equal totals share
    a place: neither above nor below)."""
    return [sum(t < mine for t in totals) - sum(t > mine for t in totals) for mine in totals]


def arena_place_points(points: int, first: bool, firsts_before: int) -> int:
    """T4: a first place after two first places in a row (any other place ends the run)
    scores double."""
    return points * 2 if first and firsts_before >= 2 else points


@dataclass(frozen=True)
class Waiting(Generic[P]):
    """A free arena player (T4): their arena score, since when they wait (seconds), and their
    last game's table-mates."""

    player: P
    score: int
    since: float
    last_mates: frozenset[P] = frozenset()


def arena_tables(
    queue: Sequence[Waiting[P]],
    size: int,
    now: float,
    wait: float = 30.0,
    apart: Met[P] = frozenset(),
) -> list[list[P]]:
    """T4: players in order of score; while `size` wait, a table of neighbours in that order:
    of the windows of `size` starting among the lowest `size` places, the one with the fewest
    last table-mates together, then the smallest spread of scores. Then, if at least 3 of the
    rest have waited `wait` seconds, one table of them (`size` at most).
    A window passes over anyone of an apart pair with a player already in it, and the last
    table takes the longest waiting first: who is passed over waits for another table."""
    left = sorted(queue, key=lambda w: (w.score, w.since))
    tables: list[list[P]] = []
    while len(left) >= size:
        starts = range(min(size, len(left) - size + 1))
        windows = [(i, w) for i in starts if len(w := _kept_apart(left[i:], apart, size)) == size]
        if not windows:
            break
        _, window = min(windows, key=lambda iw: (_last_mates(iw[1]), _spread(iw[1]), iw[0]))
        tables.append([w.player for w in window])
        left = [w for w in left if w not in window]
    # Players kept apart can stop the windows with `size` or more still waiting: the last
    # table is never larger than the others.
    rest = _kept_apart(sorted(left, key=lambda w: w.since), apart, min(len(left), size))
    if len(rest) >= MIN_TABLE and sum(now - w.since >= wait for w in rest) >= MIN_TABLE:
        tables.append([w.player for w in left if w in rest])
    return tables


def _kept_apart(players: Sequence[Waiting[P]], apart: Met[P], most: int) -> list[Waiting[P]]:
    """Up to `most` of the players in order, passing over any apart from one already taken."""
    taken: list[Waiting[P]] = []
    for w in players:
        if len(taken) == most:
            break
        if not any(frozenset((w.player, t.player)) in apart for t in taken):
            taken.append(w)
    return taken


def _last_mates(window: Sequence[Waiting[P]]) -> int:
    return sum(
        b.player in a.last_mates or a.player in b.last_mates for a, b in combinations(window, 2)
    )


def _spread(window: Sequence[Waiting[P]]) -> int:
    return window[-1].score - window[0].score


def shared_ranks(keys: Sequence[tuple[int, ...]]) -> list[int]:
    """T2: ranks of rows already in standings order; equal keys share the better rank."""
    ranks: list[int] = []
    for at, key in enumerate(keys):
        ranks.append(ranks[-1] if at and key == keys[at - 1] else at + 1)
    return ranks


def standings_key(points: int, wizard_points: int, exact_bids: int) -> tuple[int, int, int]:
    """T2: sort by this, ascending: place points, then Wizard points, then exact bids, the
    most first."""
    return (-points, -wizard_points, -exact_bids)


def first_place_run(first: bool, firsts_before: int) -> int:
    """T4: the first places in a row after a game: any game not finished first (alone or
    sharing it) starts the run again from zero."""
    return firsts_before + 1 if first else 0
