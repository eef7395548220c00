"""R18 on the timer's clock: two expired decisions in a row make a player away, their later
decisions are made after at most 5 s, and a decision of their own or saying so brings them
back. A resigned seat stays away; the league still counts the game (R17)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import services
from games.models import Game, GameStatus, Seat
from league import services as league_services
from league.models import RatingChange
from tests.games.helpers import (
    Player,
    assert_error,
    choose_move,
    game_row,
    game_url,
    seat_players,
    services_clock_at,
)
from tests.league.helpers import timer_plays

LIMITS = [20, 24 * 3600]  # a quick table and a correspondence table
AWAY_SECONDS = 5


def sweep_at(game_id: int, moment: datetime) -> Game:
    """The timer's sweep runs with its clock at `moment` (R16); the game after it."""
    with services_clock_at(moment):
        services.turns_expire()
    return game_row(game_id)


def expire_next(game_id: int) -> tuple[int, datetime]:
    """Let the running turn run out: the seat that timed out and when its turn ended."""
    game = game_row(game_id)
    assert game.to_act is not None and game.deadline is not None
    seat, deadline = game.to_act, game.deadline
    after = sweep_at(game_id, deadline)
    assert after.seq > game.seq and after.deadline is not None and after.deadline > deadline
    return seat, deadline


def seat_row(game_id: int, number: int) -> Seat:
    return Seat.objects.get(game_id=game_id, number=number)


def away_in_view(player: Player, game_id: int) -> list[bool]:
    return [entry["away"] for entry in player.view(game_id)["players"]]


def table(
    make_player: Callable[..., Player], turn_seconds: int, rounds: str | int = "full"
) -> tuple[int, list[Player]]:
    people = [make_player() for _ in range(3)]
    options = {"turn_seconds": turn_seconds, "blind_first_round": False, "rounds": rounds}
    return seat_players(people, **options), people


def make_away(game_id: int) -> int:
    """Expire turns until some seat has let two in a row run out; that seat."""
    for _ in range(10):
        seat, _ = expire_next(game_id)
        if seat_row(game_id, seat).away:
            return seat
    raise AssertionError("nobody became away")


def my_move(player: Player, game_id: int) -> dict[str, object]:
    mine = player.view(game_id)
    assert mine["to_act"] == mine["you"], mine
    response = player.move(game_id, {**choose_move(mine["legal"], None), "seq": mine["seq"]})
    assert response.status_code == 200, response.content
    view: dict[str, object] = response.json()
    return view


def until_turn_of(game_id: int, seat: int) -> datetime:
    """Expire other seats' turns until `seat` is to act; when that turn started."""
    started = timezone.now()
    for _ in range(12):
        if game_row(game_id).to_act == seat:
            return started
        _, started = expire_next(game_id)
    raise AssertionError(f"seat {seat} never got the turn")


def turn_length(game_id: int, started: datetime) -> timedelta:
    deadline = game_row(game_id).deadline
    assert deadline is not None
    return deadline - started


@pytest.mark.parametrize("limit", LIMITS)
def test_two_expiries_in_a_row_make_a_player_away_and_later_turns_last_5_seconds(
    make_player: Callable[..., Player], limit: int
) -> None:
    game_id, people = table(make_player, limit)
    expired: dict[int, int] = {}
    for _ in range(9):
        seat, deadline = expire_next(game_id)
        expired[seat] = expired.get(seat, 0) + 1
        row = seat_row(game_id, seat)
        # Once away, the medium bot decides for them: no more expiries to count (R18).
        assert (row.expiries, row.away) == (min(expired[seat], 2), expired[seat] >= 2)
        assert away_in_view(people[0], game_id)[seat] is row.away
        game = game_row(game_id)
        assert game.to_act is not None and game.deadline is not None
        acting_away = seat_row(game_id, game.to_act).away
        # The next turn starts when this one expired: 5 s if its player is away, else the limit.
        seconds = min(limit, AWAY_SECONDS) if acting_away else limit
        assert game.deadline == deadline + timedelta(seconds=seconds)
    assert any(seat_row(game_id, seat).away for seat in range(3))
    # The game list's summaries show it too.
    listed = people[0].client.get("/api/v1/games/?mine=true").json()["results"][0]["players"]
    assert [entry["away"] for entry in listed] == away_in_view(people[0], game_id)


@pytest.mark.parametrize("limit", LIMITS)
def test_a_decision_of_ones_own_brings_a_player_back_and_resets_the_count(
    make_player: Callable[..., Player], limit: int
) -> None:
    game_id, people = table(make_player, limit)
    seat = make_away(game_id)
    started = until_turn_of(game_id, seat)
    assert turn_length(game_id, started) <= timedelta(seconds=AWAY_SECONDS)
    view = my_move(people[seat], game_id)
    assert [entry["away"] for entry in view["players"]][seat] is False  # type: ignore[index]
    assert (seat_row(game_id, seat).expiries, seat_row(game_id, seat).away) == (0, False)
    # Never away after a move of one's own: one more expiry is one, not two, in a row.
    started = until_turn_of(game_id, seat)
    assert turn_length(game_id, started) >= timedelta(seconds=limit - 1)  # the full limit
    expire_next(game_id)
    assert (seat_row(game_id, seat).expiries, seat_row(game_id, seat).away) == (1, False)


@pytest.mark.parametrize("limit", LIMITS)
def test_saying_back_ends_away_and_the_pending_turn_gets_the_full_limit(
    make_player: Callable[..., Player], limit: int
) -> None:
    game_id, people = table(make_player, limit)
    seat = make_away(game_id)
    until_turn_of(game_id, seat)
    before = timezone.now()
    response = people[seat].client.post(game_url(game_id, "back"))
    assert response.status_code == 200, response.content
    assert [entry["away"] for entry in response.json()["players"]][seat] is False
    row, game = seat_row(game_id, seat), game_row(game_id)
    assert (row.away, row.expiries) == (False, 0)
    assert game.deadline is not None and game.deadline >= before + timedelta(seconds=limit)
    # Saying so again changes nothing.
    again = people[seat].client.post(game_url(game_id, "back"))
    assert again.status_code == 200 and game_row(game_id).deadline == game.deadline


@pytest.mark.parametrize("limit", LIMITS)
def test_a_resigned_seat_stays_away_and_the_league_still_rates_every_player(
    make_player: Callable[..., Player], limit: int
) -> None:
    game_id, people = table(make_player, limit, rounds=5)
    quitter = people[1]
    response = quitter.client.post(game_url(game_id, "resign"))
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "active"
    assert away_in_view(people[0], game_id) == [False, True, False]
    resigned = [entry["resigned"] for entry in people[0].view(game_id)["players"]]
    assert resigned == [False, True, False]
    assert_error(quitter.client.post(game_url(game_id, "back")), 409, "game_not_active")
    started = until_turn_of(game_id, 1)
    assert turn_length(game_id, started) <= timedelta(seconds=AWAY_SECONDS)
    body = {**choose_move(quitter.view(game_id)["legal"], None)}
    assert_error(quitter.move(game_id, body), 409, "game_not_active")
    # Everyone else lets the timer play too: the game ends and counts (R17), each player
    # rated by their final place.
    game = timer_plays(game_id, lambda game: game.status != GameStatus.ACTIVE)
    assert game.status == GameStatus.FINISHED
    assert seat_row(game_id, 1).away and seat_row(game_id, 1).place is not None
    assert league_services.games_rate() == 1
    rated = set(RatingChange.objects.filter(game_id=game_id).values_list("user_id", flat=True))
    assert rated == {player.user_id for player in people}


def test_resigning_alone_with_bots_aborts_the_game(make_player: Callable[..., Player]) -> None:
    solo = make_player()
    created = solo.client.post("/api/v1/games/", {"seats": 3, "bots": 2}, format="json").json()
    response = solo.client.post(game_url(created["id"], "resign"))
    assert response.status_code == 200 and response.json()["status"] == "aborted"
    assert game_row(created["id"]).deadline is None
    assert_error(solo.client.post(game_url(created["id"], "resign")), 409, "game_not_active")


def test_resign_and_back_belong_to_the_table_s_players(
    make_player: Callable[..., Player], stranger: Player
) -> None:
    game_id, _ = table(make_player, 60)
    assert_error(stranger.client.post(game_url(game_id, "resign")), 403, "not_a_player")
    assert_error(stranger.client.post(game_url(game_id, "back")), 403, "not_a_player")
    assert User.objects.count() == 4
