"""The deletion of a player's account (GDPR 17): the person goes, the games stay.

The user row is kept under `deleted-<id>` (accounts.retirement) so finished games, replays,
reviews, tournaments and the league keep the seat and every other player's ratings stand.
Reports about them and the audit log stay for the moderators."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from accounts import retirement
from core.errors import Invalid
from games import services as game_services
from moderation.models import Report, ReportStatus
from notifications.services import notifications_forget
from seeks.services import seek_forget
from tournaments.notify import tournament_changed
from tournaments.services import tournaments_leave


def account_delete(*, user: User, password: str) -> None:
    """Delete the account, its password proving its owner asks: in one transaction it leaves
    its open tables and resigns its running games (R18), leaves its tournaments and cancels
    the upcoming ones it created, ends its seek (R28), then its identity, tokens, sessions,
    subscriptions, follows, blocks, invitations and chat text go (a message under an open
    report keeps its text until the report closes: moderation.services.report_resolve)."""
    if not user.has_usable_password() or not user.check_password(password):
        raise Invalid("Wrong password.", fields={"password": ["wrong password"]})
    with transaction.atomic(durable=True):
        # FOR NO KEY UPDATE: a tournament's step that seats the player (a foreign key to this
        # row) is not blocked by it, so the two never wait on each other.
        User.objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk").get()
        game_services.seats_vacate(user=user)
        reported = Report.objects.filter(message__user=user)
        game_services.traces_erase(
            user=user,
            reported_messages=reported.values("message_id"),
            evidence=reported.filter(status=ReportStatus.OPEN).values("message_id"),
        )
        notifications_forget(user=user)
        tournament_ids = tournaments_leave(user=user)
        seek_forget(user=user)
        retirement.account_anonymise(user=user)
    for tournament_id in tournament_ids:
        tournament_changed(tournament_id)
