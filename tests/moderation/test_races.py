"""Moderation never races a move: a suspension that waits on a move's lock leaves the next
player's clock alone. Needs PostgreSQL (row locks)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.services import moves
from moderation import services as moderation
from tests.games.helpers import choose_move, game_row, race, register_player, seat_players
from tests.moderation.helpers import user_of


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_suspension_waiting_on_a_move_never_expedites_the_next_players_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    people = [register_player(f"racer{i}") for i in range(3)]
    game_id = seat_players(people)
    game = game_row(game_id)
    mover = people[game.to_act or 0]
    view = mover.view(game_id)
    holding = threading.Event()
    real_record = moves._record

    def slow_record(*args: Any, **kwargs: Any) -> Any:
        # The move holds the game's lock while the suspension arrives.
        holding.set()
        time.sleep(0.5)
        return real_record(*args, **kwargs)

    monkeypatch.setattr(moves, "_record", slow_record)

    def move() -> int:
        response = mover.move(game_id, {**choose_move(view["legal"], None), "seq": view["seq"]})
        return response.status_code

    def suspend() -> None:
        assert holding.wait(timeout=10)
        moderation.user_suspend(
            moderator=None,
            user=user_of(mover),
            reason="abuse",
            until=timezone.now() + timedelta(days=1),
        )

    statuses = race([move, suspend])

    assert statuses[0] == 200
    game = game_row(game_id)
    assert game.to_act is not None and people[game.to_act] is not mover
    # The next player keeps their whole turn (R16): nothing made it due at once.
    assert game.deadline is not None
    assert game.deadline > timezone.now() + timedelta(seconds=game.turn_seconds - 5)
