"""A deleted account's chat lines that a report points at stay readable to the moderators
while a report on them is open: deleting the account cannot erase the evidence before review.
When the last open report on a line closes, its text goes as the deletion would have taken it;
the deletion page says so in every language."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import translation

from games.models import ChatMessage
from moderation import services as moderation
from moderation.models import Report
from privacy import services as privacy
from tests.games.helpers import API, PASSWORD, Player, game_url, race, seat_players
from tests.moderation.helpers import run_action

pytestmark = pytest.mark.django_db


@dataclass
class Table:
    mara: Player  # writes, is reported, deletes her account
    ana: Player
    bob: Player
    insult: int  # mara's line the others report
    other: int  # mara's line nobody reports


@pytest.fixture
def table(make_player: Callable[..., Player]) -> Table:
    mara, ana, bob = (make_player(name) for name in ("mara", "ana", "bob"))
    game_id = seat_players([mara, ana, bob])
    lines = [
        mara.client.post(game_url(game_id, "chat"), {"text": text}, format="json").json()["id"]
        for text in ("you are all fools", "good luck")
    ]
    return Table(mara, ana, bob, *lines)


def report(player: Player, message_id: int) -> int:
    body = {"username": "mara", "message_id": message_id, "reason": "insult"}
    response = player.client.post(f"{API}/reports/", body, format="json")
    assert response.status_code == 201, response.content
    return Report.objects.filter(reporter_id=player.user_id).latest("pk").pk


def delete_mara(table: Table) -> None:
    response = table.mara.client.delete(
        f"{API}/accounts/me/", {"password": PASSWORD}, format="json"
    )
    assert response.status_code == 204, response.content


def dismiss(superuser: User, report_id: int) -> None:
    client = Client()
    client.force_login(superuser)
    response = run_action(client, "report", "dismiss", [report_id], reason="seen")
    assert response.status_code == 302
    assert Report.objects.get(pk=report_id).status == "resolved"


def text_of(message_id: int) -> tuple[str, str] | None:
    return ChatMessage.objects.filter(pk=message_id).values_list("text", "preset").first()


def test_a_reported_line_keeps_its_text_until_its_report_is_closed(
    table: Table, superuser: User
) -> None:
    reported = report(table.ana, table.insult)
    delete_mara(table)
    assert text_of(table.insult) == ("you are all fools", "")
    assert text_of(table.other) is None  # nobody reported it: gone with the account
    page = Client()
    page.force_login(superuser)
    shown = page.get(f"/admin/moderation/report/{reported}/change/").content.decode()
    assert "you are all fools" in shown
    dismiss(superuser, reported)
    assert text_of(table.insult) == ("", "")


def test_the_players_never_read_a_kept_line_of_a_deleted_account(table: Table) -> None:
    report(table.ana, table.insult)
    delete_mara(table)
    assert text_of(table.insult) == ("you are all fools", "")  # kept for the moderators
    game_id = ChatMessage.objects.get(pk=table.insult).game_id
    for player in (table.ana, table.bob):
        response = player.client.get(game_url(game_id, "chat"))
        assert response.status_code == 200
        shown = [m for m in response.json()["results"] if m["id"] == table.insult]
        assert [m["text"] for m in shown] == [""], shown


def test_the_text_goes_when_the_last_open_report_on_it_closes(
    table: Table, superuser: User
) -> None:
    first, second = report(table.ana, table.insult), report(table.bob, table.insult)
    delete_mara(table)
    dismiss(superuser, first)
    assert text_of(table.insult) == ("you are all fools", "")
    dismiss(superuser, second)
    assert text_of(table.insult) == ("", "")


def test_a_line_whose_report_was_closed_before_the_deletion_loses_its_text_with_it(
    table: Table, superuser: User
) -> None:
    dismiss(superuser, report(table.ana, table.insult))
    delete_mara(table)
    assert text_of(table.insult) == ("", "")


def test_closing_a_report_on_a_living_players_line_keeps_its_text(
    table: Table, superuser: User
) -> None:
    dismiss(superuser, report(table.ana, table.insult))
    assert text_of(table.insult) == ("you are all fools", "")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_report_closed_while_the_account_is_being_deleted_still_takes_the_text(
    table: Table, superuser: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deletion has kept the line (its report was open) and not yet committed when the
    report is closed: the closing must wait for it and then blank the line."""
    reported = Report.objects.get(pk=report(table.ana, table.insult))
    kept = threading.Event()
    forget = privacy.notifications_forget

    def slow_forget(**kwargs: Any) -> None:
        kept.set()  # the chat is done: the line kept, the transaction still open
        closing_waits()  # commit only once the closing waits on a lock, if it ever does
        forget(**kwargs)

    monkeypatch.setattr(privacy, "notifications_forget", slow_forget)

    def closing_waits() -> None:
        """Until another backend of this database waits on a lock (the closing, held up by
        the deletion's lock on the author's row), for 10 s at most: without that lock the
        closing never waits, finishes first and misses the kept line."""
        with connection.cursor() as cursor:
            for _ in range(500):
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    " AND wait_event_type = 'Lock'"
                )
                if cursor.fetchone()[0]:
                    return
                time.sleep(0.02)

    def close() -> None:
        assert kept.wait(timeout=10)
        moderation.report_resolve(moderator=superuser, report=reported, resolution="seen")

    race([lambda: delete_mara(table), close])
    assert Report.objects.get(pk=reported.pk).status == "resolved"
    assert text_of(table.insult) == ("", "")


@pytest.mark.parametrize("language", ["en", "es", "cs", "hr"])
def test_the_deletion_page_says_a_reported_line_stays_until_its_report_is_closed(
    table: Table, language: str
) -> None:
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    browser.force_login(User.objects.get(pk=table.mara.user_id))
    page = browser.get("/accounts/delete/").content.decode()
    with translation.override(language):
        said = translation.gettext(KEPT_WHILE_REPORTED)
    assert said in page
    assert language == "en" or said != KEPT_WHILE_REPORTED


KEPT_WHILE_REPORTED = (
    "A chat line someone has reported keeps its text, for the moderators only, until they "
    "have closed the report; then its text goes too."
)
