"""Writes to one game are serialised (the game row is locked): two requests for the same turn
or the same last seat never both apply, and event seqs stay gapless. Needs PostgreSQL."""

from __future__ import annotations

from functools import partial

import pytest
from rest_framework.test import APIClient

from core.limits import CHAT_RATE_COUNT
from games.models import ChatMessage
from games.models import Event as EventRow
from tests.games.helpers import Player, game_row, race, register_player, seat_players

ROUNDS = 20


def twin(player: Player) -> Player:
    """The same user behind a second, independent API client (a second device)."""
    other = APIClient(raise_request_exception=False)
    other.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    return Player(player.username, player.user_id, player.token, other)


def assert_gapless(game_id: int) -> None:
    game = game_row(game_id)
    seqs = list(
        EventRow.objects.filter(game_id=game_id).order_by("seq").values_list("seq", flat=True)
    )
    assert seqs == list(range(1, len(seqs) + 1))
    assert game.seq == seqs[-1]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_moves_for_the_same_turn_apply_exactly_once() -> None:
    people = [register_player(f"racer{i}") for i in range(3)]
    game_id = seat_players(people)
    for attempt in range(ROUNDS):
        seat = game_row(game_id).to_act
        assert seat is not None
        view = people[seat].view(game_id)
        ((kind, options),) = view["legal"].items()
        move_type, field = {"bids": ("bid", "bid"), "cards": ("play", "card")}.get(
            kind, ("trump", "suit")
        )
        calls = [
            partial(device.move, game_id, {"type": move_type, field: choice, "seq": view["seq"]})
            for device, choice in [
                (twin(people[seat]), options[0]),
                (twin(people[seat]), options[-1]),
            ]
        ]
        out = [(response.status_code, response.json()) for response in race(calls)]
        assert sorted(status for status, _ in out) == [200, 409], (attempt, out)
        refused = next(body for status, body in out if status == 409)
        assert refused["error"]["code"] in {"stale_state", "not_your_turn"}, refused
        applied = next(body for status, body in out if status == 200)
        assert game_row(game_id).seq == applied["seq"] > view["seq"]
        assert_gapless(game_id)
        # Exactly one decision of that seat was recorded for the turn, right after view["seq"].
        decisions = EventRow.objects.filter(
            game_id=game_id, seq__gt=view["seq"], seat=seat, auto=False
        )
        assert list(decisions.values_list("seq", flat=True)) == [view["seq"] + 1]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_racing_for_the_last_seat_start_the_game_once() -> None:
    creator = register_player("host")
    for attempt in range(10):
        game_id = seat_players([creator], seats=3)
        assert register_player(f"early{attempt}").join(game_id).status_code == 200
        racers = [twin(register_player(f"late{attempt}-{i}")) for i in range(2)]
        responses = race([partial(racer.join, game_id) for racer in racers])
        assert sorted(r.status_code for r in responses) == [200, 409], attempt
        refused = next(r for r in responses if r.status_code == 409)
        assert refused.json()["error"]["code"] == "game_full"
        game = game_row(game_id)
        assert game.status == "active" and game.seat_set.count() == 3
        assert EventRow.objects.filter(game_id=game_id, type="game_started").count() == 1
        assert_gapless(game_id)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_parallel_chat_posts_never_pass_the_flood_limit() -> None:
    people = [register_player(f"talker{i}") for i in range(3)]
    game_id = seat_players(people)
    devices = [twin(people[0]) for _ in range(2 * CHAT_RATE_COUNT)]
    url = f"/api/v1/games/{game_id}/chat/"

    responses = race(
        [partial(device.client.post, url, {"text": "hi"}, format="json") for device in devices]
    )

    statuses = sorted(response.status_code for response in responses)
    assert statuses == [201] * CHAT_RATE_COUNT + [429] * CHAT_RATE_COUNT
    assert ChatMessage.objects.filter(game_id=game_id).count() == CHAT_RATE_COUNT
