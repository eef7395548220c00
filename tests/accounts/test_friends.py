"""Following, friends and blocking (API.md "Friends, invitations and who may watch"): friends
are mutual follows; a block ends the follows, refuses new ones and keeps the two apart at
tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import Block, Follow
from tests.games.helpers import API, Player, assert_error, create_game, game_url, seat_players

pytestmark = pytest.mark.django_db


def friends(player: Player) -> list[dict[str, Any]]:
    response = player.client.get(f"{API}/accounts/me/friends/")
    assert response.status_code == 200, response.content
    body: list[dict[str, Any]] = response.json()
    return body


def test_following_both_ways_makes_friends_who_see_each_others_tables(
    make_player: Callable[..., Player],
) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    assert ana.client.post(f"{API}/players/ben/follow/").status_code == 204
    assert ana.client.post(f"{API}/players/ben/follow/").status_code == 204  # again: harmless
    assert friends(ana) == [] and friends(ben) == []
    assert ben.client.post(f"{API}/players/ana/follow/").status_code == 204
    open_table = create_game(ben, seats=3)["id"]
    hidden = create_game(ben, seats=4, spectators="players")["id"]
    assert friends(ana) == [{"username": "ben", "online": False, "playing": [open_table]}]
    assert hidden not in friends(ana)[0]["playing"]
    assert [friend["username"] for friend in friends(ben)] == ["ana"]

    assert ben.client.delete(f"{API}/players/ana/follow/").status_code == 204
    assert friends(ana) == [] and friends(ben) == []


def test_a_block_ends_the_follows_and_keeps_the_two_apart(
    make_player: Callable[..., Player],
) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    for a, b in ((ana, ben), (ben, ana)):
        assert a.client.post(f"{API}/players/{b.username}/follow/").status_code == 204
    assert ana.client.post(f"{API}/players/ben/block/").status_code == 204
    assert not Follow.objects.exists() and Block.objects.count() == 1
    for a, b in ((ana, ben), (ben, ana)):  # either way
        assert_error(a.client.post(f"{API}/players/{b.username}/follow/"), 403, "blocked")
    for host, guest in ((ana, ben), (ben, ana)):
        game_id = create_game(host, seats=3)["id"]
        assert_error(guest.client.post(game_url(game_id, "join")), 403, "blocked")
    assert ana.client.delete(f"{API}/players/ben/block/").status_code == 204
    assert ben.client.post(f"{API}/players/ana/follow/").status_code == 204


def test_follow_and_block_refuse_oneself_an_unknown_player_and_a_signed_out_caller(
    make_player: Callable[..., Player],
) -> None:
    ana = make_player("ana")
    for action in ("follow", "block"):
        assert_error(ana.client.post(f"{API}/players/ana/{action}/"), 400, "invalid")
        assert_error(ana.client.post(f"{API}/players/nobody/{action}/"), 404, "not_found")
        anonymous = ana.client.__class__()
        assert_error(anonymous.post(f"{API}/players/ana/{action}/"), 401, "not_authenticated")
    assert_error(
        ana.client.__class__().get(f"{API}/accounts/me/friends/"), 401, "not_authenticated"
    )
    assert not Follow.objects.exists() and not Block.objects.exists()


def test_the_blocker_hears_none_of_the_blocked_players_chat(
    make_player: Callable[..., Player],
) -> None:
    ana, ben, cy = make_player("ana"), make_player("ben"), make_player("cy")
    game_id = seat_players([ana, ben, cy])
    chat = game_url(game_id, "chat")
    assert ben.client.post(chat, {"text": "hello all"}, format="json").status_code == 201
    assert ana.client.post(f"{API}/players/ben/block/").status_code == 204
    assert ben.client.post(chat, {"text": "still here"}, format="json").status_code == 201

    def texts(player: Player) -> list[str]:
        return [message["text"] for message in player.client.get(chat).json()["results"]]

    assert texts(ana) == []
    assert texts(cy) == ["hello all", "still here"]
