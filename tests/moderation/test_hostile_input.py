"""Reports and moderators' reasons refuse NUL and unpaired surrogate characters, over the API,
from the profile page's plain form and in the admin, before anything reaches the database
(PostgreSQL refuses NUL)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client

from core.errors import Invalid
from games.models import Game, GameStatus
from moderation import services
from moderation.models import AuditLog, Report
from tests.games.helpers import API, Player, assert_error
from tests.moderation.helpers import run_action

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("reason", ["\\u0000", "rude\\ud800"])
def test_an_api_report_with_refused_characters_is_invalid(
    players: list[Player], reason: str
) -> None:
    body = f'{{"username": "{players[1].username}", "reason": "{reason}"}}'
    response = players[0].client.generic(
        "POST", f"{API}/reports/", body, content_type="application/json"
    )
    assert_error(response, 400, "invalid")
    assert not Report.objects.exists()


def test_the_profile_report_form_refuses_a_nul_in_its_reason(players: list[Player]) -> None:
    browser = Client()
    browser.force_login(User.objects.get(pk=players[0].user_id))
    response = browser.post(f"/players/{players[1].username}/report/", {"reason": "rude\x00"})
    assert response.status_code == 302
    assert not Report.objects.exists()
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["error"]


@pytest.mark.parametrize("category", ["rude", "", "\x00"])
def test_the_profile_report_form_refuses_a_category_it_does_not_offer(
    players: list[Player], category: str
) -> None:
    browser = Client()
    browser.force_login(User.objects.get(pk=players[0].user_id))
    url = f"/players/{players[1].username}/report/"
    response = browser.post(url, {"category": category, "reason": "x"})
    assert response.status_code == 302
    assert not Report.objects.exists()
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["error"]


def test_the_profile_report_form_sends_its_category_and_note(players: list[Player]) -> None:
    browser = Client()
    browser.force_login(User.objects.get(pk=players[0].user_id))
    page = browser.get(f"/players/{players[1].username}/").content.decode()
    assert 'data-testid="report-category-cheating"' in page
    url = f"/players/{players[1].username}/report/"
    response = browser.post(url, {"category": "cheating", "reason": ""})
    assert response.status_code == 302
    assert Report.objects.get().category == "cheating"
    assert [m.level_tag for m in get_messages(response.wsgi_request)] == ["success"]


@pytest.mark.parametrize("field", ["reason", "username"])
@pytest.mark.parametrize("refused", ["\x00", "\ud800"])
def test_report_create_refuses_refused_characters_itself(
    players: list[Player], field: str, refused: str
) -> None:
    fields = {"username": players[1].username, "reason": "rude"}
    fields[field] += refused
    reporter = User.objects.get(pk=players[0].user_id)
    with pytest.raises(Invalid) as refusal:
        services.report_create(reporter=reporter, **fields)
    assert refusal.value.fields == {field: ["refused character"]}
    assert not Report.objects.exists()


def test_an_admin_action_with_a_nul_in_its_reason_asks_again_and_changes_nothing(
    mod_client: Client, running: Game
) -> None:
    response = run_action(mod_client, "game", "abort", [running.pk], reason="stuck\x00")
    assert response.status_code == 200  # the reason page again
    assert response.context["missing_reason"]
    assert Game.objects.get(pk=running.pk).status == GameStatus.ACTIVE
    assert not AuditLog.objects.exists()


def test_the_audit_log_refuses_refused_characters_itself(moderator: User, running: Game) -> None:
    with pytest.raises(Invalid):
        services.audit(moderator=moderator, action="abort game", target=running, reason="a\x00")
    assert not AuditLog.objects.exists()
