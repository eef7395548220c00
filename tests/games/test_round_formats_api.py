"""R19 through the API and the lobby: a table is created with a round format, every view and
list says which rounds it plays, a short game ends after its last round, and a rematch keeps
the format (API.md "Variants")."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import Game
from tests.games.helpers import API, Player, assert_error, create_game
from tests.league.helpers import play_out

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("seats", "rounds", "numbers"),
    [
        (4, "full", list(range(1, 16))),
        (4, "odd", [1, 3, 5, 7, 9, 11, 13, 15]),
        (3, "odd", list(range(1, 20, 2))),
        (5, 4, [1, 2, 3, 4]),
        (6, 10, list(range(1, 11))),
    ],
)
def test_the_view_and_the_list_show_the_format_and_its_rounds(
    make_player: Callable[..., Player], seats: int, rounds: Any, numbers: list[int]
) -> None:
    host = make_player("host")
    created = create_game(host, seats=seats, rounds=rounds)
    assert (created["rounds"], created["round_numbers"]) == (rounds, numbers)
    listed = host.client.get(f"{API}/games/").json()["results"]
    assert [(t["rounds"], t["round_numbers"]) for t in listed] == [(rounds, numbers)]


def test_a_table_without_the_option_plays_the_whole_game(
    make_player: Callable[..., Player],
) -> None:
    created = create_game(make_player("host"), seats=5)
    assert created["rounds"] == "full" and created["round_numbers"] == list(range(1, 13))


@pytest.mark.parametrize("rounds", [0, 16, -2, "even", "5", "", True, None, 2.5, [3]])
def test_any_other_format_is_invalid_and_creates_nothing(
    make_player: Callable[..., Player], rounds: Any
) -> None:
    host = make_player("host")
    response = host.client.post(f"{API}/games/", {"seats": 4, "rounds": rounds}, format="json")
    assert_error(response, 400, "invalid")
    assert "rounds" in response.json()["error"]["fields"]
    assert not Game.objects.exists()


def test_a_short_game_ends_after_its_last_round(make_player: Callable[..., Player]) -> None:
    host = make_player("host")
    game_id = create_game(host, seats=3, bots=2, rounds="odd", blind_first_round=False)["id"]
    game = play_out(game_id, random.Random(5))
    view = host.view(game_id)
    assert game.status == "finished" and view["status"] == "finished"
    assert [score["round"] for score in view["scores"]] == list(range(1, 20, 2))
    assert view["winners"]


def test_the_rematch_keeps_the_round_format(make_player: Callable[..., Player]) -> None:
    host = make_player("host")
    game_id = create_game(host, seats=3, bots=2, rounds=2)["id"]
    play_out(game_id, random.Random(1))
    user = User.objects.get(pk=host.user_id)
    rematch = services.game_rematch(game_id=game_id, user=user).game
    assert rematch.rounds == "2" and host.view(rematch.pk)["round_numbers"] == [1, 2]


def test_the_lobby_form_takes_a_format_and_refuses_any_other(
    make_player: Callable[..., Player],
) -> None:
    host = make_player("host")
    page = Client()
    page.force_login(User.objects.get(pk=host.user_id))
    form = {"seats": 6, "bots": 0, "bot_kind": "medium", "turn_seconds": 60}
    assert page.post("/lobby/", {**form, "rounds": "7", "seats": 3}).status_code == 302
    for other in ("11", "even", "-1"):
        assert page.post("/lobby/", {**form, "rounds": other}).status_code == 200  # the form
    created = page.post("/lobby/", {**form, "rounds": "odd"})
    assert created.status_code == 302
    formats = sorted(Game.objects.values_list("seats", "rounds"))
    assert formats == [(3, "7"), (6, "odd")]
    lobby = Client().get("/lobby/").content.decode()
    assert "odd rounds" in lobby and "rounds 1–7" in lobby
