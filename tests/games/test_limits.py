"""Every limit has one source (core.limits): the API, the lobby form and the browser's copy
all say the same."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from django.test import Client

from core import limits
from games.forms import TableForm
from tests.games.helpers import Player, assert_error, create_game

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
