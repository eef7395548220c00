"""A finished game of two people and a bot, of R19's first four rounds, played through the
services (first legal move)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from games import engine, services
from games.models import Seat
from tests.games.helpers import Player, choose_move, game_row, seat_players


@dataclass
class Finished:
    game_id: int
    people: list[Player]  # seat i holds people[i]; the last seat is a bot


def play_until(game_id: int, done: Callable[[engine.State], bool]) -> None:
    """First-legal moves of the people to act, until `done(state)` (bots move in their tasks)."""
    users = {s.number: s.user for s in Seat.objects.filter(game_id=game_id, user__isnull=False)}
    while True:
        state = game_row(game_id).engine_state()
        assert state is not None
        if state.is_over or done(state):
            return
        move = choose_move(engine.legal_for(state, state.to_act) or {}, None)
        services.move_apply(game_id=game_id, user=users[state.to_act], body=move)


@pytest.fixture
def finished(make_player: Callable[..., Player]) -> Finished:
    people = [make_player(), make_player()]
    game_id = seat_players(people, bots=1, blind_first_round=False, rounds=4)  # R19
    play_until(game_id, lambda state: False)
    assert game_row(game_id).status == "finished"
    return Finished(game_id, people)
