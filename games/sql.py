"""What every move reads (the game row locked, its seats, their users and standing) and writes
(its event rows, the game's new state), in literal SQL.

Why not querysets: the web process's CPU is a move's floor (docs/architecture.md), and through
`select_for_update(no_key=True, of=("self",)).select_related(...)`, `bulk_create` and
`save(update_fields=...)` this read and write cost it three and a half times as much.
`.venv/bin/python bench/move_sql.py --calls 1000 --repeats 3` (PostgreSQL 127.0.0.1, 2-core VM,
7 December 2026, the machine otherwise quiet), µs of this process's CPU a move's transaction:
querysets 3177, this module 887 (wall 4564 and 2404 µs). The hand-written SQL before it, whose
columns and converters came from Django's internals, took 1075 (bench/live.py then: socket
K = 20, 211 moves/s through the ORM, 408 with it).

The columns are written out, in each model's order (tests/games/test_sql.py fails when a
model's columns and these lists part). Rows become instances through Django's documented
`Model.from_db(db, field_names, values)`, the values given in the model's order. What the
drivers give is what the models hold but for two column types: a datetime is aware from psycopg
and naive UTC from SQLite (Django's sqlite3 converter for the declared type parses the text),
and JSON is text from both; booleans come as bool from both (SQLite's through that converter
too)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

from django.contrib.auth.models import User
from django.db import connection
from django.db.models import Model

from accounts.models import Suspension
from core import fastjson
from games.models import Event, Game, Seat

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
# A suspension's columns read by a LEFT JOIN: both NULL where the user has none.
SUSPENSION_COLUMNS = ("banned", "until")


def barred(banned: bool | None, until: datetime | None) -> bool:
    """Whether a LEFT JOINed suspension's (banned, until) is in force now (Suspension.in_force
    decides, as everywhere); no suspension: banned is NULL."""
    return banned is not None and Suspension(banned=banned, until=moment(until)).in_force


GAME = ModelRow(
    Game,
    "id created_by_id created_at started_at finished_at status seats bots turn_seconds"
    " hook_rule blind_first_round guided seed commitment seq state to_act deadline turn_renewed"
    " voided min_reliability rounds special_cards visibility spectators invite_code"
    " rematch_of_id",
    moments="created_at started_at finished_at deadline",
    documents="state special_cards",
)
SEAT = ModelRow(
    Seat,
    "id game_id number user_id bot_kind joined_at final_score place exact_bids expiries away"
    " resigned",
    moments="joined_at",
)

# -- the read -----------------------------------------------------------------------------------
# The game row is locked by a statement of its own, and the seats read by the next: under READ
# COMMITTED a statement that waited for the lock re-reads only the locked row, so seats joined
# into it would be those from before the wait (a leave racing a join started a game with an
# empty seat; two joins took one seat). The game row only (OF g), with NO KEY UPDATE: rows that
# reference it (a chat line, an invitation) are still inserted meanwhile. SQLite has no row locks (a
# write transaction holds the whole database), so there it is the one statement, GAME_AND_SEATS.
LOCK = "SELECT g.id FROM games_game g WHERE g.id = %s FOR NO KEY UPDATE OF g"
LOCK_OR_SKIP = LOCK + " SKIP LOCKED"
GAME_AND_SEATS = f"""
    SELECT {GAME.select("g")}, {USER.select("c")}, {SEAT.select("s")}, {USER.select("u")},
           x.banned, x.until
    FROM games_game g
    INNER JOIN auth_user c ON c.id = g.created_by_id
    LEFT OUTER JOIN games_seat s ON s.game_id = g.id
    LEFT OUTER JOIN auth_user u ON u.id = s.user_id
    LEFT OUTER JOIN accounts_suspension x ON x.user_id = s.user_id
    WHERE g.id = %s
    ORDER BY s.number
"""
BIGINT = range(-(2**63), 2**63)  # the ids games_game.id (bigint, on both databases) can hold

_CREATOR_AT = len(GAME)
_SEAT_AT = _CREATOR_AT + len(USER)
_USER_AT = _SEAT_AT + len(SEAT)
_STANDING_AT = _USER_AT + len(USER)


def locked_table(
    game_id: int, *, skip_locked: bool = False
) -> tuple[Game, list[Seat], frozenset[int]] | None:
    """The game row with its creator, locked until the transaction ends, its seats in order
    with their users, and the seat numbers whose user is barred now, read once the lock is
    held; two queries (one on SQLite). None if there is no such game (or, with skip_locked,
    another transaction holds it)."""
    if game_id not in BIGINT:
        return None  # as the ORM finds no row for an id no column can hold
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(LOCK_OR_SKIP if skip_locked else LOCK, [game_id])
            if cursor.fetchone() is None:
                return None
        cursor.execute(GAME_AND_SEATS, [game_id])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    if not rows:
        return None
    game = GAME.build(rows[0][:_CREATOR_AT])
    game.created_by = USER.build(rows[0][_CREATOR_AT:_SEAT_AT])
    seats, barred_seats = [], set()
    for row in rows:
        if row[_SEAT_AT] is None:
            continue  # a table nobody sits at
        seat = SEAT.build(row[_SEAT_AT:_USER_AT])
        seat.user = None if seat.user_id is None else USER.build(row[_USER_AT:_STANDING_AT])
        seats.append(seat)
        if barred(*row[_STANDING_AT:]):
            barred_seats.add(seat.number)
    return game, seats, frozenset(barred_seats)


# -- the write ----------------------------------------------------------------------------------
APPEND = "INSERT INTO games_event (game_id, seq, type, seat, auto, payload, created_at) VALUES "
EVENT_VALUES = "(%s, %s, %s, %s, %s, %s, %s)"
# What a change writes to the game row: the cached state with its turn and clock, and the
# status with the moments it changed (unchanged ones are written as they were read, under the
# lock).
UPDATE = """
    UPDATE games_game
    SET seq = %s, state = %s, to_act = %s, deadline = %s, turn_renewed = %s, status = %s,
        started_at = %s, finished_at = %s
    WHERE id = %s
"""


def game_record(rows: Sequence[Event], game: Game) -> None:
    """Append the event rows and write the game's state, turn, clock and status to its row,
    as `bulk_create(rows)` and `save(update_fields=...)` would; one statement on PostgreSQL,
    its insert in a CTE."""
    update = [
        game.seq,
        None if game.state is None else fastjson.dumps(game.state),
        game.to_act,
        _stored(game.deadline),
        game.turn_renewed,
        game.status,
        _stored(game.started_at),
        _stored(game.finished_at),
        game.pk,
    ]
    appended = [
        value
        for row in rows
        for value in (
            row.game_id,
            row.seq,
            row.type,
            row.seat,
            row.auto,
            fastjson.dumps(row.payload),
            _stored(row.created_at),
        )
    ]
    insert = APPEND + ", ".join([EVENT_VALUES] * len(rows))
    with connection.cursor() as cursor:
        if not rows:
            cursor.execute(UPDATE, update)
        elif connection.vendor == "postgresql":
            cursor.execute(f"WITH appended AS ({insert}) {UPDATE}", appended + update)
        else:
            cursor.execute(insert, appended)
            cursor.execute(UPDATE, update)


def _stored(value: datetime | None) -> datetime | str | None:
    """A datetime parameter: as it is to psycopg; to SQLite as the ORM stores it, naive UTC
    text (its sqlite3 adapter would keep the offset, which then compares as text)."""
    if value is None or connection.vendor == "postgresql":
        return value
    return str(value.astimezone(UTC).replace(tzinfo=None))
