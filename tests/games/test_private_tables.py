"""Private tables, invitation codes and who may watch (API.md "Friends, invitations and who may
watch"): a private table is listed to nobody but its players and joined only with its code; a
table's `spectators` setting decides who else sees its view, events and replay."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from tests.games.helpers import API, Player, assert_error, create_game, game_url
from tests.league.helpers import play_out

pytestmark = pytest.mark.django_db


def join(player: Player, game_id: int, invite: str | None = None) -> Any:
    body = {} if invite is None else {"invite": invite}
    return player.client.post(game_url(game_id, "join"), body, format="json")


def befriend(one: Player, other: Player) -> None:
    for a, b in ((one, other), (other, one)):
        response = a.client.post(f"{API}/players/{b.username}/follow/")
        assert response.status_code == 204, response.content


def browser(player: Player | None = None) -> Client:
    client = Client()
    if player is not None:
        client.force_login(User.objects.get(pk=player.user_id))
    return client


def listed_ids(player: Player, query: str = "") -> set[int]:
    response = player.client.get(f"{API}/games/{query}")
    assert response.status_code == 200
    return {game["id"] for game in response.json()["results"]}


def test_a_private_table_is_listed_and_shown_to_its_players_only(
    make_player: Callable[..., Player],
) -> None:
    host, stranger = make_player("host"), make_player("stranger")
    created = create_game(host, seats=3, bots=1, visibility="private")
    game_id = created["id"]
    assert created["visibility"] == "private" and created["spectators"] == "everyone"
    assert isinstance(created["invite"], str) and len(created["invite"]) >= 16

    assert game_id in listed_ids(host) and game_id in listed_ids(host, "?mine=true")
    for query in ("", "?status=open", "?mine=true"):
        assert game_id not in listed_ids(stranger, query)
    lobby = browser(stranger).get("/lobby/").content.decode()
    assert f"/games/{game_id}/" not in lobby
    assert f"/games/{game_id}/" not in browser().get("/lobby/tables/").content.decode()
    assert_error(stranger.client.get(game_url(game_id)), 403, "not_a_player")
    assert_error(stranger.client.get(game_url(game_id, "events")), 403, "not_a_player")
    assert_error(Client().get(game_url(game_id)), 403, "not_a_player")
    assert browser(stranger).get(f"/games/{game_id}/").status_code == 403

    # Running, it is no more to be found: not in a list, a page or anyone's profile.
    guest = make_player("guest")
    assert join(guest, game_id, created["invite"]).status_code == 200
    assert Game.objects.get(pk=game_id).status == "active"
    for query in ("", "?status=active", "?mine=true"):
        assert game_id not in listed_ids(stranger, query)
    pages = ["/lobby/", "/lobby/tables/", "/games/mine/", "/friends/", "/leaderboard/"]
    pages += [f"/players/{player.username}/" for player in (host, guest)]
    for page in pages:
        assert f"/games/{game_id}/" not in browser(stranger).get(page).content.decode(), page
    for player in (host, guest):
        profile = stranger.client.get(f"{API}/players/{player.username}/").json()
        assert game_id not in {game["id"] for game in profile["recent_games"]}
    assert stranger.client.get(f"{API}/accounts/me/friends/").json() == []


def test_a_private_table_is_joined_with_its_code_only(make_player: Callable[..., Player]) -> None:
    host, guest, stranger = (make_player(name) for name in ("host", "guest", "stranger"))
    created = create_game(host, seats=3, visibility="private")
    game_id, code = created["id"], created["invite"]

    assert_error(join(stranger, game_id), 403, "invite_required")
    wrong = code[:-1] + ("y" if code.endswith("x") else "x")  # never the code itself
    assert_error(join(stranger, game_id, wrong), 403, "invite_required")
    assert Game.objects.get(pk=game_id).seat_set.count() == 1
    joined = join(guest, game_id, code)
    assert joined.status_code == 200, joined.content
    assert joined.json()["you"] == 1 and joined.json()["invite"] == code
    assert guest.view(game_id)["invite"] == code


def test_the_invitation_link_works_signed_out_and_then_signed_in(
    make_player: Callable[..., Player],
) -> None:
    host, guest = make_player("host"), make_player("guest")
    created = create_game(host, seats=3, visibility="private")
    game_id, code = created["id"], created["invite"]

    page = Client().get(f"/i/{code}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/accounts/signup/?next=/i/{code}/" in html and "host" in html
    assert Client().get("/i/no-such-code/").status_code == 404

    signed_in = browser(guest)
    assert 'data-testid="invitation-join"' in signed_in.get(f"/i/{code}/").content.decode()
    answer = signed_in.post(f"/games/{game_id}/join/", {"invite": code})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game_id}/"
    assert guest.view(game_id)["you"] == 1
    assert signed_in.get(f"/i/{code}/")["Location"] == f"/games/{game_id}/"  # seated: the table


def test_a_table_for_its_players_only_refuses_everyone_else_its_replay_too(
    make_player: Callable[..., Player],
) -> None:
    host, friend, stranger = (make_player(name) for name in ("host", "friend", "stranger"))
    befriend(host, friend)
    game_id = create_game(
        host, seats=3, bots=2, spectators="players", blind_first_round=False, rounds=2
    )["id"]
    for outsider in (friend, stranger):
        assert_error(outsider.client.get(game_url(game_id)), 403, "not_a_player")
    assert host.view(game_id)["spectators"] == "players"
    play_out(game_id, random.Random(5))
    assert browser(stranger).get(f"/games/{game_id}/replay/").status_code == 403
    assert browser(host).get(f"/games/{game_id}/replay/").status_code == 200


def test_friends_of_a_player_may_watch_a_friends_table_and_nobody_else(
    make_player: Callable[..., Player],
) -> None:
    host, friend, follower, stranger = (
        make_player(name) for name in ("host", "friend", "follower", "stranger")
    )
    befriend(host, friend)
    assert follower.client.post(f"{API}/players/host/follow/").status_code == 204  # one way
    game_id = create_game(host, seats=3, spectators="friends")["id"]
    assert friend.view(game_id)["you"] is None
    for outsider in (follower, stranger):
        assert_error(outsider.client.get(game_url(game_id)), 403, "not_a_player")
    assert_error(Client().get(game_url(game_id)), 403, "not_a_player")


def test_a_private_table_is_watched_by_friends_of_its_players_at_most(
    make_player: Callable[..., Player],
) -> None:
    host, friend, stranger = (make_player(name) for name in ("host", "friend", "stranger"))
    befriend(host, friend)
    game_id = create_game(host, seats=3, visibility="private")["id"]
    assert friend.view(game_id)["invite"] is None  # a spectator gets no code
    assert_error(stranger.client.get(game_url(game_id)), 403, "not_a_player")


def test_the_rematch_keeps_who_may_find_and_watch_the_table(
    make_player: Callable[..., Player],
) -> None:
    host = make_player("host")
    options = {"visibility": "private", "spectators": "players", "blind_first_round": False}
    game_id = create_game(host, seats=3, bots=2, rounds=2, **options)["id"]
    play_out(game_id, random.Random(2))
    first = Game.objects.get(pk=game_id)
    answer = browser(host).post(f"/games/{game_id}/rematch/")
    assert answer.status_code == 302
    again = Game.objects.get(rematch_of_id=game_id)
    assert (again.visibility, again.spectators) == ("private", "players")
    assert again.invite_code != first.invite_code


@pytest.mark.parametrize(
    "body",
    [{"visibility": "secret"}, {"spectators": "all"}, {"visibility": 1}, {"spectators": None}],
)
def test_unknown_settings_are_invalid_and_create_nothing(
    make_player: Callable[..., Player], body: dict[str, Any]
) -> None:
    host = make_player("host")
    response = host.client.post(f"{API}/games/", {"seats": 3, **body}, format="json")
    assert_error(response, 400, "invalid")
    assert not Game.objects.exists()


def test_join_bodies_other_than_a_code_are_invalid(make_player: Callable[..., Player]) -> None:
    host, guest = make_player("host"), make_player("guest")
    game_id = create_game(host, seats=3)["id"]
    for body in ({"invite": 5}, {"code": "x"}, {"invite": "x" * 65}):
        response = guest.client.post(game_url(game_id, "join"), body, format="json")
        assert_error(response, 400, "invalid")
    assert Game.objects.get(pk=game_id).seat_set.count() == 1
