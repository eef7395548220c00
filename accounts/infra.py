"""Hand-written SQL rows turned back into model instances, as the ORM would make them: the
reads on every request's and move's path skip building querysets, which cost the web process
more CPU than the database spent answering them (games/infra.py gives the figures). Public
APIs of Django only; tests/accounts/test_infra.py fails when Django's pin moves."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Field, JSONField, Model
from django.db.models.expressions import Col
from rest_framework.authtoken.models import Token

from accounts.models import Suspension
from core import fastjson

DJANGO_PIN = (5, 2)  # pyproject.toml: django>=5.2,<5.3

Converter = Callable[[Any, Any, Any], Any]


def _json(value: Any, expression: Any, connection: Any) -> Any:
    """A JSON column's text as JSONField.from_db_value reads it."""
    return None if value is None else fastjson.loads(value)


class Columns:
    """Every concrete column of one model under a table alias, and how to turn a row's slice
    of values back into an instance."""

    def __init__(self, model: type[Model], alias: str, only: Sequence[str] = ()) -> None:
        fields = model._meta.concrete_fields
        self.fields: list[Field[Any, Any]] = [f for f in fields if not only or f.name in only]
        self.model, self.alias = model, alias
        self.attnames = [field.attname for field in self.fields]
        quote = connection.ops.quote_name
        self.sql = ", ".join(f"{alias}.{quote(str(field.column))}" for field in self.fields)
        self.converters: list[tuple[list[Converter], Col]] = []
        for field in self.fields:
            column = field.get_col(alias)
            found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
            if isinstance(field, JSONField) and field.decoder is None:
                found = [_json if c == field.from_db_value else c for c in found]
            self.converters.append((found, column))

    def __len__(self) -> int:
        return len(self.fields)

    def values(self, row: Sequence[Any]) -> list[Any]:
        values = list(row)
        for i, (converters, column) in enumerate(self.converters):
            for convert in converters:
                values[i] = convert(values[i], column, connection)
        return values

    def build(self, row: Sequence[Any]) -> Any:
        return self.model.from_db(connection.alias, self.attnames, self.values(row))


def in_force(columns: Columns, row: Sequence[Any]) -> bool:
    """Whether the Suspension columns of a LEFT JOINed row hold a suspension in force now
    (Suspension.in_force decides, as everywhere); no row: banned is NULL."""
    found = dict(zip(columns.attnames, columns.values(row), strict=True))
    return found["banned"] is not None and Suspension(**found).in_force


@cache
def suspension_columns(alias: str) -> Columns:
    return Columns(Suspension, alias, ("banned", "until"))


@cache
def _token_columns() -> tuple[Columns, Columns]:
    return Columns(Token, "t"), Columns(User, "u")


def token_with_standing(key: str) -> tuple[Token, User, bool] | None:
    """The API token with this key, its user, and whether the user is barred now: one
    query; None if there is no such token."""
    token_cols, user_cols = _token_columns()
    suspension_cols = suspension_columns("x")
    sql = (
        f"SELECT {token_cols.sql}, {user_cols.sql}, {suspension_cols.sql}"
        f" FROM {Token._meta.db_table} t"
        f" INNER JOIN {User._meta.db_table} u ON u.id = t.user_id"
        f" LEFT OUTER JOIN {Suspension._meta.db_table} x ON x.user_id = t.user_id"
        " WHERE t.key = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    users_at, suspension_at = len(token_cols), len(token_cols) + len(user_cols)
    token: Token = token_cols.build(row[:users_at])
    user: User = user_cols.build(row[users_at:suspension_at])
    Token.user.field.set_cached_value(token, user)
    return token, user, in_force(suspension_cols, row[suspension_at:])
