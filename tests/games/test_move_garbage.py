"""A move leaves nothing for the cyclic garbage collector: its game, seats and engine states are
freed by their reference counts as soon as it is done (a cycle among them made every move's
objects wait for a collection, and collections of that size paused the web process for tens
of milliseconds in the middle of moves)."""

from __future__ import annotations

import gc
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User

from games import selectors, services
from games.engine import State
from games.models import Game, Seat
from tests.games.helpers import choose_move, register_player, seat_players

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def saving_garbage() -> Iterator[None]:
    """No automatic collection meanwhile: everything a move allocates stays in the youngest
    generation, where a collection of that generation alone finds any cycle among it (a full
    collection of the test process's heap, twice a move, took most of a minute)."""
    gc.collect()
    gc.garbage.clear()
    gc.disable()
    yield
    gc.set_debug(0)
    gc.garbage.clear()
    gc.enable()


def test_a_move_leaves_no_cycles_of_games_seats_or_states(saving_garbage: None) -> None:
    people = [register_player(f"cycles{i}") for i in range(4)]
    game_id = seat_players(people, seats=4, blind_first_round=False)
    users = {person.user_id: User.objects.get(pk=person.user_id) for person in people}
    rng = random.Random(7)
    left: Counter[str] = Counter()
    for _ in range(30):  # bids and plays, a trick won among them
        mover = _mover(game_id, users)
        body = choose_move(selectors.game_view(selectors.game_get(game_id), mover)["legal"], rng)
        gc.collect(0)  # what came before the move: freed, or moved to an older generation
        gc.garbage.clear()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept here, to be counted
        services.move_apply(game_id=game_id, user=mover, body=body)
        gc.collect(0)
        gc.set_debug(0)
        left.update(type(found).__name__ for found in gc.garbage if _ours(found))
        gc.garbage.clear()
    assert left == Counter()


def _mover(game_id: int, users: dict[int, User]) -> User:
    game = Game.objects.get(pk=game_id)
    seat = Seat.objects.get(game=game, number=game.to_act)
    assert seat.user_id is not None
    return users[seat.user_id]


def _ours(found: object) -> bool:
    return isinstance(found, Game | Seat | State)
