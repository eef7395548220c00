"""The API token lookup on every REST request's path, in literal SQL, and the plain pieces the
move's literal SQL (games/sql.py) shares with it: a user's columns, a row's values made an
instance, a suspension's columns read as barred or not.

Why not a queryset: `Token.objects.select_related("user", "user__suspension").get(key=...)`
costs the web process 694 µs of CPU a request, this query 142 µs
(`.venv/bin/python bench/move_sql.py --calls 1000 --repeats 3`, PostgreSQL, 7 December 2026;
games/sql.py gives the move's figures).

Rows become instances through Django's documented `Model.from_db(db, field_names, values)`, the
values given in the model's order (tests/accounts/test_sql.py fails when a model's columns and
these lists part). What the drivers give is what the models hold but for two column types:
a datetime is aware from psycopg and naive UTC from SQLite (Django's sqlite3 converter for
the declared type parses the text), and JSON is text from both; booleans come as bool from
both (SQLite's through that converter too)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Model
from rest_framework.authtoken.models import Token

from accounts.models import Suspension
from core import fastjson

M = TypeVar("M", bound=Model)


def moment(value: datetime | None) -> datetime | None:
    """A datetime column's value, aware (SQLite's is naive, in UTC, as the ORM wrote it)."""
    return value if value is None or value.tzinfo is not None else value.replace(tzinfo=UTC)


def document(value: str | None) -> Any:
    """A JSON column's value: its text parsed."""
    return None if value is None else fastjson.loads(value)


class ModelRow(Generic[M]):
    """One model's columns, written out (all of them, in the model's order, separated by
    spaces), and which of them are datetime and JSON columns: the list a SELECT names, and a
    row's slice of values made an instance."""

    def __init__(
        self, model: type[M], columns: str, *, moments: str = "", documents: str = ""
    ) -> None:
        self.model, self.columns = model, tuple(columns.split())
        self.moments, self.documents = tuple(moments.split()), tuple(documents.split())
        self._moments = [self.columns.index(name) for name in self.moments]
        self._documents = [self.columns.index(name) for name in self.documents]

    def __len__(self) -> int:
        return len(self.columns)

    def select(self, alias: str) -> str:
        """The columns as a SELECT names them from the table `alias`."""
        return ", ".join(f"{alias}.{column}" for column in self.columns)

    def build(self, values: Sequence[Any]) -> M:
        found = list(values)
        for at in self._moments:
            found[at] = moment(found[at])
        for at in self._documents:
            found[at] = document(found[at])
        return self.model.from_db(connection.alias, self.columns, found)


USER = ModelRow(
    User,
    "id password last_login is_superuser username first_name last_name email is_staff"
    " is_active date_joined",
    moments="last_login date_joined",
)
TOKEN = ModelRow(Token, "key user_id created", moments="created")
# A suspension's columns read by a LEFT JOIN: both NULL where the user has none.
SUSPENSION_COLUMNS = ("banned", "until")


def barred(banned: bool | None, until: datetime | None) -> bool:
    """Whether a LEFT JOINed suspension's (banned, until) is in force now (Suspension.in_force
    decides, as everywhere); no suspension: banned is NULL."""
    return banned is not None and Suspension(banned=banned, until=moment(until)).in_force


TOKEN_WITH_STANDING = f"""
    SELECT {TOKEN.select("t")}, {USER.select("u")}, x.banned, x.until
    FROM authtoken_token t
    INNER JOIN auth_user u ON u.id = t.user_id
    LEFT OUTER JOIN accounts_suspension x ON x.user_id = t.user_id
    WHERE t.key = %s
"""


def token_with_standing(key: str) -> tuple[Token, User, bool] | None:
    """The API token with this key, its user, and whether the user is barred now: one query;
    None if there is no such token."""
    with connection.cursor() as cursor:
        cursor.execute(TOKEN_WITH_STANDING, [key])
        row = cursor.fetchone()
    if row is None:
        return None
    users_at = len(TOKEN)
    standing_at = users_at + len(USER)
    token = TOKEN.build(row[:users_at])
    user = USER.build(row[users_at:standing_at])
    token.user = user
    return token, user, barred(*row[standing_at:])
