"""The guided game (a newcomer's first game against bots): started from the lobby, no blind
first round, easy bots, and a hint on each decision from the player's own view only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.engine.cards import CARDS
from games.models import Game
from tests.games.helpers import Player, choose_move, seat_players, set_rate

pytestmark = pytest.mark.django_db


def browser_of(player: Player) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=player.user_id))
    return client


def start_guided(player: Player) -> int:
    response = browser_of(player).post("/games/guided/")
    assert response.status_code == 302
    game = Game.objects.get(created_by_id=player.user_id, guided=True)
    assert response["Location"] == f"/games/{game.pk}/"
    return game.pk


def hint_of(player: Player, game_id: int) -> dict[str, Any]:
    response = browser_of(player).get(f"/games/{game_id}/hint/")
    assert response.status_code == 200, response.content
    hint: dict[str, Any] = response.json()
    return hint


def test_the_lobby_offers_a_newcomer_a_guided_game_that_starts_at_once(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    page = browser_of(player).get("/lobby/").content.decode()
    assert 'data-testid="guided-offer"' in page and "newcomer" in page
    game_id = start_guided(player)
    game = Game.objects.get(pk=game_id)
    assert (game.seats, game.bots, game.status) == (4, 3, "active")
    assert not game.blind_first_round and game.hook_rule
    view = player.view(game_id)
    assert [p["difficulty"] for p in view["players"] if p["is_bot"]] == ["easy"] * 3
    assert view["hand"] is not None  # round 1 in view: no card to hide from oneself
    table_page = browser_of(player).get(f"/games/{game_id}/").content.decode()
    assert 'data-testid="guide"' in table_page
    # Once they have sat somewhere, the lobby still offers one, without the newcomer's welcome.
    assert "newcomer" not in browser_of(player).get("/lobby/").content.decode()


def test_each_hint_explains_the_decision_and_suggests_a_legal_move(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    game_id = start_guided(player)
    reasons = set()
    for _ in range(40):
        view = player.view(game_id)
        if view["status"] != "active":
            break
        hint = hint_of(player, game_id)
        if view["to_act"] != view["you"]:
            assert hint["reason"] == "wait" and hint["suggestion"] is None
            break  # the bots' steps run eagerly: it is always the player's turn here
        reasons.add(hint["reason"])
        legal = view["legal"]
        move = hint["suggestion"]
        if "bids" in legal:
            assert hint["reason"] in ("bid", "bid_hook") and move["bid"] in legal["bids"]
            assert hint["cards"] == view["round"]["cards"]
            if hint["reason"] == "bid_hook":
                assert hint["forbidden"] not in legal["bids"]
        elif "cards" in legal:
            assert move["card"] in legal["cards"]
            trick = view["round"]["trick"]
            if hint["reason"] == "follow":
                lead = trick["lead_suit"]
                assert hint["lead_suit"] == lead
                assert all(CARDS[c].suit in (lead, None) for c in legal["cards"])
            elif hint["reason"] == "lead":
                assert trick["cards"] == []
        else:
            assert hint["reason"] == "trump" and move["suit"] in legal["suits"]
        response = player.move(game_id, {**choose_move(legal, None), "seq": view["seq"]})
        assert response.status_code == 200, response.content
    assert {"bid", "lead"} & reasons and len(reasons) >= 2


def test_hints_are_for_the_guided_games_own_player_only(
    make_player: Callable[..., Player],
) -> None:
    player, stranger, other = make_player(), make_player(), make_player()
    game_id = start_guided(player)
    assert browser_of(stranger).get(f"/games/{game_id}/hint/").status_code == 403
    assert Client().get(f"/games/{game_id}/hint/").status_code == 302  # to the log-in
    ordinary = seat_players([other, stranger], bots=1)
    response = browser_of(other).get(f"/games/{ordinary}/hint/")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert browser_of(player).get("/games/999999/hint/").status_code == 404


def test_hints_are_rate_limited(make_player: Callable[..., Player], settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = True
    set_rate(settings, "hint", "2/min")
    player = make_player()
    game_id = start_guided(player)
    browser = browser_of(player)
    assert [browser.get(f"/games/{game_id}/hint/").status_code for _ in range(3)] == [200, 200, 429]
