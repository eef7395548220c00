"""A suspended or banned player is shut out at every door at once — log-in, the session they
already have, their API token, the services — and their seat never blocks a running table:
it is away (R18) and its pending turn is made without waiting. Lifting the suspension restores
everything; the seat is back once its player says so."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import Suspension
from core.errors import Suspended
from games import services
from games.models import Event as EventRow
from games.models import Game, Seat
from moderation import services as moderation
from tests.games.helpers import (
    API,
    PASSWORD,
    Player,
    assert_error,
    choose_move,
    create_game,
    game_url,
    seat_players,
)
from tests.moderation.helpers import user_of

pytestmark = pytest.mark.django_db

KINDS = ["suspended", "banned"]


def suspend(player: Player, kind: str, moderator: User | None = None) -> None:
    until = None if kind == "banned" else timezone.now() + timedelta(days=3)
    moderation.user_suspend(
        moderator=moderator,
        user=user_of(player),
        reason="abuse",
        until=until,
        banned=kind == "banned",
    )


def lift(player: Player) -> None:
    moderation.user_unsuspend(moderator=None, user=user_of(player), reason="appeal")


def log_in(client: Client, player: Player) -> bool:
    """Submit the log-in form; True when it signed the player in."""
    response = client.post("/accounts/login/", {"username": player.username, "password": PASSWORD})
    signed_in = client.session.get("_auth_user_id") == str(player.user_id)
    assert response.status_code == (302 if signed_in else 200)
    return signed_in


def move_by_whoever_acts(players: list[Player], game_id: int) -> dict[str, Any]:
    """The seat to act makes its first legal move through REST; returns the answer, the game
    as that move left it."""
    seat = Game.objects.get(pk=game_id).to_act
    assert seat is not None
    mine = players[seat].view(game_id)
    response = players[seat].move(game_id, {**choose_move(mine["legal"], None), "seq": mine["seq"]})
    assert response.status_code == 200, response.content
    answer: dict[str, Any] = json.loads(response.content)
    return answer


# -- doors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_the_log_in_form_refuses_a_suspended_player_until_the_suspension_is_lifted(
    kind: str, make_player: Callable[..., Player]
) -> None:
    player, bystander = make_player(), make_player()
    suspend(player, kind)

    assert not log_in(Client(), player)
    assert log_in(Client(), bystander)
    response = APIClient().post(
        f"{API}/accounts/token/",
        {"username": player.username, "password": PASSWORD},
        format="json",
    )
    assert_error(response, 403, "suspended")  # the right password: told why, no token

    lift(player)

    assert log_in(Client(), player)
    response = APIClient().post(
        f"{API}/accounts/token/",
        {"username": player.username, "password": PASSWORD},
        format="json",
    )
    assert response.status_code == 200 and response.json()["token"] == player.token


def test_a_suspension_that_has_ended_shuts_nothing(make_player: Callable[..., Player]) -> None:
    player = make_player()
    Suspension.objects.create(
        user_id=player.user_id, until=timezone.now() - timedelta(minutes=1), reason="served"
    )
    assert log_in(Client(), player)
    assert player.client.get(f"{API}/accounts/me/").status_code == 200
    assert services.game_create(user=user_of(player), seats=3).game.pk


@pytest.mark.parametrize("kind", KINDS)
def test_a_session_already_open_stops_working_at_the_next_request(
    kind: str, make_player: Callable[..., Player]
) -> None:
    player = make_player()
    browser = Client()
    browser.force_login(user_of(player))
    api = APIClient()  # a second browser, using the API with its session cookie
    api.force_login(user_of(player))
    assert browser.get("/games/mine/").status_code == 200
    assert api.get(f"{API}/accounts/me/").status_code == 200

    suspend(player, kind)

    response = browser.get("/games/mine/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert_error(api.get(f"{API}/accounts/me/"), 401, "not_authenticated")
    assert_error(api.post(f"{API}/games/", {"seats": 3}, format="json"), 401, "not_authenticated")


def test_the_suspended_players_session_is_ended_not_just_ignored(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    browser = Client()
    browser.force_login(user_of(player))
    suspend(player, "suspended")
    assert browser.get("/games/mine/").status_code == 302

    lift(player)

    assert "_auth_user_id" not in browser.session
    assert browser.get("/games/mine/").status_code == 302  # they log in again


@pytest.mark.parametrize("kind", KINDS)
def test_a_suspended_players_token_answers_403_suspended_until_lifted(
    kind: str, running: Game, players: list[Player]
) -> None:
    player = players[1]
    suspend(player, kind)

    error = assert_error(player.client.get(f"{API}/accounts/me/"), 403, "suspended")
    assert ("banned" if kind == "banned" else "suspended until") in error["message"]
    assert_error(player.client.get(game_url(running.pk)), 403, "suspended")
    assert_error(player.client.post(f"{API}/games/", {"seats": 3}, format="json"), 403, "suspended")
    assert_error(player.move(running.pk, {"type": "bid", "bid": 0}), 403, "suspended")
    assert players[0].client.get(f"{API}/accounts/me/").status_code == 200

    lift(player)

    assert player.client.get(f"{API}/accounts/me/").json()["username"] == player.username
    assert create_game(player, seats=3)["you"] == 0


@pytest.mark.parametrize("kind", KINDS)
def test_the_services_refuse_a_suspended_player_to_create_join_or_move(
    kind: str, running: Game, players: list[Player], make_player: Callable[..., Player]
) -> None:
    seat = running.to_act
    assert seat is not None
    mover = players[seat]
    newcomer = make_player()
    # At a table of someone else's: a suspended player leaves the tables they sit at.
    open_table = services.game_create(user=user_of(players[(seat + 1) % 3]), seats=4).game
    move = choose_move(mover.view(running.pk)["legal"], None)
    suspend(mover, kind)  # their pending turn is played for them at once (R16)
    suspend(newcomer, kind)
    games_before = Game.objects.count()
    seq = Game.objects.get(pk=running.pk).seq

    with pytest.raises(Suspended) as created:
        services.game_create(user=user_of(newcomer), seats=3)
    with pytest.raises(Suspended) as joined:
        services.game_join(game_id=open_table.pk, user=user_of(newcomer))
    with pytest.raises(Suspended) as moved:
        services.move_apply(game_id=running.pk, user=user_of(mover), body=move)

    for refusal in (created, joined, moved):
        assert refusal.value.code == "suspended"
    assert Game.objects.count() == games_before
    assert open_table.seat_set.count() == 1
    assert Game.objects.get(pk=running.pk).seq == seq

    lift(newcomer)
    lift(mover)

    joined_table = services.game_join(game_id=open_table.pk, user=user_of(newcomer)).game
    assert joined_table.seat_set.count() == 2
    services.turns_expire()  # the turn that fell due while they were suspended
    for _ in range(6):
        if Game.objects.get(pk=running.pk).to_act == seat:
            break
        move_by_whoever_acts(players, running.pk)
    move = choose_move(mover.view(running.pk)["legal"], None)
    outcome = services.move_apply(game_id=running.pk, user=user_of(mover), body=move)
    assert outcome.game.to_act != seat


# -- the seat of a suspended player at a running table ---------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_the_pending_turn_of_a_suspended_player_is_made_at_once_by_the_bot_for_their_seat(
    kind: str, running: Game, players: list[Player]
) -> None:
    seat = running.to_act
    assert seat is not None and running.deadline is not None
    assert running.deadline > timezone.now() + timedelta(seconds=30)  # a normal 60 s turn

    suspend(players[seat], kind)  # sends the timer's task for the turn, due now (eager here)

    game = Game.objects.get(pk=running.pk)
    row = EventRow.objects.get(game=game, seq=running.seq + 1)
    assert row.seat == seat and row.auto
    # R18: the seat is away, so the medium bot made that decision (not R16's fixed choice).
    assert Seat.objects.get(game=game, number=seat).away
    assert game.to_act != seat
    assert game.deadline is not None
    assert game.deadline > timezone.now() + timedelta(seconds=30)  # the next player waits normally


def test_a_suspended_players_later_turns_are_due_the_moment_they_start(
    players: list[Player],
) -> None:
    game_id = seat_players(players, blind_first_round=False)
    first = Game.objects.get(pk=game_id).to_act
    assert first is not None
    target = (first + 1) % 3
    suspend(players[target], "suspended")
    game = Game.objects.get(pk=game_id)
    assert game.deadline is not None and game.deadline > timezone.now()  # not their turn yet

    for _ in range(3):  # the turn comes round to them (after a trump choice, at the latest)
        started = move_by_whoever_acts(players, game_id)
        if started["to_act"] == target:
            break

    # The game as the move that started their turn left it: that turn is due at once.
    assert started["to_act"] == target
    assert datetime.fromisoformat(started["deadline"]) <= timezone.now()
    # That move sent the turn's timer task (eager in tests), which auto-moved it (R16).
    row = EventRow.objects.get(game_id=game_id, seq=started["seq"] + 1)
    assert row.seat == target and row.auto
    assert Game.objects.get(pk=game_id).to_act != target
    assert services.turns_expire() == 0  # nothing was left for the sweep


def test_only_the_games_where_the_suspended_player_is_to_act_are_hurried(
    running: Game, players: list[Player]
) -> None:
    seat = running.to_act
    assert seat is not None
    for _ in range(20):  # another table of the same players where someone else acts first
        waiting = Game.objects.get(pk=seat_players(players, blind_first_round=False))
        if waiting.to_act != seat:
            break
    else:
        pytest.fail("every deal started with the same seat")
    assert waiting.deadline is not None

    suspend(players[seat], "banned")

    # Their turn was played for them at once (the timer's task, eager here); the other table,
    # where someone else acts, keeps its clock and its state.
    row = EventRow.objects.get(game_id=running.pk, seq=running.seq + 1)
    assert row.seat == seat and row.auto
    still = Game.objects.get(pk=waiting.pk)
    assert still.deadline == waiting.deadline and still.seq == waiting.seq


def test_a_suspended_player_is_away_and_after_the_lift_back_with_the_full_time(
    running: Game, players: list[Player]
) -> None:
    seat = running.to_act
    assert seat is not None
    target = (seat + 1) % 3
    suspend(players[target], "suspended")
    # R18: away at once, so the bot plays their seat; the lift leaves it so until they say back.
    assert Seat.objects.get(game=running, number=target).away
    lift(players[target])
    assert Seat.objects.get(game=running, number=target).away
    response = players[target].client.post(f"{API}/games/{running.pk}/back/", {}, format="json")
    assert response.status_code == 200, response.content
    assert not Seat.objects.get(game=running, number=target).away

    for _ in range(3):
        if Game.objects.get(pk=running.pk).to_act == target:
            break
        move_by_whoever_acts(players, running.pk)
    game = Game.objects.get(pk=running.pk)

    assert game.to_act == target
    assert game.deadline is not None
    assert game.deadline > timezone.now() + timedelta(seconds=30)
    assert move_by_whoever_acts(players, running.pk)["you"] == target
