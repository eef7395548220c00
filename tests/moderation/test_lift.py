"""Lifting a sanction obeys the rule of imposing one: a moderator who may not ban staff may not
lift a superuser's ban on staff either, by any path (the service, the user list's "lift"
action, the suspension's delete page, its bulk delete, its change form). A refused lift leaves
the ban in force and nothing in the audit log."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client

from accounts.models import Suspension
from core.errors import Forbidden
from moderation import services as moderation
from moderation.models import AuditLog
from tests.games.helpers import Player
from tests.moderation.helpers import audit_rows, run_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def banned_colleague(superuser: User) -> Suspension:
    """A staff member banned by a superuser; the audit log starts empty."""
    colleague = User.objects.create_user("colleague", "colleague@example.com", "x", is_staff=True)
    suspension = moderation.user_suspend(
        moderator=superuser, user=colleague, reason="leaked hands", banned=True
    )
    AuditLog.objects.all().delete()
    return suspension


@pytest.fixture
def super_client(superuser: User) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


def assert_ban_stands(suspension: Suspension) -> None:
    assert Suspension.objects.get(pk=suspension.pk).banned
    assert audit_rows() == []


def test_the_service_refuses_a_moderator_lifting_a_ban_on_staff(
    moderator: User, banned_colleague: Suspension
) -> None:
    with pytest.raises(Forbidden):
        moderation.user_unsuspend(moderator=moderator, user=banned_colleague.user, reason="x")
    assert_ban_stands(banned_colleague)


def test_the_service_lets_a_superuser_lift_it(
    superuser: User, banned_colleague: Suspension
) -> None:
    moderation.user_unsuspend(moderator=superuser, user=banned_colleague.user, reason="appeal")
    assert not Suspension.objects.exists()
    user = str(banned_colleague.user.pk)
    assert audit_rows() == [(superuser.pk, "lift suspension", "auth.User", user, "appeal")]


def test_the_lift_action_refuses_staff_and_lifts_the_others_it_was_given(
    mod_client: Client,
    moderator: User,
    banned_colleague: Suspension,
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    player_user = User.objects.get(pk=player.user_id)
    moderation.user_suspend(moderator=moderator, user=player_user, reason="spam", banned=True)
    AuditLog.objects.all().delete()

    response = run_action(
        mod_client, "user", "lift", [banned_colleague.user.pk, player.user_id], reason="appeal"
    )

    assert response.status_code == 302
    assert Suspension.objects.get(pk=banned_colleague.pk).banned
    assert not Suspension.objects.filter(user_id=player.user_id).exists()
    assert audit_rows() == [
        (moderator.pk, "lift suspension", "auth.User", str(player.user_id), "appeal")
    ]
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("colleague" in m and "superuser" in m for m in said), said


def test_the_suspension_delete_page_refuses_a_moderator(
    mod_client: Client, banned_colleague: Suspension
) -> None:
    url = f"/admin/accounts/suspension/{banned_colleague.pk}/delete/"
    assert mod_client.get(url).status_code == 403
    assert mod_client.post(url, {"post": "yes"}).status_code == 403
    assert_ban_stands(banned_colleague)


def test_the_bulk_delete_of_suspensions_refuses_a_moderator(
    mod_client: Client, banned_colleague: Suspension
) -> None:
    response = mod_client.post(
        "/admin/accounts/suspension/",
        {"action": "delete_selected", "_selected_action": [banned_colleague.pk], "post": "yes"},
    )
    assert response.status_code in (200, 302, 403)
    assert_ban_stands(banned_colleague)


@pytest.mark.parametrize("moved_to_a_player", [False, True], ids=["same user", "other user"])
def test_the_suspension_change_form_refuses_a_moderator(
    moved_to_a_player: bool,
    mod_client: Client,
    banned_colleague: Suspension,
    make_player: Callable[..., Player],
) -> None:
    # Shortening the ban to an hour, or moving it onto a player: either takes it off staff.
    target = make_player().user_id if moved_to_a_player else banned_colleague.user.pk
    response = mod_client.post(
        f"/admin/accounts/suspension/{banned_colleague.pk}/change/",
        {"user": target, "until_0": "2099-01-01", "until_1": "00:00:00", "reason": "shorter"},
    )
    assert response.status_code in (200, 403)
    assert Suspension.objects.get(user=banned_colleague.user).banned
    assert audit_rows() == []


def test_a_superuser_may_delete_the_suspension_of_staff(
    super_client: Client, superuser: User, banned_colleague: Suspension
) -> None:
    response = super_client.post(
        f"/admin/accounts/suspension/{banned_colleague.pk}/delete/", {"post": "yes"}
    )
    assert response.status_code == 302
    assert not Suspension.objects.exists()
    user = str(banned_colleague.user.pk)
    assert audit_rows() == [(superuser.pk, "lift suspension", "auth.User", user, "lifted")]
