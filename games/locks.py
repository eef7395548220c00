"""The locking reads: every write to a game starts here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, overload

from core.errors import NotFound
from games import sql
from games.models import Game, Seat


@dataclass(frozen=True)
class Table:
    """A locked game, its seats in order, and the seats whose player is barred now."""

    game: Game
    seats: list[Seat]
    barred: frozenset[int]

    def seat_of(self, user_id: int) -> Seat | None:
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    def seat(self, number: int) -> Seat:
        return next(seat for seat in self.seats if seat.number == number)


@overload
def lock_table(game_id: int) -> Table: ...
@overload
def lock_table(game_id: int, *, skip_locked: Literal[True]) -> Table | None: ...


def lock_table(game_id: int, *, skip_locked: bool = False) -> Table | None:
    """The game row locked until the transaction ends (changes to one game run one at a time),
    with its seats (games/sql.py). With skip_locked, a row another transaction holds gives None
    instead of waiting: another process got there first."""
    found = sql.locked_table(game_id, skip_locked=skip_locked)
    if found is None:
        if skip_locked:
            return None
        raise NotFound(f"There is no game {game_id}.")
    return Table(*found)
