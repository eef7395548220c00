"""The locking querysets: every write to a game starts here."""

from __future__ import annotations

from typing import Literal, overload

from core.errors import NotFound
from games import hot_reads
from games.models import Game, Seat


@overload
def lock_game(game_id: int) -> Game: ...
@overload
def lock_game(game_id: int, *, skip_locked: Literal[True]) -> Game | None: ...


def lock_game(game_id: int, *, skip_locked: bool = False) -> Game | None:
    """The game row, locked until the transaction ends (moves on one game run one at a time).

    With skip_locked, a row another transaction holds gives None instead of waiting: another
    process got there first.
    """
    game = hot_reads.locked_game(game_id, skip_locked=skip_locked)
    if game is None and not skip_locked:
        raise NotFound(f"There is no game {game_id}.")
    return game


def lock_table(game_id: int) -> tuple[Game, list[Seat]]:
    """The game row locked as by lock_game, with its seats (selectors.table_seats), in one
    query: what a move reads."""
    found = hot_reads.locked_table(game_id)
    if found is None:
        raise NotFound(f"There is no game {game_id}.")
    return found
