"""Every limit has one source (core.limits): the API, the lobby form and the browser's copy
all say the same."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import partial
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from core import limits
from games.forms import TableForm
from games.models import Game, GameStatus, Seat
from tests.games.helpers import (
    API,
    Player,
    assert_error,
    create_game,
    race,
    register_player,
    seat_players,
    set_rate,
)
from tests.games.test_concurrency import twin

pytestmark = pytest.mark.django_db


def test_the_page_hands_the_browser_the_same_limits() -> None:
    page = Client().get("/").content.decode()
    found = re.search(r'<script id="limits" type="application/json">(.*?)</script>', page)
    assert found is not None
    assert json.loads(found.group(1)) == limits.for_clients()


def test_the_api_and_the_form_refuse_a_turn_limit_past_the_maximum(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    too_long = limits.MAX_TURN_SECONDS + 1
    response = player.client.post(
        "/api/v1/games/", {"seats": 3, "turn_seconds": too_long}, format="json"
    )
    assert_error(response, 400, "invalid")
    form = TableForm({"seats": 3, "bots": 0, "turn_seconds": too_long, "bot_kind": "heuristic"})
    assert not form.is_valid() and "turn_seconds" in form.errors
    assert create_game(player, seats=3, turn_seconds=limits.MAX_TURN_SECONDS)["turn_seconds"] == (
        limits.MAX_TURN_SECONDS
    )


def test_a_table_may_give_seven_days_a_turn_and_the_lobby_form_takes_it() -> None:
    assert (limits.MIN_TURN_SECONDS, limits.MAX_TURN_SECONDS) == (5, 7 * 24 * 3600)
    form = TableForm({"seats": 3, "bots": 0, "turn_seconds": 604800, "bot_kind": "heuristic"})
    assert form.is_valid(), form.errors


# -- what one user may hold and create (README, Security) --------------------------------------
@pytest.fixture
def per_user_limits(settings: Any) -> Iterator[Any]:
    """Rate limits on, as in production, with small per-user limits and an empty count."""
    settings.RATE_LIMITS_ENABLED = True
    settings.MAX_OPEN_TABLES_PER_USER = 3
    settings.MAX_BOT_GAMES_PER_USER = 2
    cache.clear()
    yield settings
    cache.clear()


def create(player: Player, **options: Any) -> Any:
    return player.client.post(f"{API}/games/", {"seats": 3, **options}, format="json")


def tables_of(player: Player) -> int:
    return Game.objects.filter(created_by_id=player.user_id).count()


def test_creating_tables_past_the_hourly_rate_is_429_with_retry_after(
    per_user_limits: Any, make_player: Callable[..., Player]
) -> None:
    set_rate(per_user_limits, "table_create", "3/hour")
    per_user_limits.MAX_OPEN_TABLES_PER_USER = 0  # no limit on open tables here
    player, other = make_player(), make_player()
    for _ in range(3):
        assert create(player).status_code == 201
    refused = create(player)
    assert_error(refused, 429, "rate_limited")
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert tables_of(player) == 3
    # Reading the list costs nothing, and the count is the creator's own.
    assert all(player.client.get(f"{API}/games/").status_code == 200 for _ in range(5))
    assert create(other).status_code == 201


@pytest.mark.parametrize(
    "refused",
    [{"seats": 9}, {"bots": 3}, {"rounds": 15, "seats": 6}, {"special_cards": ["dragon"]}],
    ids=["seats", "bots", "rounds-for-the-seats", "special-cards"],
)
def test_a_table_refused_for_its_options_is_not_counted_against_the_rate(
    per_user_limits: Any, make_player: Callable[..., Player], refused: dict[str, Any]
) -> None:
    set_rate(per_user_limits, "table_create", "2/hour")
    per_user_limits.MAX_OPEN_TABLES_PER_USER = 0
    player = make_player()
    for _ in range(5):
        assert_error(create(player, **refused), 400, "invalid")
    assert create(player).status_code == 201
    assert create(player).status_code == 201
    assert_error(create(player), 429, "rate_limited")
    assert tables_of(player) == 2


def test_a_tournament_refused_for_its_options_is_not_counted_against_the_rate(
    per_user_limits: Any, make_player: Callable[..., Player]
) -> None:
    set_rate(per_user_limits, "table_create", "1/hour")
    player = make_player()
    starts = (timezone.now() + timedelta(hours=1)).isoformat()
    body = {"name": "Friday", "format": "swiss", "rounds": 3, "starts_at": starts}
    tournaments = f"{API}/tournaments/"
    for _ in range(3):
        bad = player.client.post(tournaments, {**body, "table_size": 9}, format="json")
        assert_error(bad, 400, "invalid")
    assert player.client.post(tournaments, body, format="json").status_code == 201
    assert_error(player.client.post(tournaments, body, format="json"), 429, "rate_limited")


def test_the_lobby_form_shares_the_apis_table_rate(
    per_user_limits: Any, make_player: Callable[..., Player]
) -> None:
    set_rate(per_user_limits, "table_create", "2/hour")
    per_user_limits.MAX_OPEN_TABLES_PER_USER = 0
    player = make_player()
    browser = Client()
    browser.force_login(User.objects.get(pk=player.user_id))
    form = {"seats": 3, "bots": 0, "turn_seconds": 60, "bot_kind": "heuristic"}
    assert create(player).status_code == 201
    assert browser.post("/lobby/", form).status_code == 302
    refused = browser.post("/lobby/", form)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert_error(create(player), 429, "rate_limited")
    assert tables_of(player) == 2


def test_a_fourth_open_table_is_refused_until_one_is_left(
    per_user_limits: Any, make_player: Callable[..., Player]
) -> None:
    player = make_player()
    ids = [create(player).json()["id"] for _ in range(3)]
    assert_error(create(player), 409, "too_many_open_tables")
    browser = Client()
    browser.force_login(User.objects.get(pk=player.user_id))
    form = {"seats": 3, "bots": 0, "turn_seconds": 60, "bot_kind": "medium"}
    refused = browser.post("/lobby/", form)
    assert refused.status_code == 409 and b"open tables" in refused.content
    assert tables_of(player) == 3
    assert player.leave(ids[0]).status_code == 200
    assert create(player).status_code == 201


def test_joining_counts_only_when_the_table_stays_open(
    per_user_limits: Any, make_player: Callable[..., Player]
) -> None:
    player, host, other = make_player(), make_player(), make_player()
    for _ in range(3):
        assert create(player).status_code == 201
    stays_open = create(host, seats=4).json()["id"]
    assert_error(player.join(stays_open), 409, "too_many_open_tables")
    assert not Seat.objects.filter(game_id=stays_open, user_id=player.user_id).exists()
    # The last seat starts the game: it is not one more open table.
    last_seat = create(host).json()["id"]
    assert other.join(last_seat).status_code == 200
    assert player.join(last_seat).status_code == 200
    assert Game.objects.get(pk=last_seat).status == GameStatus.ACTIVE


def test_a_third_game_against_bots_alone_is_refused(
    per_user_limits: Any, make_player: Callable[..., Player]
) -> None:
    player, friend = make_player(), make_player()
    for _ in range(2):
        assert create(player, bots=2).status_code == 201  # full: running at once
    assert_error(create(player, bots=2), 409, "too_many_bot_games")
    # An open table with a bot is a bot game too until another person sits down.
    assert_error(create(player, bots=1), 409, "too_many_bot_games")
    # A game with a bot and another person is not one against bots alone.
    assert seat_players([friend, player], bots=1)
    assert Game.objects.filter(seat_set__user_id=player.user_id, bots__gt=0).count() == 3


def test_limits_are_off_without_rate_limits(
    per_user_limits: Any, make_player: Callable[..., Player]
) -> None:
    per_user_limits.RATE_LIMITS_ENABLED = False
    set_rate(per_user_limits, "table_create", "1/hour")
    player = make_player()
    assert all(create(player).status_code == 201 for _ in range(5))
    assert all(create(player, bots=2).status_code == 201 for _ in range(4))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_creates_cannot_both_take_the_last_open_table(settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = True
    settings.MAX_OPEN_TABLES_PER_USER = 1
    cache.clear()
    player = register_player("hoarder")
    for attempt in range(10):
        devices = [twin(player), twin(player)]
        responses = race([partial(create, device) for device in devices])
        assert sorted(r.status_code for r in responses) == [201, 409], attempt
        refused = next(r for r in responses if r.status_code == 409)
        assert refused.json()["error"]["code"] == "too_many_open_tables"
        open_tables = Game.objects.filter(status=GameStatus.OPEN, seat_set__user_id=player.user_id)
        assert open_tables.count() == 1
        assert player.leave(open_tables.get().pk).status_code == 200
    cache.clear()
