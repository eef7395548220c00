"""Times are written in the reader's time zone, as their browser's `tz` cookie names it (a
suspension's end on the log-in page, the dates of the moderators' admin); without the cookie,
or with a name that is no time zone, in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Suspension
from tests.games.helpers import PASSWORD, Player
from wizardsite.time_zone import zone_named

pytestmark = pytest.mark.django_db

END = datetime(2031, 1, 15, 21, 30, tzinfo=UTC)  # 22:30 in Madrid (CET), 16:30 in New York


def refused_log_in(player: Player, tz: str | None) -> str:
    browser = Client()
    if tz is not None:
        browser.cookies["tz"] = tz
    response = browser.post("/accounts/login/", {"username": player.username, "password": PASSWORD})
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def suspended(make_player: type[Player]) -> Player:
    player: Player = make_player()  # type: ignore[call-arg]
    Suspension.objects.create(user_id=player.user_id, until=END, reason="rude")
    return player


@pytest.mark.parametrize(
    "tz, shown",
    [
        ("Europe/Madrid", "10:30 p.m. (CET)"),
        ("America/New_York", "4:30 p.m. (EST)"),
        (None, "9:30 p.m. (UTC)"),
        ("Mars/Olympus_Mons", "9:30 p.m. (UTC)"),
        ("../../etc/passwd", "9:30 p.m. (UTC)"),
        ("", "9:30 p.m. (UTC)"),
    ],
)
def test_a_suspensions_end_is_written_in_the_readers_time_zone(
    suspended: Player, tz: str | None, shown: str
) -> None:
    assert shown in refused_log_in(suspended, tz)


def test_the_moderators_admin_writes_its_dates_in_their_zone(
    mod_client: Client, suspended: Player
) -> None:
    mod_client.cookies["tz"] = "Europe/Madrid"
    page = mod_client.get("/admin/accounts/suspension/").content.decode()
    assert "10:30 p.m." in page and "9:30 p.m." not in page


def test_only_time_zone_names_are_zones() -> None:
    assert zone_named("Europe/Zagreb") is not None
    for name in ("", "nowhere", "/etc/localtime", "x" * 100, "Europe/../../etc"):
        assert zone_named(name) is None


@pytest.fixture
def mod_client(db: None) -> Client:
    moderator = User.objects.create_user("mod", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(moderator)
    return client
