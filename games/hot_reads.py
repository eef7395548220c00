"""What every move reads (the game row locked, its seats with their users and standing), in
one hand-written query: building and compiling querysets cost the web process more CPU than
the database spent answering them, and each query is one more round trip. Rows become the
same model instances the ORM would make, with Django's own converters applied, so callers see
no difference."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.contrib.auth.models import User
from django.db import connection

from accounts.models import Suspension
from accounts.rows import Columns, in_force, suspension_columns
from games.models import Game, Seat


@cache
def _game_columns() -> tuple[Columns, Columns]:
    return Columns(Game, "g"), Columns(User, "c")


@cache
def _seat_columns() -> tuple[Columns, Columns, Columns]:
    return Columns(Seat, "s"), Columns(User, "u"), suspension_columns("x")


def _lock_clause(*, skip_locked: bool) -> str:
    features = connection.features
    if not features.has_select_for_update:
        return ""  # SQLite: a write transaction holds the whole database anyway
    clause = " FOR NO KEY UPDATE" if features.has_select_for_no_key_update else " FOR UPDATE"
    if features.has_select_for_update_of:
        clause += " OF g"  # the game row only, not its creator's
    return clause + (" SKIP LOCKED" if skip_locked else "")


def locked_game(game_id: int, *, skip_locked: bool) -> Game | None:
    """The game row with its creator, locked until the transaction ends; None if there is no
    such game (or, with skip_locked, another transaction holds it)."""
    rows = _locked(game_id, skip_locked=skip_locked, with_seats=False)
    return _game_from(rows[0]) if rows else None


def locked_table(game_id: int) -> tuple[Game, list[Seat]] | None:
    """The game row locked as by locked_game and its seats as by seats_with_standing, in one
    query (all a move reads); None if there is no such game."""
    rows = _locked(game_id, skip_locked=False, with_seats=True)
    if not rows:
        return None
    at = sum(map(len, _game_columns()))
    return _game_from(rows[0]), [_seat_from(row[at:]) for row in rows if row[at] is not None]


def seats_with_standing(game: Game) -> list[Seat]:
    """The seats in order, each with its user and, as `barred`, whether a suspension or ban
    is in force for that user now (Suspension.in_force decides, as everywhere)."""
    sql = (
        f"SELECT {_seat_select()} FROM {Seat._meta.db_table} s{_seat_joins()}"
        " WHERE s.game_id = %s ORDER BY s.number"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        return [_seat_from(row) for row in cursor.fetchall()]


def _locked(game_id: int, *, skip_locked: bool, with_seats: bool) -> list[tuple[Any, ...]]:
    """The game's row (with its seats: one row a seat, the game's columns repeated)."""
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= game_id <= high:
        return []  # as the ORM finds no row for an id no column can hold
    game_cols, creator_cols = _game_columns()
    select, joins, order = f"{game_cols.sql}, {creator_cols.sql}", "", ""
    if with_seats:
        select += f", {_seat_select()}"
        joins = f" LEFT OUTER JOIN {Seat._meta.db_table} s ON s.game_id = g.id{_seat_joins()}"
        order = " ORDER BY s.number"
    sql = (
        f"SELECT {select} FROM {Game._meta.db_table} g"
        f" INNER JOIN {User._meta.db_table} c ON c.id = g.created_by_id{joins}"
        f" WHERE g.id = %s{order}" + _lock_clause(skip_locked=skip_locked)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    return rows


def _game_from(row: Sequence[Any]) -> Game:
    game_cols, creator_cols = _game_columns()
    game: Game = game_cols.build(row[: len(game_cols)])
    creator_at = len(game_cols)
    creator = creator_cols.build(row[creator_at : creator_at + len(creator_cols)])
    Game.created_by.field.set_cached_value(game, creator)
    return game


@cache
def _seat_select() -> str:
    return ", ".join(columns.sql for columns in _seat_columns())


@cache
def _seat_joins() -> str:
    return (
        f" LEFT OUTER JOIN {User._meta.db_table} u ON u.id = s.user_id"
        f" LEFT OUTER JOIN {Suspension._meta.db_table} x ON x.user_id = s.user_id"
    )


def _seat_from(row: Sequence[Any]) -> Seat:
    """A seat, its user and `barred` from a row of _seat_select's columns."""
    seat_cols, user_cols, suspension_cols = _seat_columns()
    users_at = len(seat_cols)
    suspension_at = users_at + len(user_cols)
    seat: Seat = seat_cols.build(row[:users_at])
    user = user_cols.build(row[users_at:suspension_at]) if seat.user_id is not None else None
    Seat.user.field.set_cached_value(seat, user)
    seat.barred = in_force(suspension_cols, row[suspension_at:])  # type: ignore[attr-defined]
    return seat
