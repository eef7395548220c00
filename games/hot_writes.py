"""The two writes every move makes (its event rows appended, the game row's new state), in
hand-written SQL: through the ORM (bulk_create, save) they cost the web process more CPU than
the database spent on them. Values are prepared by each field itself, as the ORM would, but
JSON is encoded by core.fastjson; the instances end as the ORM leaves them (ids, created_at)."""

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


def events_insert(rows: Sequence[Event]) -> None:
    """Append the rows in one INSERT; each gets its id and, as auto_now_add gives it, now as
    its created_at."""
    if not rows:
        return
    now = timezone.now()
    fields = _fields(Event, EVENT_COLUMNS)
    params: list[Any] = []
    for row in rows:
        row.created_at = now
        params += [_prepared(field, getattr(row, field.attname)) for field in fields]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(field.column)) for field in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    sql = f"INSERT INTO {Event._meta.db_table} ({columns}) VALUES " + ", ".join([one] * len(rows))
    returning = connection.features.can_return_rows_from_bulk_insert
    if returning:
        sql += f" RETURNING {quote(str(Event._meta.pk.column))}"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        ids = [found for (found,) in cursor.fetchall()] if returning else []
    for row, pk in zip(rows, ids, strict=False):
        row.pk = pk
        row._state.adding, row._state.db = False, connection.alias


def game_update(game: Game, names: Sequence[str]) -> None:
    """Write these fields of the game to its row, as `save(update_fields=names)` would."""
    fields = _fields(Game, tuple(names))
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(str(field.column))} = %s" for field in fields)
    params = [_prepared(field, getattr(game, field.attname)) for field in fields]
    key = quote(str(Game._meta.pk.column))
    sql = f"UPDATE {Game._meta.db_table} SET {assignments} WHERE {key} = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, game.pk])
