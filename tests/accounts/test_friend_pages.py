"""The pages of friendship: follow and block from a profile, the friends page with its panel
(friends online, their tables, invitations to one's own), and the lobby's friends panel."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Block, Follow
from tests.games.helpers import API, Player, create_game

pytestmark = pytest.mark.django_db


def browser(player: Player) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=player.user_id))
    return client


def relate(client: Client, username: str, action: str) -> int:
    response = client.post(f"/players/{username}/relation/", {"action": action})
    return response.status_code


def follows(one: Player, other: Player) -> bool:
    return Follow.objects.filter(follower_id=one.user_id, followed_id=other.user_id).exists()


def test_a_profile_follows_follows_back_and_blocks(make_player: Callable[..., Player]) -> None:
    ana, ben = make_player("ana"), make_player("ben")
    ana_page, ben_page = browser(ana), browser(ben)
    profile = ana_page.get("/players/ben/").content.decode()
    assert 'data-testid="follow-button"' in profile and 'data-testid="block-button"' in profile

    assert relate(ana_page, "ben", "follow") == 302 and follows(ana, ben)
    assert 'data-testid="unfollow-button"' in ana_page.get("/players/ben/").content.decode()
    back = ben_page.get("/players/ana/").content.decode()
    assert "Follows you." in back and "Follow back" in back
    assert relate(ben_page, "ana", "follow") == 302
    assert "You are friends." in ben_page.get("/players/ana/").content.decode()

    assert relate(ben_page, "ana", "block") == 302
    assert not follows(ana, ben) and not follows(ben, ana)
    blocked = ben_page.get("/players/ana/").content.decode()
    assert 'data-testid="unblock-button"' in blocked
    assert 'data-testid="follow-button"' not in blocked
    assert relate(ana_page, "ben", "follow") == 302  # refused, with a message on the page
    assert not follows(ana, ben)
    assert relate(ben_page, "ana", "unblock") == 302
    assert not Block.objects.exists()


def test_a_relation_needs_a_known_action_a_sign_in_and_someone_else(
    make_player: Callable[..., Player],
) -> None:
    ana, _ben = make_player("ana"), make_player("ben")
    page = browser(ana)
    assert relate(page, "ben", "befriend") == 400
    assert relate(page, "ana", "follow") == 302  # oneself: refused with a message
    assert relate(page, "nobody", "follow") == 302
    assert relate(Client(), "ben", "follow") == 302  # to the login page
    assert page.get("/players/ben/relation/").status_code == 405
    assert not Follow.objects.exists()
    assert 'data-testid="follow-button"' not in page.get("/players/ana/").content.decode()


def test_the_friends_page_shows_friends_their_tables_and_what_is_half_made(
    make_player: Callable[..., Player],
) -> None:
    ana, ben, cleo, dan = (make_player(name) for name in ("ana", "ben", "cleo", "dan"))
    for one, other in ((ana, ben), (ben, ana), (cleo, ana), (ana, dan)):
        assert relate(browser(one), other.username, "follow") == 302
    ben_table = create_game(ben, seats=3)["id"]
    page = browser(ana)
    friends = page.get("/friends/").content.decode()
    assert 'data-testid="friend-ben"' in friends and f"/games/{ben_table}/" in friends
    assert 'data-testid="friend-cleo"' not in friends  # cleo follows ana: not yet a friend
    assert 'data-testid="follow-cleo"' in friends and 'data-testid="unfollow-dan"' in friends
    assert "data-invite-game" not in friends  # ana sits at no table to invite ben to

    ana_table = create_game(ana, seats=4)["id"]
    friends = page.get("/friends/").content.decode()
    assert f'data-invite-game="{ana_table}" data-invite-user="ben"' in friends
    lobby = page.get("/lobby/").content.decode()
    assert 'data-testid="friends-panel"' in lobby and 'data-testid="friend-ben"' in lobby
    table = page.get(f"/games/{ana_table}/").content.decode()
    assert 'data-testid="invite-friend-ben"' in table  # the waiting room invites too


def test_finding_a_player_opens_their_profile(make_player: Callable[..., Player]) -> None:
    ana, _ben = make_player("ana"), make_player("Ben")
    page = browser(ana)
    response = page.get("/friends/", {"find": "ben"})
    assert response.status_code == 302 and response["Location"] == "/players/Ben/"
    missing = page.get("/friends/", {"find": "nobody"}, follow=True).content.decode()
    assert "There is no player nobody." in missing
    assert Client().get("/friends/").status_code == 302


def test_the_table_offers_preset_chat_and_the_lobby_shows_a_minimum_reliability(
    make_player: Callable[..., Player],
) -> None:
    host = make_player("host")
    game_id = create_game(host, seats=3, min_reliability=70)["id"]
    table = browser(host).get(f"/games/{game_id}/").content.decode()
    assert 'data-testid="chat-preset-good_luck"' in table and "Good luck!" in table
    assert "reliability 70% or more" in Client().get("/lobby/").content.decode()
    spanish = Client(headers={"accept-language": "es"})
    presets = spanish.get(f"{API}/chat/presets/").json()
    assert {"key": "good_luck", "text": "¡Buena suerte!"} in presets


def test_find_a_player_lists_names_starting_so_in_any_case_page_by_page(
    make_player: Callable[..., Player],
) -> None:
    me = make_player()
    for name in ("Alicia", "alina", "bob_ali"):
        User.objects.create_user(name)
    for n in range(25):
        User.objects.create_user(f"zeta{n:02d}")
    page = browser(me)
    found = page.get("/friends/?find=ALI").content.decode()
    listed = found.split('data-testid="found-players"')[1].split("</ul>")[0]
    assert "Alicia" in listed and "alina" in listed and "bob_ali" not in listed
    exact = page.get("/friends/?find=alicia")
    assert exact.status_code == 302 and exact["Location"] == "/players/Alicia/"
    first = page.get("/friends/?find=zeta").content.decode()
    assert first.count('href="/players/zeta') == 20 and "Page 1 of 2" in first
    second = page.get("/friends/?find=zeta&page=2").content.decode()
    assert second.count('href="/players/zeta') == 5 and "zeta24" in second
    nobody = page.get("/friends/?find=qqq", follow=True).content.decode()
    assert "There is no player qqq." in nobody
