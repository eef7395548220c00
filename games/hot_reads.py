"""The two reads every move makes (the game row locked, its seats with their users and
standing), in hand-written SQL: building and compiling these querysets cost the web process
more CPU than the database spent answering them. Rows become the same model instances the
ORM would make, with Django's own converters applied, so callers see no difference."""

from __future__ import annotations

from functools import cache

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
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= game_id <= high:
        return None  # as the ORM finds no row for an id no column can hold
    game_cols, creator_cols = _game_columns()
    sql = (
        f"SELECT {game_cols.sql}, {creator_cols.sql} FROM {Game._meta.db_table} g"
        f" INNER JOIN {User._meta.db_table} c ON c.id = g.created_by_id WHERE g.id = %s"
        + _lock_clause(skip_locked=skip_locked)
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    game: Game = game_cols.build(row[: len(game_cols)])
    Game.created_by.field.set_cached_value(game, creator_cols.build(row[len(game_cols) :]))
    return game


def seats_with_standing(game: Game) -> list[Seat]:
    """The seats in order, each with its user and, as `barred`, whether a suspension or ban
    is in force for that user now (Suspension.in_force decides, as everywhere)."""
    seat_cols, user_cols, suspension_cols = _seat_columns()
    sql = (
        f"SELECT {seat_cols.sql}, {user_cols.sql}, {suspension_cols.sql}"
        f" FROM {Seat._meta.db_table} s"
        f" LEFT OUTER JOIN {User._meta.db_table} u ON u.id = s.user_id"
        f" LEFT OUTER JOIN {Suspension._meta.db_table} x ON x.user_id = s.user_id"
        " WHERE s.game_id = %s ORDER BY s.number"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        rows = cursor.fetchall()
    seats: list[Seat] = []
    users_at = len(seat_cols)
    suspension_at = users_at + len(user_cols)
    for row in rows:
        seat: Seat = seat_cols.build(row[:users_at])
        user = user_cols.build(row[users_at:suspension_at]) if seat.user_id is not None else None
        Seat.user.field.set_cached_value(seat, user)
        seat.barred = in_force(suspension_cols, row[suspension_at:])  # type: ignore[attr-defined]
        seats.append(seat)
    return seats
