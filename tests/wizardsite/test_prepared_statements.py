"""On PostgreSQL the move path's queries become prepared statements on their pooled connection
(server-side binding, psycopg's prepare_threshold): parsed and planned once, not every move."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection, transaction

from games import sql
from games.models import Game
from tests.games.helpers import Player, seat_players


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_locked_game_read_is_prepared_after_a_few_runs(
    make_player: Callable[..., Player],
) -> None:
    game_id = seat_players([make_player() for _ in range(3)], blind_first_round=False)
    for _ in range(6):
        with transaction.atomic():
            found = sql.locked_table(game_id)
            assert found is not None and found[0].pk == game_id
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any(f"FROM {Game._meta.db_table} g" in text for text in prepared), prepared
