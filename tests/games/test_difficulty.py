"""Bot difficulty: easy, medium and hard through the API and the lobby form, each seat storing
its engine bot (novice, heuristic, expert); older engine names and DEFAULT_BOT still work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.models import Seat
from tests.games.helpers import API, Player, assert_error, create_game

pytestmark = pytest.mark.django_db


def bot_kinds(game_id: int) -> set[str]:
    return set(
        Seat.objects.filter(game_id=game_id, user__isnull=True).values_list("bot_kind", flat=True)
    )


@pytest.mark.parametrize(
    "difficulty,kind", [("easy", "novice"), ("medium", "heuristic"), ("hard", "expert")]
)
def test_each_difficulty_seats_its_bot_and_the_view_says_which(
    make_player: Callable[..., Player], difficulty: str, kind: str
) -> None:
    view = create_game(make_player(), seats=4, bots=2, bot_kind=difficulty)
    assert bot_kinds(view["id"]) == {kind}
    assert [p["difficulty"] for p in view["players"]] == [None, difficulty, difficulty]
    assert view["players"][1]["username"] == f"{difficulty.title()} Bot 3"


def test_a_solo_game_against_hard_bots_plays_on(make_player: Callable[..., Player]) -> None:
    solo = make_player()
    view = create_game(solo, seats=3, bots=2, bot_kind="hard", blind_first_round=False)
    assert view["status"] == "active"
    # The bots decide in their own tasks (eager in tests), after each answer: once they have,
    # it is the person's turn.
    for _ in range(6):
        view = solo.view(view["id"])
        assert view["to_act"] == 0, view
        ((kind, options),) = view["legal"].items()
        body = {"type": {"bids": "bid", "cards": "play", "suits": "trump"}[kind]}
        body[{"bids": "bid", "cards": "card", "suits": "suit"}[kind]] = options[0]
        response = solo.move(view["id"], {**body, "seq": view["seq"]})
        assert response.status_code == 200, response.content


@pytest.mark.parametrize("bad", ["impossible", "", 3, None, ["hard"], "HARD"])
def test_an_unknown_difficulty_is_invalid(make_player: Callable[..., Player], bad: Any) -> None:
    response = make_player().client.post(
        f"{API}/games/", {"seats": 3, "bots": 1, "bot_kind": bad}, format="json"
    )
    assert_error(response, 400, "invalid")


def test_older_engine_names_and_the_default_bot_setting_still_work(
    make_player: Callable[..., Player], settings: Any
) -> None:
    player = make_player()
    assert bot_kinds(create_game(player, seats=3, bots=1, bot_kind="random")["id"]) == {"random"}
    assert bot_kinds(create_game(player, seats=3, bots=1)["id"]) == {"heuristic"}
    settings.DEFAULT_BOT = "hard"
    assert bot_kinds(create_game(player, seats=3, bots=1)["id"]) == {"expert"}


def test_the_schema_offers_easy_medium_and_hard(db: None) -> None:
    import yaml

    schema = yaml.safe_load(APIClient().get(f"{API}/schema/").content)
    body = schema["paths"][f"{API}/games/"]["post"]["requestBody"]["content"]["application/json"]
    components = schema["components"]["schemas"]
    tables = components[body["schema"]["$ref"].rsplit("/", 1)[-1]]["oneOf"]  # one per seats
    for table in tables:
        field = components[table["$ref"].rsplit("/", 1)[-1]]["properties"]["bot_kind"]
        if "$ref" in field or "allOf" in field:
            target = (field.get("allOf") or [field])[0]["$ref"].rsplit("/", 1)[-1]
            field = components[target]
        assert field["enum"] == ["easy", "medium", "hard"]


def test_the_lobby_form_offers_the_three_difficulties_and_creates_their_bots(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    browser = Client()
    browser.force_login(User.objects.get(pk=player.user_id))
    page = browser.get("/lobby/").content.decode()
    for value in ("easy", "medium", "hard"):
        assert f'<option value="{value}"' in page
    assert 'value="medium" selected' in page
    form = {"seats": 4, "bots": 3, "turn_seconds": 60, "hook_rule": "on", "bot_kind": "hard"}
    response = browser.post("/lobby/", form)
    assert response.status_code == 302
    game_id = int(response["Location"].rstrip("/").rsplit("/", 1)[-1])
    assert bot_kinds(game_id) == {"expert"}
    bad = browser.post("/lobby/", {**form, "bot_kind": "godlike"})
    assert bad.status_code == 200 and "bot_kind" in bad.context["form"].errors
