"""A move costs 5 queries on PostgreSQL, early or late in a game, pushes to every socket
included: the token with its user, the caller's standing, the game row locked, then (once the
lock is held, so no seat is read from before a wait) the game with its seats and their
standing, then the new event rows and the game row in one statement (no replay, no query per
event or per seat). SQLite takes no row lock (its write transaction holds the database) and
writes in two statements: 5 there too."""

from __future__ import annotations

from collections.abc import Callable
from unittest import mock

from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from games import engine, services, tasks
from games.models import Seat
from notifications import tasks as notification_tasks
from review import tasks as review_tasks
from tests.games.helpers import Player, choose_move, game_row, seat_players


def max_queries() -> int:
    return 5


def advance_until(game_id: int, done: Callable[[engine.State], bool]) -> engine.State:
    """First-legal moves through the service until `done(state)`; returns that state."""
    users = {seat.number: seat.user for seat in Seat.objects.filter(game_id=game_id)}
    while True:
        state = game_row(game_id).engine_state()
        assert state is not None and not state.is_over
        if done(state):
            return state
        move = choose_move(engine.legal_for(state, state.to_act) or {}, None)
        services.move_apply(game_id=game_id, user=users[state.to_act], body=move)


def counted_move(game_id: int, player: Player) -> int:
    """The queries of one HTTP move by `player` (the first legal card), its pushes after the
    commit included; the deadline's task, the turn's notice and a finished game's review run
    later, in the worker. The test's own savepoints (the test runs in a transaction; a
    request would begin and commit one) are not counted."""
    view = player.view(game_id)
    body = {**choose_move(view["legal"], None), "seq": view["seq"]}
    with (
        mock.patch.object(tasks.turn_expire, "apply_async"),
        mock.patch.object(review_tasks.review_game, "delay"),
        mock.patch.object(notification_tasks.turn_notify, "apply_async"),
        TestCase.captureOnCommitCallbacks(execute=True),
        CaptureQueriesContext(connection) as queries,
    ):
        response = player.move(game_id, body)
    assert response.status_code == 200, response.content
    return sum("SAVEPOINT" not in query["sql"] for query in queries)


def test_a_move_costs_the_same_few_queries_at_the_first_and_the_last_trick(
    make_player: Callable[..., Player],
) -> None:
    people = [make_player() for _ in range(6)]
    game_id = seat_players(people, blind_first_round=False)
    rounds = 60 // 6

    def leading(state: engine.State) -> bool:
        return state.phase == "playing" and not state.trick

    state = advance_until(game_id, leading)
    assert state.round == 1 and sum(state.tricks_won) == 0  # the game's first trick
    first = counted_move(game_id, people[state.to_act])

    state = advance_until(
        game_id, lambda s: leading(s) and s.round == rounds and sum(s.tricks_won) == rounds - 1
    )
    last = counted_move(game_id, people[state.to_act])  # the game's last trick
    assert first == last == max_queries(), (first, last)

    # The move that ends the game also records the places (the league rates it later, in a
    # task): a fixed number of queries more, whatever the length of the game.
    state = advance_until(game_id, lambda s: len(s.trick) == 5)
    final = counted_move(game_id, people[state.to_act])
    assert game_row(game_id).status == "finished"
    assert final <= max_queries() + 3, final


def _queries_for(player: Player, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = player.client.get(url)
    assert response.status_code == 200, response.content
    return len(queries)


def test_lists_cost_no_query_per_item(make_player: Callable[..., Player]) -> None:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, blind_first_round=False)
    seat_players([people[0]], seats=4)
    lobby = _queries_for(people[0], "/api/v1/games/")
    events = _queries_for(people[0], f"/api/v1/games/{game_id}/events/?after=0&page_size=1000")
    advance_until(game_id, lambda s: s.round == 3)
    for _ in range(4):
        seat_players([people[1]], seats=5, bots=1)
    assert _queries_for(people[0], "/api/v1/games/") == lobby
    assert _queries_for(people[2], f"/api/v1/games/{game_id}/events/?page_size=1000") == events
