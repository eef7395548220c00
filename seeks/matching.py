"""R28 in plain Python: which waiting seeks of one speed and deck sit down together.

No database and no clock of its own: the caller passes the seeks oldest first, the moment
and who is kept apart, and gets the tables to create.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

RANGE_START = 150  # R28: points either side of the oldest seek's rating at first
RANGE_STEP = 50  # ... growing by this
RANGE_EVERY = 10  # ... every this many seconds of waiting
RANGE_UNLIMITED_AFTER = 60  # ... and unlimited after a minute


@dataclass(frozen=True)
class Waiting:
    """A waiting seek: its player, the table sizes it accepts, since when it waits (seconds),
    its player's rating in its deck's pool (R27) and its bot wait (None: people only)."""

    seek: int
    player: int
    sizes: frozenset[int]
    since: float
    rating: float
    bots_after: int | None = None

    def bots_due(self, now: float) -> bool:
        return self.bots_after is not None and now - self.since >= self.bots_after


@dataclass(frozen=True)
class Table:
    """The seeks to seat at one new table (the oldest first), its size and its bot seats."""

    seeks: tuple[int, ...]
    size: int
    bots: int = 0


Apart = Callable[[int, int], bool]  # two players one of whom blocked the other


def rating_range(waited: float) -> float:
    """R28: how far from its rating a seek that has waited `waited` seconds looks."""
    if waited >= RANGE_UNLIMITED_AFTER:
        return math.inf
    return RANGE_START + RANGE_STEP * int(waited // RANGE_EVERY)


def tables(waiting: Sequence[Waiting], now: float, apart: Apart) -> list[Table]:
    """Every table the waiting seeks allow now, found one after another, oldest seek first."""
    left = sorted(waiting, key=lambda w: (w.since, w.seek))
    found: list[Table] = []
    while (table := _first_table(left, now, apart)) is not None:
        found.append(table)
        left = [w for w in left if w.seek not in table.seeks]
    return found


def _first_table(left: list[Waiting], now: float, apart: Apart) -> Table | None:
    """The oldest seek that a table can seat, with the next oldest in its rating range that
    accept a common size, at the largest size enough of them make; or, once its bot wait has
    passed, at its smallest size with any waiting seeks that allow bots, bots in the rest."""
    for i, oldest in enumerate(left):
        # Younger seeks only: an older one was tried first and no table had it as its oldest.
        reach = rating_range(now - oldest.since)
        near = [w for w in left[i + 1 :] if abs(w.rating - oldest.rating) <= reach]
        for size in sorted(oldest.sizes, reverse=True):
            mates = _mates(oldest, [w for w in near if size in w.sizes], size - 1, apart)
            if len(mates) == size - 1:
                return Table((oldest.seek, *(m.seek for m in mates)), size)
        if oldest.bots_due(now):
            size = min(oldest.sizes)
            allowing = [w for w in left if w is not oldest and w.bots_after is not None]
            mates = _mates(oldest, [w for w in allowing if size in w.sizes], size - 1, apart)
            return Table((oldest.seek, *(m.seek for m in mates)), size, size - 1 - len(mates))
    return None


def _mates(first: Waiting, candidates: list[Waiting], count: int, apart: Apart) -> list[Waiting]:
    """Up to `count` of the candidates in order, passing over anyone kept apart from a player
    already taken (R28: blocks are respected)."""
    taken: list[Waiting] = []
    for candidate in candidates:
        if len(taken) == count:
            break
        if not any(apart(candidate.player, w.player) for w in (first, *taken)):
            taken.append(candidate)
    return taken
