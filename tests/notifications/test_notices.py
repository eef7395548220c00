"""Notices (API.md "Notices and games to watch"): a follow, an invitation, a rematch, a
tournament table and a lifted suspension each leave one for its player, in their language
when read; listed newest first, marked read by id or all at once, over REST and on the page."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from moderation import services as moderation_services
from notifications.models import Notice
from tests.games.helpers import API, Player, assert_error, create_game, game_url
from tests.league.helpers import finish_game
from tests.tournaments.helpers import create_tournament, join, running_games, tournament_url

pytestmark = pytest.mark.django_db

NOTICES = f"{API}/notices/"


def notices(player: Player, query: str = "", **headers: Any) -> list[dict[str, Any]]:
    response = player.client.get(NOTICES + query, **headers)
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    results: list[dict[str, Any]] = body["results"]
    return results


def follow(follower: Player, followed: Player) -> None:
    response = follower.client.post(f"{API}/players/{followed.username}/follow/")
    assert response.status_code == 204, response.content


def test_a_follow_an_invitation_and_a_tournament_table_each_leave_a_notice(
    make_player: Callable[..., Player],
) -> None:
    ana, ben, cy = make_player(), make_player(), make_player()
    follow(ben, ana)
    follow(ben, ana)  # again: harmless, no second notice
    [followed] = notices(ana)
    assert followed["kind"] == "follow" and followed["read"] is False
    assert followed["text"] == f"{ben.username} follows you."
    assert followed["url"] == f"/players/{ben.username}/"
    assert set(followed) == {"id", "kind", "text", "url", "created_at", "read"}

    follow(ana, ben)  # friends now: ana may invite ben
    game_id = create_game(ana, seats=3)["id"]
    invited = ana.client.post(
        game_url(game_id, "invite"), {"username": ben.username}, format="json"
    )
    assert invited.status_code == 204, invited.content
    newest = notices(ben)[0]
    assert newest["kind"] == "invite" and newest["url"] == f"/games/{game_id}/"
    assert newest["text"] == f"{ana.username} invites you to table {game_id}."
    spanish = notices(ben, HTTP_ACCEPT_LANGUAGE="es")[0]["text"]
    assert spanish != newest["text"] and str(game_id) in spanish  # written when read

    created = create_tournament(ana, table_size=3, rounds=1)
    for player in (ana, ben, cy):
        assert join(player, created["id"]).status_code == 200
    assert ana.client.post(tournament_url(created["id"], "start")).status_code == 200
    [game] = running_games(created["id"])
    for player in (ana, ben, cy):
        table = notices(player, "?kind=tournament_table")[0]
        assert table["url"] == f"/games/{game.pk}/"
        assert table["text"] == f"Friday night, round 1: your table {game.pk} is ready."


def test_a_rematch_and_a_lifted_suspension_leave_a_notice(
    make_player: Callable[..., Player],
) -> None:
    ana, ben = make_player(), make_player()
    users = [User.objects.get(pk=p.user_id) for p in (ana, ben)]
    finished = finish_game([*users, None], [30, 10, 0])
    browser = Client()
    browser.force_login(users[0])
    assert browser.post(f"/games/{finished.pk}/rematch/").status_code == 302
    [rematch] = notices(ben, "?kind=rematch")
    assert rematch["text"].startswith(f"{ana.username} asks for a rematch: table ")
    assert notices(ana, "?kind=rematch") == []  # the one who asked hears nothing

    staff = User.objects.create_superuser("mod", "mod@example.com", "x")
    until = timezone.now() + timedelta(days=1)
    moderation_services.user_suspend(moderator=staff, user=users[1], until=until, reason="insult")
    moderation_services.user_unsuspend(moderator=staff, user=users[1])
    assert notices(ben)[0]["kind"] == "suspension"


def test_notices_are_marked_read_by_id_or_all_and_others_change_nothing(
    make_player: Callable[..., Player],
) -> None:
    ana, ben, cy = make_player(), make_player(), make_player()
    follow(ben, ana)
    follow(cy, ana)
    follow(ana, ben)
    mine = [n["id"] for n in notices(ana)]
    assert len(mine) == 2 and mine[0] > mine[1]  # newest first
    theirs = notices(ben)[0]["id"]

    response = ana.client.post(f"{NOTICES}read/", {"ids": [mine[1], theirs]}, format="json")
    assert response.status_code == 204, response.content
    assert [n["id"] for n in notices(ana, "?unread=true")] == [mine[0]]
    assert notices(ben)[0]["read"] is False  # another's id changed nothing
    assert ana.client.post(f"{NOTICES}read/", {"all": True}, format="json").status_code == 204
    assert notices(ana, "?unread=true") == []

    for body in (
        {},
        {"ids": []},
        {"ids": ["1"]},
        {"all": False},
        {"ids": [1], "all": True},
        {"all": "yes"},
        {"ids": [0]},
        {"other": 1},
        [1],
    ):
        before = list(Notice.objects.values_list("pk", "read"))
        answer = ben.client.post(f"{NOTICES}read/", body, format="json")
        assert_error(answer, 400, "invalid")
        assert list(Notice.objects.values_list("pk", "read")) == before
    assert_error(ben.client.get(f"{NOTICES}?kind=nothing"), 400, "invalid")
    assert_error(ben.client.get(f"{NOTICES}?unread=perhaps"), 400, "invalid")
    assert_error(Client().get(NOTICES), 401, "not_authenticated")


def test_the_notices_page_lists_them_and_a_click_opens_one_read(
    make_player: Callable[..., Player],
) -> None:
    ana, ben = make_player(), make_player()
    follow(ben, ana)
    browser = Client()
    browser.force_login(User.objects.get(pk=ana.user_id))
    page = browser.get("/notices/").content.decode()
    assert f"{ben.username} follows you." in page and 'data-read="false"' in page
    [notice] = notices(ana)
    opened = browser.get(f"/notices/{notice['id']}/")
    assert opened.status_code == 302 and opened["Location"] == f"/players/{ben.username}/"
    assert notices(ana)[0]["read"] is True
    stranger = Client()
    stranger.force_login(User.objects.get(pk=ben.user_id))
    assert stranger.get(f"/notices/{notice['id']}/").status_code == 404  # not theirs
    follow(ben, ana)
    Notice.objects.update(read=False)
    assert browser.post("/notices/").status_code == 302  # mark all read
    assert all(n["read"] for n in notices(ana))
