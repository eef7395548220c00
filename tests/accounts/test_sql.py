"""accounts.sql: the token lookup's literal SQL gives the token and user the ORM gives, field for
field, and their standing; its column lists follow the models."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import Suspension
from accounts.sql import (
    SUSPENSION_COLUMNS,
    TOKEN,
    TOKEN_WITH_STANDING,
    USER,
    barred,
    token_with_standing,
)
from tests.accounts.model_rows import assert_model_row, loaded, selected
from tests.games.helpers import Player


def test_the_token_and_its_user_are_what_the_orm_reads(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    User.objects.filter(pk=player.user_id).update(last_login=timezone.now())

    found = token_with_standing(player.token)

    assert found is not None
    token, user, is_barred = found
    expected = Token.objects.select_related("user").get(key=player.token)
    assert loaded(token) == loaded(expected)
    assert loaded(user) == loaded(expected.user)
    assert token.user is user
    assert is_barred is False


def test_a_suspended_users_token_is_found_barred(make_player: Callable[..., Player]) -> None:
    player = make_player()
    Suspension.objects.create(
        user_id=player.user_id, until=timezone.now() + timedelta(hours=1), reason="rude"
    )
    found = token_with_standing(player.token)
    assert found is not None and found[2] is True


def test_an_unknown_key_finds_nothing(db: None) -> None:
    assert token_with_standing("0" * 40) is None


def test_a_suspension_is_in_force_while_it_runs_and_a_ban_for_good() -> None:
    now = timezone.now()
    assert barred(None, None) is False  # no suspension row
    assert barred(True, None) is True
    assert barred(False, now + timedelta(minutes=1)) is True
    assert barred(False, now - timedelta(minutes=1)) is False
    assert barred(False, (now + timedelta(minutes=1)).replace(tzinfo=None)) is True  # SQLite's


def test_the_literal_columns_are_the_models_columns() -> None:
    # A column added to, removed from or moved in one of these models fails here until the
    # literal SQL follows it.
    assert_model_row(USER)
    assert_model_row(TOKEN)
    suspension_columns = {f.column for f in Suspension._meta.concrete_fields}
    assert set(SUSPENSION_COLUMNS) <= suspension_columns
    assert selected(TOKEN_WITH_STANDING) == [
        ("t", list(TOKEN.columns)),
        ("u", list(USER.columns)),
        ("x", list(SUSPENSION_COLUMNS)),
    ]
