"""What a moderator reads beside a report: the message in its chat, and the player's record."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone

from accounts.models import Suspension
from games.models import ChatMessage, GameStatus
from games.selectors import reliability
from moderation.models import AuditLog, Report, ReportStatus

AROUND = 5  # messages shown before and after the reported one: ten around it
SANCTIONS = ("warn", "suspend", "ban", "lift suspension")


@dataclass(frozen=True)
class Record:
    """The reported player's history, as a moderator weighs it."""

    reports: list[Report]  # every other report on them, newest first
    open_reports: int
    sanctions: list[AuditLog]  # warnings, suspensions, bans and lifts, newest first
    suspension: Suspension | None  # the one in force, if any
    reliability: int | None  # games.selectors.reliability


def transcript(message: ChatMessage) -> list[ChatMessage]:
    """The reported message with up to AROUND messages of its table before and after it, in
    order, hidden ones included (a moderator sees what was said)."""
    table = ChatMessage.objects.filter(game_id=message.game_id).select_related("user")
    before = list(table.filter(pk__lt=message.pk).order_by("-pk")[:AROUND])
    after = list(table.filter(pk__gt=message.pk).order_by("pk")[:AROUND])
    return [*reversed(before), message, *after]


def record(report: Report) -> Record:
    others = (
        Report.objects.filter(reported_id=report.reported_id)
        .exclude(pk=report.pk)
        .select_related("reporter")
        .order_by("-created_at", "-pk")
    )
    sanctions = AuditLog.objects.filter(
        target_type="auth.User", target_id=str(report.reported_id), action__in=SANCTIONS
    ).select_related("moderator")
    in_force = Q(banned=True) | Q(until__gt=timezone.now())
    return Record(
        reports=list(others[:20]),
        open_reports=others.filter(status=ReportStatus.OPEN).count(),
        sanctions=list(sanctions[:20]),
        suspension=Suspension.objects.filter(in_force, user_id=report.reported_id).first(),
        reliability=reliability(report.reported_id),
    )


def game_link(message: ChatMessage) -> tuple[str, str]:
    """Where the moderator reads the message's game, and what the link says: the replay of a
    finished game, else the table as a spectator sees it (no hidden card, no seed)."""
    if message.game.status == GameStatus.FINISHED:
        return f"/games/{message.game_id}/replay/", "replay"
    return f"/games/{message.game_id}/", "table"
