"""The report queue on one screen: the admin's index counts the open reports; a report's page
shows the message in its chat (ten messages around it), links to the game and the player, the
player's record, and answers each report in one step after a reason, then opens the next."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db.models import F
from django.test import Client
from django.utils import timezone

from accounts.models import Suspension
from games.models import ChatMessage, Game
from moderation.models import Report, ReportStatus
from notifications.models import Notice, NoticeKind
from tests.games.helpers import Player
from tests.moderation.helpers import audit_rows, chat, report

pytestmark = pytest.mark.django_db

QUEUE = "/admin/moderation/report/"


def page(report_id: int) -> str:
    return f"{QUEUE}{report_id}/change/"


def answer_url(report_id: int) -> str:
    return f"{QUEUE}{report_id}/answer/"


def say(player: Player, game_id: int, text: str) -> int:
    response = chat(player, game_id, text)
    assert response.status_code == 201, response.content
    # Said a minute earlier: twelve lines in a row stay within the chat's rate (5 in 10 s).
    ChatMessage.objects.update(created_at=F("created_at") - timedelta(minutes=1))
    return int(response.json()["id"])


@pytest.fixture
def insult(running: Game, players: list[Player]) -> tuple[Report, list[int]]:
    """Twelve chat lines at the table, the seventh an insult by players[1] that players[0]
    reports; the report and the lines' ids."""
    ids = []
    for n in range(12):
        speaker = players[1] if n == 6 else players[n % 2 * 2]
        ids.append(say(speaker, running.pk, "you are all idiots" if n == 6 else f"line {n}"))
    response = report(
        players[0], username=players[1].username, message_id=ids[6], category="insult"
    )
    assert response.status_code == 201, response.content
    return Report.objects.get(pk=response.json()["id"]), ids


def test_the_admin_index_counts_the_open_reports_for_moderators_only(
    mod_client: Client, staff_client: Client, insult: tuple[Report, list[int]]
) -> None:
    index = mod_client.get("/admin/").content.decode()
    assert 'data-testid="report-queue-count">1<' in index
    assert f'href="{QUEUE}?status__exact=open"' in index
    assert "report-queue" not in staff_client.get("/admin/").content.decode()


def test_the_queue_lists_open_reports_oldest_first(
    mod_client: Client, players: list[Player], insult: tuple[Report, list[int]]
) -> None:
    first, _ = insult
    later = report(players[2], username=players[1].username, category="spam").json()["id"]
    Report.objects.filter(pk=later).update(created_at=first.created_at + timedelta(minutes=1))
    listed = mod_client.get(QUEUE, {"status__exact": "open"}).content.decode()
    assert listed.index(page(first.pk)) < listed.index(page(later))


def test_a_reports_page_shows_the_chat_around_it_and_the_players_record(
    mod_client: Client, running: Game, players: list[Player], insult: tuple[Report, list[int]]
) -> None:
    the_report, _ = insult
    earlier = report(players[2], username=players[1].username, category="cheating").json()["id"]
    Report.objects.filter(pk=earlier).update(status=ReportStatus.RESOLVED, resolution="warned")

    shown = mod_client.get(page(the_report.pk)).content.decode()

    transcript = shown[shown.index('data-testid="report-transcript"') :]
    transcript = transcript[: transcript.index("</ol>")]
    assert [f"line {n}" in transcript for n in range(12) if n != 6] == [
        n != 0
        for n in range(12)
        if n != 6  # five before it (1-5), five after (7-11)
    ]
    assert 'data-testid="report-reported-message"' in transcript
    assert "you are all idiots" in transcript
    assert f'href="/games/{running.pk}/"' in shown  # a running game: its table, not a replay
    assert f'href="/players/{players[1].username}/"' in shown
    record = shown[shown.index('data-testid="report-record"') :]
    assert f"{QUEUE}{earlier}/change/" in record and "Cheating or collusion" in record
    assert "not known yet" in record  # reliability after no finished game
    assert running.seed not in shown  # the seed stays secret until the game ends


@pytest.mark.parametrize(
    "answer, resolution",
    [
        ("dismiss", "dismissed: seen"),
        ("hide", "message hidden: seen"),
        ("warn", "warned: seen"),
        ("suspend_1", "suspended 1 days: seen"),
        ("suspend_7", "suspended 7 days: seen"),
        ("suspend_30", "suspended 30 days: seen"),
        ("ban", "banned: seen"),
    ],
)
def test_each_answer_takes_one_step(
    answer: str,
    resolution: str,
    mod_client: Client,
    moderator: User,
    players: list[Player],
    insult: tuple[Report, list[int]],
) -> None:
    the_report, ids = insult
    started = timezone.now()

    response = mod_client.post(
        answer_url(the_report.pk), {"answer": answer, "reason": "seen", "hide_message": "1"}
    )

    assert response.status_code == 302
    the_report.refresh_from_db()
    assert (the_report.status, the_report.resolution) == (ReportStatus.RESOLVED, resolution)
    assert the_report.resolved_by == moderator
    hidden = ChatMessage.objects.get(pk=ids[6]).hidden
    assert hidden == (answer not in ("dismiss", "warn"))
    suspension = Suspension.objects.filter(user_id=players[1].user_id).first()
    if answer.startswith("suspend_"):
        days = timedelta(days=int(answer.split("_")[1]))
        assert suspension is not None and suspension.until is not None
        assert started + days <= suspension.until <= timezone.now() + days
    elif answer == "ban":
        assert suspension is not None and suspension.banned
    else:
        assert suspension is None
    warned = Notice.objects.filter(user_id=players[1].user_id, kind=NoticeKind.WARNING)
    assert [n.params for n in warned] == ([{"reason": "seen"}] if answer == "warn" else [])
    assert ("warn" in [row[1] for row in audit_rows()]) == (answer == "warn")


def test_a_suspension_may_leave_the_message_shown(
    mod_client: Client, insult: tuple[Report, list[int]]
) -> None:
    the_report, ids = insult
    mod_client.post(answer_url(the_report.pk), {"answer": "suspend_7", "reason": "seen"})
    assert Suspension.objects.filter(user_id=the_report.reported_id).exists()
    assert not ChatMessage.objects.get(pk=ids[6]).hidden


def test_after_an_answer_the_next_open_report_opens(
    mod_client: Client, players: list[Player], insult: tuple[Report, list[int]]
) -> None:
    the_report, _ = insult
    later = report(players[2], username=players[0].username, category="spam").json()["id"]
    done = mod_client.post(answer_url(the_report.pk), {"answer": "dismiss", "reason": "ok"})
    assert done["Location"] == page(later)
    last = mod_client.post(answer_url(later), {"answer": "dismiss", "reason": "ok"})
    assert last["Location"] == f"{QUEUE}?status__exact=open"


@pytest.mark.parametrize(
    "body",
    [
        {"answer": "suspend_7", "reason": ""},
        {"answer": "suspend_7", "reason": "   "},
        {"answer": "suspend_7", "reason": "bad\x00"},
        {"answer": "suspend_7"},
        {"answer": "suspend_365", "reason": "seen"},
        {"reason": "seen"},
    ],
    ids=["no reason", "blank", "nul", "missing reason", "unknown answer", "no answer"],
)
def test_an_answer_needs_one_of_the_answers_and_a_reason(
    body: dict[str, str], mod_client: Client, insult: tuple[Report, list[int]]
) -> None:
    the_report, ids = insult
    response = mod_client.post(answer_url(the_report.pk), body)
    assert response.status_code == 302 and response["Location"] == page(the_report.pk)
    the_report.refresh_from_db()
    assert the_report.status == ReportStatus.OPEN
    assert not Suspension.objects.exists() and not ChatMessage.objects.get(pk=ids[6]).hidden
    assert audit_rows() == []


def test_only_moderators_answer_and_only_open_reports_by_post(
    mod_client: Client, staff_client: Client, insult: tuple[Report, list[int]]
) -> None:
    the_report, _ = insult
    refused = staff_client.post(answer_url(the_report.pk), {"answer": "ban", "reason": "x"})
    assert refused.status_code in (302, 403)
    assert mod_client.get(answer_url(the_report.pk)).status_code == 405
    assert not Suspension.objects.exists()
    mod_client.post(answer_url(the_report.pk), {"answer": "dismiss", "reason": "ok"})
    again = mod_client.post(answer_url(the_report.pk), {"answer": "ban", "reason": "x"})
    assert again.status_code == 302 and not Suspension.objects.exists()
    assert mod_client.post(answer_url(10**9), {"answer": "ban", "reason": "x"}).status_code == 404
