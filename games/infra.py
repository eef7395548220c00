"""The games' hand-written infrastructure, public APIs only.

- What every move reads (the game row locked, its seats, users and standing) and writes (its
  event rows, the game's new state), in hand-written SQL: through querysets they cost one web
  process too much CPU for the floor of docs/architecture.md (bench/live.py: socket K = 20
  211 moves/s through the ORM, 408 with these). Django's pin test (accounts.infra) covers them.
- Celery tasks sent off the caller's thread (`send`, `call`): a move's answer never waits on the
  broker, frozen or down (tests/faults: a move answers within 5 s while Redis is frozen).
- A move's pushes published in one round trip (`publish_many`): channels_redis's pub/sub layer
  publishes each in a round trip of its own, a quarter of a web process's CPU (bench/live.py)."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from celery import current_app
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Field, JSONField, Model
from redis import Redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from accounts.infra import Columns, in_force, suspension_columns
from accounts.models import Suspension
from core import fastjson
from games.models import Event, Game, Seat

log = logging.getLogger(__name__)


# -- the read -----------------------------------------------------------------------------------
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


def locked_table(
    game_id: int, *, skip_locked: bool = False
) -> tuple[Game, list[Seat], frozenset[int]] | None:
    """The game row with its creator, locked until the transaction ends, its seats in order
    with their users, and the seat numbers whose user is barred now, read once the lock is
    held; two queries (one on SQLite, whose write transaction holds the database). None if there
    is no such game (or, with skip_locked, another transaction holds it)."""
    low, high = connection.ops.integer_field_range(Game._meta.pk.get_internal_type())
    if not low <= game_id <= high:
        return None  # as the ORM finds no row for an id no column can hold
    game_cols, creator_cols = _game_columns()
    seat_cols, user_cols, suspension_cols = _seat_columns()
    sql = (
        f"SELECT {game_cols.sql}, {creator_cols.sql}, {seat_cols.sql}, {user_cols.sql},"
        f" {suspension_cols.sql} FROM {Game._meta.db_table} g"
        f" INNER JOIN {User._meta.db_table} c ON c.id = g.created_by_id"
        f" LEFT OUTER JOIN {Seat._meta.db_table} s ON s.game_id = g.id"
        f" LEFT OUTER JOIN {User._meta.db_table} u ON u.id = s.user_id"
        f" LEFT OUTER JOIN {Suspension._meta.db_table} x ON x.user_id = s.user_id"
        f" WHERE g.id = %s ORDER BY s.number"
    )
    with connection.cursor() as cursor:
        if lock := _lock_clause(skip_locked=skip_locked):
            # The game row is locked by a statement of its own, and the seats read by the next:
            # under READ COMMITTED a statement that waited for the lock re-reads only the
            # locked row, so seats joined into it would be those from before the wait (a leave
            # racing a join started a game with an empty seat; two joins took one seat).
            cursor.execute(
                f"SELECT g.id FROM {Game._meta.db_table} g WHERE g.id = %s{lock}", [game_id]
            )
            if cursor.fetchone() is None:
                return None
        cursor.execute(sql, [game_id])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    if not rows:
        return None
    game: Game = game_cols.build(rows[0][: len(game_cols)])
    at = len(game_cols) + len(creator_cols)
    Game.created_by.field.set_cached_value(game, creator_cols.build(rows[0][len(game_cols) : at]))
    seats, barred = [], set()
    for row in rows:
        if row[at] is None:
            continue  # a table nobody sits at
        users_at = at + len(seat_cols)
        suspension_at = users_at + len(user_cols)
        seat: Seat = seat_cols.build(row[at:users_at])
        user = user_cols.build(row[users_at:suspension_at]) if seat.user_id is not None else None
        Seat.user.field.set_cached_value(seat, user)
        seats.append(seat)
        if in_force(suspension_cols, row[suspension_at:]):
            barred.add(seat.number)
    return game, seats, frozenset(barred)


# -- the write ----------------------------------------------------------------------------------
EVENT_COLUMNS = ("game", "seq", "type", "seat", "auto", "payload", "created_at")


def game_record(rows: Sequence[Event], game: Game, names: Sequence[str]) -> None:
    """Append the event rows and write these fields of the game to its row, as
    `bulk_create(rows)` and `save(update_fields=names)` would; one statement on PostgreSQL."""
    update, update_params = _game_update(game, names)
    if not rows:
        _execute(update, update_params)
        return
    insert, insert_params = _events_insert(rows)
    if connection.vendor == "postgresql":
        _execute(f"WITH appended AS ({insert}) {update}", insert_params + update_params)
    else:
        _execute(insert, insert_params)
        _execute(update, update_params)


def _prepared(field: Field[Any, Any], value: Any) -> Any:
    if isinstance(field, JSONField):
        return None if value is None else fastjson.dumps(value)
    return field.get_db_prep_save(value, connection)


@cache
def _fields(model: type[Model], names: tuple[str, ...]) -> list[Field[Any, Any]]:
    return [model._meta.get_field(name) for name in names]  # type: ignore[misc]


def _events_insert(rows: Sequence[Event]) -> tuple[str, list[Any]]:
    fields = _fields(Event, EVENT_COLUMNS)
    params = [_prepared(field, getattr(row, field.attname)) for row in rows for field in fields]
    columns = ", ".join(_quote(str(field.column)) for field in fields)
    one = "(" + ", ".join(["%s"] * len(fields)) + ")"
    values = ", ".join([one] * len(rows))
    return f"INSERT INTO {Event._meta.db_table} ({columns}) VALUES {values}", params


def _game_update(game: Game, names: Sequence[str]) -> tuple[str, list[Any]]:
    fields = _fields(Game, tuple(names))
    assignments = ", ".join(f"{_quote(str(field.column))} = %s" for field in fields)
    params = [_prepared(field, getattr(game, field.attname)) for field in fields]
    key = _quote(str(Game._meta.pk.column))
    return f"UPDATE {Game._meta.db_table} SET {assignments} WHERE {key} = %s", [*params, game.pk]


def _execute(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


# -- task sends off the caller's thread ---------------------------------------------------------
# One daemon sender thread per process (at once where tasks run eagerly: the tests). A send that
# fails (kombu retries, then gives up) is logged and dropped: every task sent here has a safety
# net that needs only PostgreSQL (the turn timer's sweep, R16; the league's and review's sweeps).
_sends: queue.SimpleQueue[Callable[[], Any]] = queue.SimpleQueue()
_sender: threading.Thread | None = None
_sender_lock = threading.Lock()


def after_commit(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`send(task, args, **options)` once the transaction commits (Celery's delay_on_commit
    would send on the committing thread)."""
    transaction.on_commit(lambda: send(task, args, **options))


def send(task: Any, args: tuple[Any, ...], **options: Any) -> None:
    """`task.apply_async(args, **options)` on the sender thread."""
    call(lambda: task.apply_async(args, **options))


def call(work: Callable[[], Any]) -> None:
    """`work()` on the sender thread (at once where tasks run eagerly): for a send that first
    asks the cache whether it is needed at all. Its errors are logged."""
    if current_app.conf.task_always_eager:
        work()
        return
    global _sender
    with _sender_lock:
        if _sender is None or not _sender.is_alive():
            _sender = threading.Thread(target=_send_forever, name="task-sender", daemon=True)
            _sender.start()
    _sends.put(work)


def _send_forever() -> None:
    while True:
        work = _sends.get()
        try:
            work()
        except Exception as error:  # the broker is unreachable: the sweep stands in
            log.warning("task dropped, broker unavailable: %r", error)


# -- a change's pushes in one round trip ---------------------------------------------------------
# channels_redis's pub/sub layer publishes each message in a round trip of its own, from an event
# loop; here one pipeline from the change's own thread carries them all, named and encoded as
# channels_redis 4.3 does (CHANNELS_REDIS_PIN; tests/live/test_redis.py checks both).
CHANNELS_REDIS_PIN = (4, 3)  # pyproject.toml: channels-redis>=4.3,<4.4


def publish_many(layer: Any, messages: Sequence[tuple[str, Any]], timeout: float) -> bool:
    """Publish each message to its group's channel, in order, in one round trip that waits at
    most `timeout` seconds; False (nothing sent) unless the layer is the single-host pub/sub one."""
    default: Any = settings.CHANNEL_LAYERS["default"]
    config = default.get("CONFIG", {})
    hosts = config.get("hosts", [])
    if not isinstance(layer, RedisPubSubChannelLayer) or len(hosts) != 1:
        return False
    host = hosts[0]
    client = _publisher(host["address"] if isinstance(host, dict) else host, timeout)
    prefix = config.get("prefix", "asgi")
    with client.pipeline(transaction=False) as pipeline:
        for group, message in messages:
            pipeline.publish(f"{prefix}__group__{group}", layer.serialize(message))
        pipeline.execute()
    return True


@cache
def _publisher(address: str, timeout: float) -> Redis:
    """One client per process (its connection pool is thread-safe), never retrying: a push
    that fails is dropped and the clients resync by `seq`."""
    return Redis.from_url(
        address, socket_timeout=timeout, socket_connect_timeout=timeout, retry=Retry(NoBackoff(), 0)
    )
