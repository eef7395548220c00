"""Reports refuse NUL and unpaired surrogate characters, over the API and from the profile
page's plain form, before anything reaches the database (PostgreSQL refuses NUL)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client

from core.errors import Invalid
from moderation import services
from moderation.models import Report
from tests.games.helpers import API, Player, assert_error

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
