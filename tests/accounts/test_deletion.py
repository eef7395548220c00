"""`DELETE /api/v1/accounts/me/` and the page that does it: running games treat the seat as
resigned (R18), open tables are left, finished games, tournaments and the league keep the seat
under `deleted-<n>` with every rating unchanged; the person's data goes, and their name is
never handed out again."""

from __future__ import annotations

from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.management import call_command
from rest_framework.test import APIClient

from accounts.models import Block, Follow, RetiredUsername
from games.models import ChatMessage, Game, GameStatus, Invitation, Seat
from league.models import LeagueGame, RatingChange
from moderation.models import AuditLog, Report
from notifications.models import Device, NotificationSettings, PushSubscription
from tests.accounts.own_data import World, build
from tests.games.helpers import API, PASSWORD, Player, assert_error, register_player
from tests.league.helpers import snapshot
from tournaments.models import Entry

pytestmark = pytest.mark.django_db

ME = f"{API}/accounts/me/"


@pytest.fixture
def world(make_player: Callable[..., Player]) -> World:
    return build(make_player)


def delete_account(player: Player, body: Any) -> Any:
    return player.client.delete(ME, body, format="json")


def deleted(world: World) -> User:
    response = delete_account(world.me, {"password": PASSWORD})
    assert response.status_code == 204, response.content
    return User.objects.get(pk=world.me.user_id)


def seat(game_id: int, user_id: int) -> Seat | None:
    return Seat.objects.filter(game_id=game_id, user_id=user_id).first()


def test_running_games_treat_the_seat_as_resigned_and_open_tables_are_left(world: World) -> None:
    user = deleted(world)
    for game_id in (world.running, world.blind):
        mine = seat(game_id, user.pk)
        assert mine is not None and mine.resigned and mine.away  # R18, to the game's end
        assert Game.objects.get(pk=game_id).status == GameStatus.ACTIVE
    assert Game.objects.get(pk=world.with_bots).status == GameStatus.ABORTED  # as resign does
    assert seat(world.open_alone, user.pk) is None
    assert Game.objects.get(pk=world.open_alone).status == GameStatus.ABORTED
    assert seat(world.open_shared, user.pk) is None
    open_shared = Game.objects.get(pk=world.open_shared)
    assert open_shared.status == GameStatus.OPEN and seat(world.open_shared, world.ana.user_id)


def test_finished_games_tournaments_and_the_league_keep_the_seat_renamed(world: World) -> None:
    user = deleted(world)
    assert user.username == f"deleted-{user.pk}"
    assert not user.is_active and not user.has_usable_password() and user.email == ""
    finished = seat(world.finished, user.pk)
    assert finished is not None and finished.place is not None
    assert LeagueGame.objects.get(game_id=world.finished).counts
    assert RatingChange.objects.filter(user=user, game_id=world.finished).exists()
    entry = Entry.objects.get(tournament_id=world.tournament, user=user)
    assert entry.withdrawn  # T5: out of the rounds to come


def test_the_persons_data_is_gone_and_the_moderators_records_stay(world: World) -> None:
    browser = APIClient()
    browser.force_login(User.objects.get(pk=world.me.user_id))
    assert Session.objects.count() == 1
    Invitation.objects.create(
        game_id=world.open_shared, user_id=world.bob.user_id, sender_id=world.me.user_id
    )
    audit_rows = AuditLog.objects.count()
    user = deleted(world)

    assert_error(world.me.client.get(ME), 401, "not_authenticated")  # the token is gone
    assert browser.get("/accounts/email/").status_code == 302  # so is the session
    assert Session.objects.count() == 0
    assert not Follow.objects.filter(follower=user).exists()
    assert not Follow.objects.filter(followed=user).exists()
    assert not Block.objects.filter(blocker=user).exists()
    assert not PushSubscription.objects.filter(user=user).exists()
    assert not Device.objects.filter(user=user).exists()
    assert not NotificationSettings.objects.filter(user=user).exists()
    assert not Invitation.objects.filter(sender=user).exists()
    # The chat text is gone; the line an open report points at stays as it was, for the
    # moderators, until the report is closed (tests/accounts/test_deletion_evidence.py).
    assert list(ChatMessage.objects.filter(user=user).values_list("pk", "text")) == [
        (world.my_message, "good luck, mara speaking")
    ]
    assert ChatMessage.objects.get(pk=world.anas_message).text == "ana says hello"
    report = Report.objects.get(reported=user)
    assert report.message_id == world.my_message and report.reason == "ana's report"
    assert Report.objects.filter(reporter=user).exists()
    assert AuditLog.objects.count() == audit_rows
    assert RetiredUsername.objects.filter(username="mara").exists()


def test_every_rating_stands_and_a_rebuild_gives_the_same(world: World) -> None:
    before = snapshot()
    assert before["ratings"] and before["changes"]
    deleted(world)
    assert snapshot() == before
    call_command("rebuild_ratings", stdout=StringIO())
    assert snapshot() == before


def test_the_old_name_is_refused_at_sign_up_by_the_api_and_the_form(world: World) -> None:
    deleted(world)
    for name in ("mara", "MARA", f"deleted-{world.me.user_id}", "deleted-12345"):
        body = {"username": name, "password": PASSWORD, "email": f"new-{name}@example.com"}
        response = APIClient().post(f"{API}/accounts/register/", body, format="json")
        error = assert_error(response, 400, "invalid")
        assert set(error["fields"]) == {"username"}, name
    form = {"username": "mara", "email": "m2@example.com"}
    form |= {"password1": PASSWORD, "password2": PASSWORD}
    page = APIClient().post("/accounts/signup/", form)
    assert page.status_code == 200 and b"already taken" in page.content
    assert not User.objects.filter(username__iexact="mara").exists()
    assert register_player("mara2").username == "mara2"  # other names are free as before


def test_pages_where_the_deleted_player_appears_answer_without_error(
    world: World, superuser: User
) -> None:
    user = deleted(world)
    name = user.get_username()
    anyone = APIClient()
    assert anyone.get(f"/players/{name}/").status_code == 404  # no profile, page or API
    assert anyone.get("/players/mara/").status_code == 404
    assert_error(anyone.get(f"{API}/players/{name}/"), 404, "not_found")
    assert anyone.get("/players/ana/").status_code == 200
    assert_error(world.ana.client.post(f"{API}/players/{name}/follow/"), 404, "not_found")
    replay = anyone.get(f"/games/{world.finished}/replay/")
    assert replay.status_code == 200 and name.encode() in replay.content
    for game_id in (world.finished, world.running, world.with_bots):
        assert anyone.get(f"/games/{game_id}/").status_code == 200
        players = world.ana.view(game_id)["players"] if game_id != world.with_bots else None
        assert players is None or name in [player["username"] for player in players]
    assert anyone.get("/leaderboard/").status_code == 200
    board = anyone.get(f"{API}/league/leaderboard/").json()["results"]
    assert {row["username"] for row in board} == {"ana", "bob"}  # unlisted, rating kept
    assert board[0]["rank"] == 1
    assert anyone.get(f"/tournaments/{world.tournament}/").status_code == 200
    anyone.force_login(superuser)
    assert anyone.get("/admin/auth/user/").status_code == 200
    assert anyone.get(f"/admin/auth/user/{user.pk}/change/").status_code == 200
    assert anyone.get(f"/admin/games/game/{world.finished}/change/").status_code == 200


def test_a_wrong_or_missing_password_changes_nothing(world: World) -> None:
    error = assert_error(delete_account(world.me, {"password": "not-it"}), 400, "invalid")
    assert set(error["fields"]) == {"password"}
    error = assert_error(delete_account(world.me, {}), 400, "invalid")
    assert set(error["fields"]) == {"password"}
    assert_error(
        APIClient().delete(ME, {"password": PASSWORD}, format="json"), 401, "not_authenticated"
    )
    user = User.objects.get(pk=world.me.user_id)
    assert user.username == "mara" and user.is_active and user.check_password(PASSWORD)
    assert world.me.client.get(ME).status_code == 200
    assert not seat(world.running, user.pk).resigned  # type: ignore[union-attr]
    assert Follow.objects.filter(follower=user).exists()
    assert ChatMessage.objects.filter(user=user).count() == 2


def test_the_page_explains_asks_for_the_password_and_signs_out(world: World) -> None:
    browser = APIClient()
    browser.force_login(User.objects.get(pk=world.me.user_id))
    page = browser.get("/accounts/delete/")
    assert page.status_code == 200
    assert b"Reports about you" in page.content and f"deleted-{world.me.user_id}".encode() in (
        page.content
    )
    wrong = browser.post("/accounts/delete/", {"password": "not-it"})
    assert wrong.status_code == 200 and User.objects.get(pk=world.me.user_id).is_active
    done = browser.post("/accounts/delete/", {"password": PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/"
    assert not User.objects.get(pk=world.me.user_id).is_active
    assert browser.get("/accounts/delete/").status_code == 302  # signed out: to the log-in
    assert APIClient().get("/accounts/delete/").status_code == 302


def test_a_request_already_past_sign_in_cannot_seat_a_deleted_account(
    make_player: Callable[..., Player],
) -> None:
    """The services see the user the request authenticated before the deletion committed: the
    join, the new table and the rematch lock the account's row and find it gone (401)."""
    from core.errors import NotAuthenticated
    from games.services import tables

    host, leaving = make_player(), make_player()
    open_id = host.client.post(f"{API}/games/", {"seats": 3}, format="json").json()["id"]
    before_deletion = User.objects.get(pk=leaving.user_id)  # as the request's auth found it
    assert delete_account(leaving, {"password": PASSWORD}).status_code == 204
    games_before = Game.objects.count()
    with pytest.raises(NotAuthenticated):
        tables.game_join(game_id=open_id, user=before_deletion)
    with pytest.raises(NotAuthenticated):
        tables.game_create(user=before_deletion, seats=3)
    with pytest.raises(NotAuthenticated):
        tables.guided_game_start(user=before_deletion)
    assert Game.objects.count() == games_before
    assert not Seat.objects.filter(user_id=leaving.user_id).exists()
