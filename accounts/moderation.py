"""Moderators' actions on players, and players' reports. Every action leaves an audit row."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from accounts.models import AuditLog, Report, ReportStatus, Suspension
from games import push
from games.models import ChatMessage, Game, GameStatus
from wizardsite.api import Invalid, NotFound, RateLimited

REPORTS_PER_HOUR = 10
REASON_MAX = 1000


def audit(*, moderator: User | None, action: str, target: Model, reason: str = "") -> AuditLog:
    """Record who did what to what, and why."""
    return AuditLog.objects.create(
        moderator=moderator,
        action=action,
        target_type=target._meta.label,
        target_id=str(target.pk),
        target=str(target)[:200],
        reason=reason,
    )


def user_suspend(
    *,
    moderator: User | None,
    user: User,
    reason: str,
    until: datetime | None = None,
    banned: bool = False,
) -> Suspension:
    """Suspend `user` until a moment, or ban them. Their sessions, tokens and sockets stop
    working at once, and their turns in running games are auto-moved (R16) without waiting."""
    if not banned and (until is None or until <= timezone.now()):
        raise Invalid("A suspension needs an end in the future, or choose a ban.")
    with transaction.atomic():
        current = Suspension.objects.select_for_update().filter(user=user).first()
        if current is not None and current.in_force:  # a lighter sanction never shortens one
            banned = banned or current.banned
            if until is not None and current.until is not None:
                until = max(until, current.until)
        suspension, _ = Suspension.objects.update_or_create(
            user=user,
            defaults={"until": until, "banned": banned, "reason": reason, "created_by": moderator},
        )
        audit(
            moderator=moderator, action="ban" if banned else "suspend", target=user, reason=reason
        )
        expedite_turns(user)
        user_id = user.pk
        transaction.on_commit(
            lambda: push.send(push.user_group(user_id), {"type": "account.closed"})
        )
    return suspension


def user_unsuspend(*, moderator: User | None, user: User, reason: str = "") -> None:
    """Lift a suspension or ban: the player may log in and play again."""
    with transaction.atomic():
        Suspension.objects.filter(user=user).delete()
        audit(moderator=moderator, action="lift suspension", target=user, reason=reason)


def expedite_turns(user: User) -> None:
    """Make the suspended player's pending turns due now, so the timer plays them."""
    for game in Game.objects.filter(status=GameStatus.ACTIVE, seat_set__user=user):
        seat = game.seat_set.filter(user=user).values_list("number", flat=True).first()
        if game.to_act == seat:
            Game.objects.filter(pk=game.pk).update(deadline=timezone.now())


def report_create(
    *, reporter: User, username: str, reason: str, message_id: int | None = None
) -> Report:
    """A player reports another player, or one of their chat messages, with a reason."""
    reason = reason.strip()
    if not 1 <= len(reason) <= REASON_MAX:
        raise Invalid("Say why, in 1 to 1000 characters.", fields={"reason": ["1 to 1000"]})
    reported = User.objects.filter(username=username).first()
    if reported is None:
        raise NotFound(f"There is no player {username!r}.")
    if reported == reporter:
        raise Invalid("You cannot report yourself.", fields={"username": ["yourself"]})
    message = None
    if message_id is not None:
        message = ChatMessage.objects.filter(pk=message_id, user=reported).first()
        if message is None:
            raise Invalid(
                "That message is not one of this player's.", fields={"message_id": ["not found"]}
            )
    recent = timezone.now() - timedelta(hours=1)
    if Report.objects.filter(reporter=reporter, created_at__gte=recent).count() >= REPORTS_PER_HOUR:
        raise RateLimited("You have sent many reports this hour; try again later.")
    return Report.objects.create(
        reporter=reporter, reported=reported, message=message, reason=reason
    )


def report_resolve(*, moderator: User, report: Report, resolution: str) -> None:
    """Close a report, saying what was done."""
    report.status = ReportStatus.RESOLVED
    report.resolution = resolution[:200]
    report.resolved_at = timezone.now()
    report.resolved_by = moderator
    report.save(update_fields=["status", "resolution", "resolved_at", "resolved_by"])
    audit(moderator=moderator, action="resolve report", target=report, reason=resolution)
