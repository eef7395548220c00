"""R16 through the API: an expired turn is played for the seat by the timer, or by the next
move that finds it, and a late move never sneaks in after it; looking changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from games import services
from games.models import Event as EventRow
from games.models import Game
from tests.games.helpers import Player, assert_error, game_row, seat_players


def expire_turn(game_id: int) -> None:
    Game.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(seconds=1))


def started_in_bidding(make_player: Callable[..., Player]) -> tuple[int, list[Player]]:
    people = [make_player() for _ in range(3)]
    game_id = seat_players(people, blind_first_round=False)
    view = people[0].view(game_id)
    if view["round"]["phase"] == "choosing_trump":  # a Wizard was turned up (R5)
        dealer = people[view["round"]["dealer"]]
        assert dealer.move(game_id, {"type": "trump", "suit": "green"}).status_code == 200
    return game_id, people


def test_an_expired_bid_is_made_for_the_seat_when_the_timer_runs_not_when_anyone_looks(
    make_player: Callable[..., Player], stranger: Player
) -> None:
    game_id, people = started_in_bidding(make_player)
    before = game_row(game_id)
    late = before.to_act
    assert late is not None and before.deadline is not None
    expire_turn(game_id)
    assert stranger.view(game_id)["seq"] == before.seq  # a read never writes
    services.turns_expire()
    view = stranger.view(game_id)
    assert view["seq"] == before.seq + 1  # one auto-move; the next turn's clock runs from it
    auto = EventRow.objects.get(game_id=game_id, seq=before.seq + 1)
    assert (auto.type, auto.seat, auto.auto, auto.payload["bid"]) == ("bid", late, True, 0)
    assert view["to_act"] == (late + 1) % 3
    after = game_row(game_id)
    assert after.deadline is not None and after.deadline > timezone.now()
    # The late player's own move now comes too late.
    body = {"type": "bid", "bid": 1}
    assert_error(people[late].move(game_id, {**body, "seq": before.seq}), 409, "stale_state")
    assert_error(people[late].move(game_id, body), 409, "not_your_turn")
    assert game_row(game_id).seq == before.seq + 1


def test_a_late_move_is_refused_and_the_auto_move_stands(
    make_player: Callable[..., Player],
) -> None:
    game_id, people = started_in_bidding(make_player)
    before = game_row(game_id)
    late = before.to_act
    assert late is not None
    expire_turn(game_id)
    response = people[late].move(game_id, {"type": "bid", "bid": 1, "seq": before.seq})
    assert response.status_code == 409
    assert response.json()["error"]["code"] in {"stale_state", "not_your_turn"}
    events = people[late].events(game_id, after=before.seq)
    assert events[0]["seat"] == late and events[0]["auto"] is True
    assert events[0]["payload"]["bid"] == 0  # R16, not the late player's 1
    assert not any(e["type"] == "bid" and not e["auto"] and e["seat"] == late for e in events)
