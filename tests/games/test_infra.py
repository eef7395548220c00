"""games.infra: the move's one read (the game row locked with its seats and their standing)
gives what the ORM gives, seat for seat, with a suspension in force seen as barred and a bot
seat without a user; its one write stores what the ORM would; Django's pin holds."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from datetime import timedelta

import django
from django.db import transaction
from django.utils import timezone

from accounts.infra import DJANGO_PIN
from accounts.models import Suspension
from games import infra
from games.models import Game, Seat
from tests.games.helpers import Player, seat_players


def as_orm(seat: Seat) -> tuple[object, ...]:
    return (seat.pk, seat.number, seat.user_id, seat.bot_kind, seat.away, seat.expiries)


def test_the_locked_table_is_the_game_and_its_seats_in_order_with_their_standing(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(2)]
    game_id = seat_players(people, seats=4, bots=1)
    Suspension.objects.create(
        user_id=people[1].user_id, until=timezone.now() + timedelta(days=1), reason="rude"
    )

    with transaction.atomic():
        found = infra.locked_table(game_id)
    assert found is not None
    game, seats, barred = found

    expected = Game.objects.get(pk=game_id)
    assert (game.pk, game.seq, game.state, game.created_by.username) == (
        expected.pk,
        expected.seq,
        expected.state,
        expected.created_by.username,
    )
    orm_seats = list(Seat.objects.filter(game_id=game_id).order_by("number"))
    assert [as_orm(seat) for seat in seats] == [as_orm(seat) for seat in orm_seats]
    assert [seat.user.username if seat.user else None for seat in seats] == [
        seat.user.username if seat.user else None for seat in orm_seats
    ]
    numbers = {seat.user_id: seat.number for seat in seats}
    assert barred == {numbers[people[1].user_id]}
    assert any(seat.user_id is None for seat in seats)  # the bot's seat is read too


def test_no_game_gives_none(db: None) -> None:
    with transaction.atomic():
        assert infra.locked_table(10**12) is None
        assert infra.locked_table(2**70) is None  # an id no column can hold


def test_django_is_the_version_the_hand_written_sql_was_measured_and_checked_on() -> None:
    # accounts.infra and games.infra build instances from rows as Django 5.2 does: a new
    # Django is measured (bench/live.py) and checked again (this module) before the pin moves.
    assert django.VERSION[:2] == DJANGO_PIN


def test_channels_redis_is_the_version_publish_many_was_checked_on() -> None:
    # games.infra.publish_many names group channels and encodes messages as channels_redis 4.3
    # does (tests/live/test_redis.py checks it on Redis): check a new one before the pin moves.
    version = importlib.metadata.version("channels-redis")
    assert tuple(int(part) for part in version.split(".")[:2]) == infra.CHANNELS_REDIS_PIN
