"""games.sql: the move's read (the game row locked with its seats and their standing) gives what
the ORM gives, field for field, with a suspension in force seen as barred and a bot seat without
a user; its write stores what the ORM would; on PostgreSQL the lock is the game row's alone and
SKIP LOCKED passes a held one by; the literal column lists follow the models."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Model
from django.utils import timezone

from accounts.models import Suspension
from games import sql
from games.models import Event, Game, GameStatus, Seat
from games.sql import SUSPENSION_COLUMNS, USER
from tests.games.helpers import Player, seat_players
from tests.games.model_rows import assert_model_row, loaded, selected


def values(instance: Model) -> list[tuple[str, object]]:
    return [(name, value) for name, _, value in loaded(instance)]


def test_the_locked_table_is_the_game_and_its_seats_in_order_with_their_standing(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(2)]
    game_id = seat_players(people, seats=4, bots=1)
    Suspension.objects.create(
        user_id=people[1].user_id, until=timezone.now() + timedelta(days=1), reason="rude"
    )
    # Every datetime column holds a value, so each one's conversion is compared.
    Game.objects.filter(pk=game_id).update(finished_at=timezone.now())
    User.objects.filter(pk=people[0].user_id).update(last_login=timezone.now())

    with transaction.atomic():
        found = sql.locked_table(game_id)
    assert found is not None
    game, seats, barred = found

    expected = Game.objects.select_related("created_by").get(pk=game_id)
    assert loaded(game) == loaded(expected)
    assert loaded(game.created_by) == loaded(expected.created_by)
    orm_seats = list(Seat.objects.filter(game_id=game_id).select_related("user").order_by("number"))
    assert [loaded(seat) for seat in seats] == [loaded(seat) for seat in orm_seats]
    assert [seat.user and loaded(seat.user) for seat in seats] == [
        seat.user and loaded(seat.user) for seat in orm_seats
    ]
    numbers = {seat.user_id: seat.number for seat in seats}
    assert barred == {numbers[people[1].user_id]}
    assert any(seat.user_id is None for seat in seats)  # the bot's seat is read too


def test_no_game_gives_none(db: None) -> None:
    with transaction.atomic():
        assert sql.locked_table(10**12) is None
        assert sql.locked_table(2**70) is None  # an id no column can hold
        assert sql.locked_table(-(2**70)) is None


def test_the_write_stores_what_the_orm_reads_and_finds_back(
    make_player: Callable[..., Player],
) -> None:
    game_id = seat_players([make_player() for _ in range(3)])
    now = timezone.now().replace(microsecond=123456)
    whole_second = now.replace(microsecond=0)  # the text of a datetime without microseconds
    with transaction.atomic():
        found = sql.locked_table(game_id)
        assert found is not None
        game = found[0]
        first = game.seq + 1
        payloads = [{"type": "note", "seat": 1, "1": [1.5, "é"]}, {"type": "note", "auto": True}]
        rows = [
            Event(game=game, seq=first, type="note", seat=1, payload=payloads[0], created_at=now),
            Event(
                game=game,
                seq=first + 1,
                type="note",
                auto=True,
                payload=payloads[1],
                created_at=whole_second,
            ),
        ]
        game.seq = first + 1
        game.state = {**(game.state or {}), "note": [1, None]}
        game.to_act = 2
        game.deadline = now + timedelta(seconds=30)
        game.turn_renewed = True
        game.status = GameStatus.FINISHED
        game.finished_at = whole_second
        sql.game_record(rows, game)

    stored = Game.objects.get(pk=game_id)
    assert values(stored) == values(game)  # a status written as GameStatus is read as str
    events = Event.objects.filter(game_id=game_id, seq__gte=first).order_by("seq")
    assert [(e.seq, e.type, e.seat, e.auto, e.payload, e.created_at) for e in events] == [
        (first, "note", 1, False, payloads[0], now),
        (first + 1, "note", None, True, payloads[1], whole_second),
    ]
    # The ORM's lookups find the stored datetimes (on SQLite they compare as text).
    assert Game.objects.filter(pk=game_id, deadline=game.deadline, finished_at=whole_second)
    assert Event.objects.filter(game_id=game_id, created_at=now).count() == 1
    assert Event.objects.filter(game_id=game_id, created_at__lte=whole_second, seq__gte=first)

    with transaction.atomic():  # nothing to append: the game row alone
        game.to_act, game.deadline = 0, None
        sql.game_record([], game)
    assert Game.objects.values_list("to_act", "deadline").get(pk=game_id) == (0, None)


def test_the_literal_columns_are_the_models_columns() -> None:
    # A column added to, removed from or moved in one of these models fails here until the
    # literal SQL follows it.
    assert_model_row(sql.GAME)
    assert_model_row(sql.SEAT)
    assert_model_row(USER)
    assert set(SUSPENSION_COLUMNS) <= {f.column for f in Suspension._meta.concrete_fields}
    assert selected(sql.GAME_AND_SEATS) == [
        ("g", list(sql.GAME.columns)),
        ("c", list(USER.columns)),
        ("s", list(sql.SEAT.columns)),
        ("u", list(USER.columns)),
        ("x", list(SUSPENSION_COLUMNS)),
    ]
    appended = sql.APPEND.split("(")[1].split(")")[0].split(", ")
    assert appended == [f.column for f in Event._meta.concrete_fields if not f.primary_key]
    assert sql.EVENT_VALUES.count("%s") == len(appended)


def test_a_suspension_is_in_force_while_it_runs_and_a_ban_for_good() -> None:
    now = timezone.now()
    assert sql.barred(None, None) is False  # no suspension row
    assert sql.barred(True, None) is True
    assert sql.barred(False, now + timedelta(minutes=1)) is True
    assert sql.barred(False, now - timedelta(minutes=1)) is False
    assert sql.barred(False, (now + timedelta(minutes=1)).replace(tzinfo=None)) is True  # SQLite's


# -- the lock on PostgreSQL ---------------------------------------------------------------------
@contextmanager
def other_transaction() -> Iterator[psycopg.Connection[Any]]:
    """A second connection to the test database, in a transaction of its own."""
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        user=settings["USER"],
        password=settings["PASSWORD"],
        host=settings["HOST"],
        port=settings["PORT"] or None,
    ) as other:
        yield other  # psycopg's connection context rolls the transaction back on errors


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_lock_is_the_game_rows_alone_and_leaves_references_to_it_free(
    make_player: Callable[..., Player],
) -> None:
    game_id = seat_players([make_player() for _ in range(3)])
    with transaction.atomic():
        assert sql.locked_table(game_id) is not None
        with other_transaction() as other:
            # A row that references the game (a chat line, an invitation) takes KEY SHARE on it.
            other.execute("SELECT id FROM games_game WHERE id = %s FOR KEY SHARE NOWAIT", [game_id])
            other.rollback()
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute(
                    "SELECT id FROM games_game WHERE id = %s FOR UPDATE NOWAIT", [game_id]
                )
            other.rollback()
            seats = "SELECT id FROM games_seat WHERE game_id = %s FOR UPDATE NOWAIT"
            assert len(other.execute(seats, [game_id]).fetchall()) == 3  # the seats stay free


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_skip_locked_passes_a_game_another_transaction_holds(
    make_player: Callable[..., Player],
) -> None:
    game_id = seat_players([make_player() for _ in range(3)])
    with other_transaction() as other:
        other.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game_id])
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '2s'")  # a wait fails, not hangs
            assert sql.locked_table(game_id, skip_locked=True) is None
        other.rollback()
    with transaction.atomic():
        found = sql.locked_table(game_id, skip_locked=True)
        assert found is not None and found[0].pk == game_id


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_seats_are_read_after_the_wait_for_the_lock(
    make_player: Callable[..., Player],
) -> None:
    # A leave that commits while the read waits for the lock: the read sees the seat gone.
    people = [make_player() for _ in range(2)]
    game_id = seat_players(people, seats=3)
    read: list[int] = []
    with other_transaction() as other:
        other.execute("SELECT id FROM games_game WHERE id = %s FOR NO KEY UPDATE", [game_id])

        def wait_and_read() -> None:
            try:
                with transaction.atomic():
                    found = sql.locked_table(game_id)
                    assert found is not None
                    read.extend(seat.number for seat in found[1])
            finally:
                connection.close()

        reader = threading.Thread(target=wait_and_read)
        reader.start()
        reader.join(0.5)
        assert reader.is_alive(), "the read did not wait for the lock"
        other.execute(
            "DELETE FROM games_seat WHERE game_id = %s AND user_id = %s",
            [game_id, people[1].user_id],
        )
        other.commit()
        reader.join(10)
    assert not reader.is_alive() and read == [0]
