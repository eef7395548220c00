"""Players report players (POST /api/v1/reports/), optionally naming one of their messages,
with a category and an optional note: the report lands in the moderators' queue; bad reports
are refused, floods are limited."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game
from moderation.models import Report, ReportCategory, ReportStatus
from tests.games.helpers import API, Player, assert_error
from tests.moderation.helpers import chat, report

pytestmark = pytest.mark.django_db


def test_a_report_of_a_player_is_queued(players: list[Player]) -> None:
    response = report(players[0], username=players[1].username, reason="  rude in chat  ")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "open"
    row = Report.objects.get(pk=body["id"])
    assert (row.reporter_id, row.reported_id, row.message_id) == (
        players[0].user_id,
        players[1].user_id,
        None,
    )
    assert row.reason == "rude in chat" and row.status == ReportStatus.OPEN
    assert row.category == ReportCategory.OTHER  # an older client names none


@pytest.mark.parametrize("category", ["insult", "cheating", "spam", "other"])
def test_a_report_says_what_it_is_about_and_needs_no_note(
    category: str, players: list[Player]
) -> None:
    response = report(players[0], username=players[1].username, category=category)

    assert response.status_code == 201, response.content
    row = Report.objects.get(pk=response.json()["id"])
    assert (row.category, row.reason) == (category, "")


def test_a_report_may_name_one_of_that_players_messages(
    running: Game, players: list[Player]
) -> None:
    message = chat(players[1], running.pk, "you are terrible").json()
    response = report(
        players[0], username=players[1].username, message_id=message["id"], reason="insult"
    )
    assert response.status_code == 201, response.content
    assert Report.objects.get(pk=response.json()["id"]).message_id == message["id"]


def test_a_message_of_someone_else_cannot_be_pinned_on_the_player(
    running: Game, players: list[Player]
) -> None:
    not_theirs = chat(players[2], running.pk, "hello").json()
    error = assert_error(
        report(players[0], username=players[1].username, message_id=not_theirs["id"], reason="x"),
        404,
        "not_found",
    )
    assert "message_id" in error["fields"]
    assert_error(
        report(players[0], username=players[1].username, message_id=10**9, reason="x"),
        404,
        "not_found",
    )
    assert not Report.objects.exists()


def test_a_stranger_learns_nothing_of_who_wrote_a_message(
    running: Game, players: list[Player], make_player: Callable[..., Player]
) -> None:
    """The real author, another player of the table and an unknown id get the same answer:
    naming each in turn cannot tell a stranger who wrote the message."""
    said = chat(players[1], running.pk, "secret plans").json()
    stranger = make_player()
    answers = [
        report(stranger, username=username, message_id=message_id, reason="x")
        for username, message_id in [
            (players[1].username, said["id"]),  # the author
            (players[2].username, said["id"]),  # someone else at the table
            (players[1].username, said["id"] + 1000),  # no such message
        ]
    ]
    assert {a.status_code for a in answers} == {404}
    assert len({a.content for a in answers}) == 1
    assert not Report.objects.exists()


def test_an_unknown_player_is_not_found(players: list[Player]) -> None:
    assert_error(report(players[0], username="nobody-here", reason="x"), 404, "not_found")
    assert not Report.objects.exists()


def test_nobody_reports_themselves(players: list[Player]) -> None:
    assert_error(report(players[0], username=players[0].username, reason="x"), 400, "invalid")
    assert not Report.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"reason": "x" * 1001},
        {"reason": 5},
        {"reason": None},
        {"category": "rude"},
        {"category": 1},
        {"category": ["insult"]},
        {"category": None},
        {"reason": "x", "username": 5},
        {"reason": "x", "message_id": "first"},
    ],
    ids=[
        "too long",
        "number",
        "null note",
        "unknown category",
        "category number",
        "category list",
        "null category",
        "username number",
        "bad id",
    ],
)
def test_a_report_needs_well_formed_fields(body: dict[str, Any], players: list[Player]) -> None:
    body = {"username": players[1].username, **body}
    assert_error(report(players[0], **body), 400, "invalid")
    assert not Report.objects.exists()


def test_an_anonymous_caller_cannot_report(players: list[Player]) -> None:
    response = APIClient().post(
        f"{API}/reports/", {"username": players[1].username, "reason": "x"}, format="json"
    )
    assert_error(response, 401, "not_authenticated")


def test_more_than_ten_reports_an_hour_are_rate_limited(
    players: list[Player], make_player: Callable[..., Player]
) -> None:
    for n in range(10):
        response = report(players[0], username=players[1 + n % 2].username, reason=f"r{n}")
        assert response.status_code == 201, response.content
    assert_error(
        report(players[0], username=players[1].username, reason="r10"), 429, "rate_limited"
    )
    assert Report.objects.count() == 10
    assert report(players[1], username=players[0].username, reason="back").status_code == 201

    # An hour later the earlier reports no longer count.
    Report.objects.filter(reporter_id=players[0].user_id).update(
        created_at=timezone.now() - timedelta(hours=1, minutes=1)
    )
    assert report(players[0], username=players[1].username, reason="again").status_code == 201
