"""Moderators' actions and players' reports. Every action leaves an audit row.

The writes themselves belong to the apps below: a sanction is an accounts suspension, aborting
and voiding go through games.services under the game lock, and the league re-rates a game
whose membership changed. This module orchestrates them and records why.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model
from django.urls import reverse
from django.utils import timezone

from accounts import retirement
from accounts import services as accounts_services
from accounts.models import Suspension
from core import limits
from core.errors import Forbidden, Invalid, NotFound, RateLimited
from core.text import clean_text
from games import push
from games import services as games_services
from games.models import ChatMessage, Game
from moderation.models import AuditLog, Report, ReportCategory, ReportStatus
from notifications import notices
from notifications.models import NoticeKind
from seeks.services import seek_forget


def audit(*, moderator: User | None, action: str, target: Model, reason: str = "") -> AuditLog:
    """Record who did what to what, and why."""
    clean_text(reason, field="reason")
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
    working at once; they leave every table that has not started, and are away at every
    running game (R18: the medium bot plays their seat, without waiting out their turn).
    Only a superuser may sanction staff or another superuser."""
    if moderator is not None:
        ensure_may_sanction(moderator, user)
    with transaction.atomic():
        suspension = accounts_services.suspension_set(
            user=user, reason=reason, until=until, banned=banned, by=moderator
        )
        seek_forget(user=user)  # R28: nobody is seated with a suspended player
        games_services.seats_vacate(user=user, resign=False)
        audit(
            moderator=moderator,
            action="ban" if suspension.banned else "suspend",
            target=user,
            reason=reason,
        )
        user_id = user.pk
        transaction.on_commit(
            lambda: push.send(push.user_group(user_id), {"type": "account.closed"})
        )
    # After the commit: a move that commits meanwhile sees the suspension and makes the
    # player's next turn due at once; a turn already theirs is expedited here (their seat is
    # away, so the bot makes it).
    games_services.turns_expedite(user_id=user_id)
    return suspension


def user_unsuspend(*, moderator: User | None, user: User, reason: str = "") -> None:
    """Lift a suspension or ban: the player may log in and play again. The same rule as
    imposing one: only a superuser may lift a sanction of staff or another superuser."""
    if moderator is not None:
        ensure_may_sanction(moderator, user)
    with transaction.atomic():
        accounts_services.suspension_lift(user=user)
        audit(moderator=moderator, action="lift suspension", target=user, reason=reason)
        notices.notice_add(user_id=user.pk, kind=NoticeKind.SUSPENSION, url=reverse("home"))


def may_sanction(moderator: User, user: User) -> bool:
    """Staff and superusers answer to superusers only."""
    return moderator.is_superuser or not (user.is_staff or user.is_superuser)


def ensure_may_sanction(moderator: User, user: User) -> None:
    if not may_sanction(moderator, user):
        raise Forbidden(
            f"Only a superuser may sanction {user.get_username()}, who is staff, "
            "or lift their sanction."
        )


def game_abort(*, moderator: User, game_id: int, reason: str) -> Game:
    """Stop an open or running game; its players are told live and it never counts (R17)."""
    clean_text(reason, field="reason")  # refused before anything changes
    game = games_services.game_abort(game_id=game_id).game  # commits and tells the players
    audit(moderator=moderator, action="abort game", target=game, reason=reason)
    return game


def game_void(*, moderator: User, game_id: int, reason: str, voided: bool = True) -> bool:
    """Void (or restore) a finished game; the league hears of it (`game_voided`) and re-rates
    from it only if that changes whether it counts (R17). False when the game already was so."""
    with transaction.atomic():
        changed = games_services.game_void(game_id=game_id, voided=voided)
        if changed:
            game = Game.objects.get(pk=game_id)
            action = "void game" if voided else "restore game"
            audit(moderator=moderator, action=action, target=game, reason=reason)
    return changed


def chat_hide(*, moderator: User, message: ChatMessage, reason: str = "") -> None:
    """Hide a message for everyone at once; it stays stored for review."""
    with transaction.atomic():
        games_services.chat_hide(message_id=message.pk, moderator=moderator)
        message.refresh_from_db()
        audit(moderator=moderator, action="hide message", target=message, reason=reason)


def report_create(
    *,
    reporter: User,
    username: str,
    category: ReportCategory = ReportCategory.OTHER,
    reason: str = "",
    message_id: int | None = None,
) -> Report:
    """A player reports another player, or one of their chat messages: what it is about, and
    a note if they write one."""
    reason = clean_text(reason, field="reason").strip()
    clean_text(username, field="username")
    if len(reason) > limits.REASON_MAX_LENGTH:
        length = f"at most {limits.REASON_MAX_LENGTH}"
        raise Invalid(f"Write {length} characters.", fields={"reason": [length]})
    reported = User.objects.filter(username=username).first()
    if reported is None:
        raise NotFound(f"There is no player {username!r}.")
    if reported == reporter:
        raise Invalid("You cannot report yourself.", fields={"username": ["yourself"]})
    message = None
    if message_id is not None:
        # One refusal for an unknown message, another player's, and one at a table the
        # reporter never sat at: the answer must not tell a stranger who wrote a message.
        message = ChatMessage.objects.filter(
            pk=message_id, user=reported, game__seat_set__user=reporter
        ).first()
        if message is None:
            raise NotFound(
                "There is no such message of that player at a table you sat at.",
                fields={"message_id": ["not found"]},
            )
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=reporter.pk).values_list("pk").get()
        recent = timezone.now() - timedelta(hours=1)
        sent = Report.objects.filter(reporter=reporter, created_at__gte=recent).count()
        if sent >= limits.REPORTS_PER_HOUR:
            raise RateLimited(
                "You have sent many reports this hour; try again later.", retry_after=3600
            )
        return Report.objects.create(
            reporter=reporter, reported=reported, message=message, category=category, reason=reason
        )


def report_resolve(*, moderator: User, report: Report, resolution: str) -> None:
    """Close a report, saying what was done. A deleted account's message kept as evidence
    while reports on it were open loses its text with the last of them, as at the deletion."""
    with transaction.atomic():
        report.status = ReportStatus.RESOLVED
        report.resolution = resolution[:200]
        report.resolved_at = timezone.now()
        report.resolved_by = moderator
        report.save(update_fields=["status", "resolution", "resolved_at", "resolved_by"])
        audit(moderator=moderator, action="resolve report", target=report, reason=resolution)
        if report.message_id is not None:
            _evidence_release(report.message_id)


def report_sanction(
    *, moderator: User, report: Report, reason: str, days: int | None, hide_message: bool = True
) -> Suspension:
    """The usual answers to a report: the reported player is suspended for `days` (None: banned),
    the reported message is hidden unless the moderator keeps it shown, and the report is closed
    saying so."""
    ensure_may_sanction(moderator, report.reported)  # before anything changes
    if hide_message and report.message is not None and not report.message.hidden:
        chat_hide(moderator=moderator, message=report.message, reason=reason)
    until = None if days is None else timezone.now() + timedelta(days=days)
    suspension = user_suspend(
        moderator=moderator, user=report.reported, reason=reason, until=until, banned=days is None
    )
    done = "banned" if days is None else f"suspended {days} days"
    report_resolve(moderator=moderator, report=report, resolution=f"{done}: {reason}")
    return suspension


def report_hide(*, moderator: User, report: Report, reason: str) -> None:
    """Answer a report by hiding its message (if it names one still shown), and close it."""
    if report.message is not None and not report.message.hidden:
        chat_hide(moderator=moderator, message=report.message, reason=reason)
    report_resolve(moderator=moderator, report=report, resolution=f"message hidden: {reason}")


def report_warn(*, moderator: User, report: Report, reason: str) -> None:
    """Answer a report with a warning: the reported player finds it among their notices (the
    reason is what they read), and the report is closed saying so."""
    with transaction.atomic():
        notices.notice_add(
            user_id=report.reported_id, kind=NoticeKind.WARNING, url=reverse("rules"), reason=reason
        )
        audit(moderator=moderator, action="warn", target=report.reported, reason=reason)
        report_resolve(moderator=moderator, report=report, resolution=f"warned: {reason}")


def _evidence_release(message_id: int) -> None:
    messages = ChatMessage.objects.filter(pk=message_id)
    author_id = messages.values_list("user_id", flat=True).first()
    if author_id is None:
        return
    # The author's row, which the account's deletion locks first: of a deletion and a closing
    # at once, the later sees the earlier (the report closed, or the account deleted), so the
    # text never outlives both.
    author = User.objects.select_for_update(no_key=True).get(pk=author_id)
    still_open = Report.objects.filter(message_id=message_id, status=ReportStatus.OPEN)
    if retirement.is_deleted(author) and not still_open.exists():
        games_services.chat_text_erase(messages=messages)
