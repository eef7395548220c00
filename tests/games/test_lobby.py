"""The lobby: creating, listing, joining and leaving tables (the API contract, "Games")."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from tests.games.helpers import API, Player, assert_error, create_game, game_row


def ids(page: dict[str, object]) -> list[int]:
    return [game["id"] for game in page["results"]]  # type: ignore[index, union-attr]


def test_a_new_table_seats_its_creator_and_bots_take_the_last_seats(
    make_player: Callable[..., Player],
) -> None:
    creator = make_player()
    view = create_game(creator, seats=5, bots=2)
    assert view["status"] == "open" and view["you"] == 0
    assert (view["turn_seconds"], view["hook_rule"], view["blind_first_round"]) == (60, True, True)
    assert [(p["seat"], p["is_bot"]) for p in view["players"]] == [(0, False), (3, True), (4, True)]
    assert view["players"][0]["username"] == creator.username
    assert view["round"] is None and view["hand"] is None and view["to_act"] is None
    assert view["shuffle_seed"] is None and len(view["shuffle_commitment"]) == 64
    for key in ["id", "seats", "seq", "players", "legal", "scores", "winners", "deadline"]:
        assert key in view
    others = [make_player() for _ in range(2)]
    assert others[0].join(view["id"]).json()["you"] == 1
    started = others[1].join(view["id"]).json()
    assert started["you"] == 2 and started["status"] == "active"  # the last free seat filled
    assert started["round"]["number"] == 1 and started["to_act"] is not None


def test_the_list_filters_by_status_and_by_mine(
    make_player: Callable[..., Player], stranger: Player
) -> None:
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    open_a = create_game(alice, seats=3)["id"]
    open_b = create_game(bob, seats=4, bots=1)["id"]
    running = create_game(carol, seats=3, bots=2)["id"]  # full at once: it starts
    assert game_row(running).status == "active"
    assert bob.join(open_a).status_code == 200

    def listing(player: Player, query: str) -> dict[str, object]:
        response = player.client.get(f"{API}/games/?{query}")
        assert response.status_code == 200, response.content
        page = response.json()
        assert set(page) == {"count", "next", "previous", "results"}
        return page

    assert ids(listing(stranger, "status=open")) == [open_b, open_a]  # newest first
    assert ids(listing(stranger, "status=active")) == [running]
    assert ids(listing(stranger, "status=finished")) == []
    assert ids(listing(stranger, "")) == [running, open_b, open_a]
    assert ids(listing(stranger, "mine=true")) == []
    assert ids(listing(alice, "mine=true")) == [open_a]
    assert ids(listing(bob, "mine=true")) == [open_b, open_a]
    assert ids(listing(bob, "status=open&mine=true")) == [open_b, open_a]
    assert ids(listing(carol, "mine=true&status=active")) == [running]
    assert ids(listing(carol, "mine=true&status=open")) == []

    summary = listing(stranger, "status=open")["results"][1]
    assert summary["id"] == open_a and summary["free_seats"] == 1
    assert [p["username"] for p in summary["players"]] == ["alice", "bob"]
    # A list shows no cards and no seed.
    for game in Game.objects.all():
        assert game.seed not in json.dumps(listing(stranger, ""))
    active = listing(stranger, "status=active")["results"][0]
    assert "hand" not in active and "visible_hands" not in active


@pytest.mark.parametrize("status", ["opened", "OPEN", "all", "1"])
def test_an_unknown_status_filter_is_invalid(stranger: Player, status: str) -> None:
    error = assert_error(stranger.client.get(f"{API}/games/?status={status}"), 400, "invalid")
    assert "status" in error["fields"]


def test_the_list_is_paginated(make_player: Callable[..., Player]) -> None:
    creator = make_player()
    made = [create_game(creator, seats=3)["id"] for _ in range(3)]
    first = creator.client.get(f"{API}/games/?page_size=2").json()
    assert first["count"] == 3 and len(first["results"]) == 2 and first["previous"] is None
    second = creator.client.get(first["next"]).json()
    assert second["next"] is None and second["previous"] is not None
    assert ids(first) + ids(second) == made[::-1]


def test_leaving_before_the_start_frees_the_seat(make_player: Callable[..., Player]) -> None:
    alice, bob = make_player(), make_player()
    game_id = create_game(alice, seats=3)["id"]
    assert bob.join(game_id).json()["you"] == 1
    response = bob.leave(game_id)
    assert response.status_code == 200
    view = response.json()
    assert view["you"] is None and view["status"] == "open"
    assert [p["username"] for p in view["players"]] == [alice.username]
    assert bob.join(game_id).json()["you"] == 1  # the seat is free again
    assert_error(make_player().leave(game_id), 403, "not_a_player")


def test_a_table_every_human_left_is_aborted(make_player: Callable[..., Player]) -> None:
    alice, bob = make_player(), make_player()
    game_id = create_game(alice, seats=4, bots=1)["id"]
    bob.join(game_id)
    assert alice.leave(game_id).json()["status"] == "open"  # bob is still there
    view = bob.leave(game_id).json()
    assert view["status"] == "aborted"  # only a bot is left
    game = game_row(game_id)
    assert game.status == "aborted" and game.finished_at is not None and game.seq == 0
    assert game_id not in ids(bob.client.get(f"{API}/games/?status=open").json())
    assert_error(bob.join(game_id), 409, "game_full")
    assert game.seat_set.filter(user__isnull=False).count() == 0


def test_the_first_rounds_options_speak_the_readers_language(
    make_player: Callable[..., Player],
) -> None:
    browser = Client()
    browser.force_login(User.objects.get(pk=make_player().user_id))
    spanish = browser.get("/lobby/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Solo las rondas 1 a 3" in spanish and "Rounds 1 to 3 only" not in spanish
    english = browser.get("/lobby/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Rounds 1 to 3 only" in english
