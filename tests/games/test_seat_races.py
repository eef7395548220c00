"""Seats change under the game's lock, read after the lock is taken: a leave, a join and a
repeated join racing each other never leave a running game with an empty seat, never take one
seat twice, and never answer 500. Real concurrent requests on PostgreSQL, 100 trials each."""

from __future__ import annotations

from functools import partial

import pytest

from games.models import GameStatus
from tests.games.helpers import game_row, race, register_player, seat_players
from tests.games.test_concurrency import twin

TRIALS = 100


def seat_numbers(game_id: int) -> list[int]:
    return list(game_row(game_id).seat_set.order_by("number").values_list("number", flat=True))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_leave_racing_the_last_join_never_starts_a_game_with_an_empty_seat() -> None:
    host = register_player("host")
    for trial in range(TRIALS):
        game_id = seat_players([host], seats=3)
        leaver = twin(register_player(f"leaver{trial}"))
        assert leaver.join(game_id).status_code == 200
        joiner = twin(register_player(f"joiner{trial}"))

        left, joined = race([partial(leaver.leave, game_id), partial(joiner.join, game_id)])

        assert joined.status_code == 200, (trial, joined.content)
        game = game_row(game_id)
        if game.status == GameStatus.ACTIVE:  # the join came first and filled the table
            assert left.status_code == 409, (trial, left.content)
            assert left.json()["error"]["code"] == "game_not_active"
            assert seat_numbers(game_id) == [0, 1, 2], trial
        else:  # the leave came first: the joiner took the seat it freed
            assert left.status_code == 200, (trial, left.content)
            assert game.status == GameStatus.OPEN, trial
            assert seat_numbers(game_id) == [0, 1], trial
            assert joiner.view(game_id)["you"] == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_joins_racing_for_a_table_that_does_not_fill_each_take_a_seat_of_their_own() -> None:
    host = register_player("host")
    for trial in range(TRIALS):
        game_id = seat_players([host], seats=5)
        joiners = [twin(register_player(f"joiner{trial}-{i}")) for i in range(3)]

        responses = race([partial(joiner.join, game_id) for joiner in joiners])

        assert [r.status_code for r in responses] == [200] * 3, (trial, responses)
        assert sorted(r.json()["you"] for r in responses) == [1, 2, 3], trial
        assert seat_numbers(game_id) == [0, 1, 2, 3], trial
        assert game_row(game_id).status == GameStatus.OPEN


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_one_join_sent_four_times_at_once_seats_its_player_once() -> None:
    host = register_player("host")
    for trial in range(TRIALS):
        game_id = seat_players([host], seats=4)
        joiner = register_player(f"joiner{trial}")
        devices = [twin(joiner) for _ in range(4)]

        responses = race([partial(device.join, game_id) for device in devices])

        assert [r.status_code for r in responses] == [200] * 4, (trial, responses)
        assert {r.json()["you"] for r in responses} == {1}, trial
        assert seat_numbers(game_id) == [0, 1], trial
