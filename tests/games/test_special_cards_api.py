"""R20–R26 through the API (API.md "Variants"): a table is created with special cards, every
view and list names them, a whole game is played through REST with every new decision, and a
passed card stays hidden from everyone but its giver."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import engine, services
from games.models import Game
from tests.games.helpers import (
    API,
    Player,
    assert_error,
    create_game,
)
from tests.games.helpers import (
    SPECIAL_CARDS as ALL,
)
from tests.games.helpers import (
    SPECIAL_SEED as SEED,
)
from tests.league.helpers import play_out

pytestmark = pytest.mark.django_db


def test_the_view_and_the_list_name_the_special_cards_in_r20_order(
    make_player: Callable[..., Player],
) -> None:
    host = make_player("host")
    created = create_game(host, seats=4, special_cards=["shapeshifter", "bomb", "dragon_fairy"])
    assert created["special_cards"] == ["dragon_fairy", "bomb", "shapeshifter"]
    listed = host.client.get(f"{API}/games/").json()["results"]
    assert [table["special_cards"] for table in listed] == [created["special_cards"]]
    assert create_game(host, seats=3)["special_cards"] == []


@pytest.mark.parametrize(
    "special_cards", [["dragon"], ["bomb", "bomb"], "bomb", [1], None, {"bomb": True}, ["BO"]]
)
def test_any_other_value_is_invalid_and_creates_nothing(
    make_player: Callable[..., Player], special_cards: Any
) -> None:
    host = make_player("host")
    body = {"seats": 4, "special_cards": special_cards}
    response = host.client.post(f"{API}/games/", body, format="json")
    assert_error(response, 400, "invalid")
    assert "special_cards" in response.json()["error"]["fields"]
    assert not Game.objects.exists()


def quoted(code: str) -> str:
    return json.dumps(code)


def test_a_whole_game_with_every_special_card_through_rest(
    make_player: Callable[..., Player], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine, "new_seed", lambda: SEED)
    people = [make_player(f"p{seat}") for seat in range(3)]
    options = {"special_cards": ALL, "rounds": 5, "blind_first_round": False}
    game_id = create_game(people[0], seats=3, **options)["id"]
    for player in people[1:]:
        assert player.join(game_id).status_code == 200
    seen: set[str] = set()
    while (game := Game.objects.get(pk=game_id)).status == "active":
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        seat = state.to_act
        view = people[seat].view(game_id)
        seen.add(view["round"]["phase"])
        move = engine.auto_move(state).to_json()
        if move["type"] == "play" and len(move) > 2:  # a Juggler, Cloud or Shapeshifter
            bare = {"type": "play", "card": move["card"], "seq": view["seq"]}
            assert_error(people[seat].move(game_id, bare), 400, "illegal_card")
            seen.add("declared")
        if move["type"] == "trump" and view["round"]["werewolf"] is not None:
            assert "none" in view["legal"]["suits"] and seat == view["round"]["werewolf"]
        response = people[seat].move(game_id, {**move, "seq": view["seq"]})
        assert response.status_code == 200, response.content
        if move["type"] == "pass":  # R24: the card is the giver's alone until all have chosen
            for other in {0, 1, 2} - {seat}:
                shown = people[other].client.get(f"{API}/games/{game_id}/events/").json()
                if Game.objects.get(pk=game_id).engine_state().phase == "passing":  # type: ignore[union-attr]
                    assert quoted(move["card"]) not in json.dumps(people[other].view(game_id))
                rows = shown["results"] if isinstance(shown, dict) else shown
                assert all(
                    row["payload"].get("card") is None
                    for row in rows
                    if row["type"] == "pass" and row["seat"] != other
                )
    assert {"choosing_trump", "bidding", "playing", "passing", "adjusting", "declared"} <= seen
    rows = people[0].client.get(f"{API}/games/{game_id}/events/?page_size=500").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    bombed = [
        row for row in rows if row["type"] == "trick_won" and row["payload"]["winner"] is None
    ]
    assert bombed and all(row["payload"]["seat"] is None for row in bombed)
    final = people[0].view(game_id)
    assert final["status"] == "finished" and len(final["scores"]) == 5


def test_bots_play_every_special_card_and_the_rematch_keeps_them(
    make_player: Callable[..., Player],
) -> None:
    host = make_player("host")
    game_id = create_game(host, seats=4, bots=3, special_cards=ALL, rounds=6)["id"]
    game = play_out(game_id, random.Random(3))
    assert game.status == "finished"
    rematch = services.game_rematch(game_id=game_id, user=User.objects.get(pk=host.user_id)).game
    assert rematch.special_cards == ALL


def test_the_lobby_form_takes_special_cards_and_the_lobby_names_them(
    make_player: Callable[..., Player],
) -> None:
    host = make_player("host")
    page = Client()
    page.force_login(User.objects.get(pk=host.user_id))
    form = {"seats": 4, "bots": 0, "bot_kind": "medium", "turn_seconds": 60}
    created = page.post("/lobby/", {**form, "special_cards": ["cloud", "bomb"]})
    assert created.status_code == 302
    assert page.post("/lobby/", {**form, "special_cards": ["dragon"]}).status_code == 200
    assert list(Game.objects.values_list("special_cards", flat=True)) == [["bomb", "cloud"]]
    lobby = Client().get("/lobby/").content.decode()
    assert 'data-testid="special-cards">Bomb, Cloud<' in lobby
