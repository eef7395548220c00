"""The two writes every move makes (its event rows appended, the game row's new state), in
hand-written SQL, on PostgreSQL as one statement (one round trip): through the ORM
(bulk_create, save) they cost the web process more CPU than the database spent on them.
Values are prepared by each field itself, as the ORM would, but JSON is encoded by
core.fastjson; the instances end as the ORM leaves them (ids, created_at)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, JSONField, Model
from django.utils import timezone

from core import fastjson
from games.models import Event, Game


def _prepared(field: Field[Any, Any], value: Any) -> Any:
    if isinstance(field, JSONField):
        return None if value is None else fastjson.dumps(value)
    return field.get_db_prep_save(value, connection)


@cache
def _fields(model: type[Model], names: tuple[str, ...]) -> list[Field[Any, Any]]:
    return [model._meta.get_field(name) for name in names]  # type: ignore[misc]


EVENT_COLUMNS = ("game", "seq", "type", "seat", "auto", "payload", "created_at")


def game_record(rows: Sequence[Event], game: Game, names: Sequence[str]) -> None:
    """Append the event rows (each gets its id, and now as its created_at unless it has one)
    and write these fields of the game to its row, as `save(update_fields=names)` would.
    PostgreSQL runs both as one statement; elsewhere they are two."""
    insert, insert_params = _events_insert(rows)
    update, update_params = _game_update(game, names)
    key = _quote(str(Event._meta.pk.column))
    if not rows:
        ids = []
        _execute(update, update_params)
    elif connection.vendor == "postgresql":
        sql = (
            f"WITH appended AS ({insert} RETURNING {key}) {update}"
            f" RETURNING (SELECT array_agg({key} ORDER BY {key}) FROM appended)"
        )
        ids = _execute(sql, insert_params + update_params)[0][0]
    else:
        returning = connection.features.can_return_rows_from_bulk_insert
        found = _execute(insert + (f" RETURNING {key}" if returning else ""), insert_params)
        ids = [pk for (pk,) in found] if returning else []
        _execute(update, update_params)
    for row, pk in zip(rows, ids, strict=False):
        row.pk = pk
        row._state.adding, row._state.db = False, connection.alias


def _events_insert(rows: Sequence[Event]) -> tuple[str, list[Any]]:
    now = timezone.now()
    fields = _fields(Event, EVENT_COLUMNS)
    params: list[Any] = []
    for row in rows:
        row.created_at = row.created_at or now
        params += [_prepared(field, getattr(row, field.attname)) for field in fields]
    columns = ", ".join(_quote(str(field.column)) for field in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    values = ", ".join([one] * len(rows))
    return f"INSERT INTO {Event._meta.db_table} ({columns}) VALUES {values}", params


def _game_update(game: Game, names: Sequence[str]) -> tuple[str, list[Any]]:
    fields = _fields(Game, tuple(names))
    assignments = ", ".join(f"{_quote(str(field.column))} = %s" for field in fields)
    params = [_prepared(field, getattr(game, field.attname)) for field in fields]
    key = _quote(str(Game._meta.pk.column))
    sql = f"UPDATE {Game._meta.db_table} SET {assignments} WHERE {key} = %s"
    return sql, [*params, game.pk]


def _execute(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)
