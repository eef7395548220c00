"""Celery tasks of the notifications: thin wrappers around notifications.turns and webpush.

They run on a queue of their own, `notifications` (CELERY_TASK_ROUTES), taken by a worker of
their own (the Procfiles' `notify`): a push service or mail server that hangs holds up other
notices at worst, never a bot's step or the turn timer.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.selectors import mail_address_of
from core import limits
from games import presence
from games.models import Game
from notifications import mail, services, turns, webpush
from notifications.models import PushSubscription

log = logging.getLogger(__name__)

# A reminder further ahead than this is left to the sweep: the broker (Redis) redelivers a
# task it held longer than its visibility timeout, an hour.
REMIND_HORIZON = timedelta(minutes=15)


@shared_task(ignore_result=True)
def turn_notify(user_id: int, game_id: int, seq: int) -> None:
    """A decision became the player's: their mail now, pushes to each subscription, and the
    reminder's task if it is due soon (the sweep sends the others)."""
    notices = turns.turn_notify(user_id=user_id, game_id=game_id, seq=seq)
    for subscription_id in notices.push_to:
        push_send.delay(subscription_id, notices.payload)
    remind_at = notices.remind_at
    if remind_at is not None and remind_at - timezone.now() <= REMIND_HORIZON:
        turn_remind.apply_async((user_id, game_id, seq), eta=remind_at)


@shared_task(ignore_result=True)
def turn_remind(user_id: int, game_id: int, seq: int) -> bool:
    """An hour before the deadline: the reminder, if the turn is still theirs and unsent."""
    return turns.turn_remind(user_id=user_id, game_id=game_id, seq=seq)


@shared_task(ignore_result=True)
def invite_notify(user_id: int, game_id: int, inviter: str) -> None:
    """A friend's invitation: a push to each of the user's subscriptions, in their language,
    if they take pushes."""
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return
    prefs = services.settings_of(user)
    if not prefs.push_turns:
        return
    payload = webpush.invite_payload(game_id, inviter, prefs.language)
    for subscription_id in PushSubscription.objects.filter(user_id=user_id).values_list(
        "pk", flat=True
    ):
        push_send.delay(subscription_id, payload)


@shared_task(ignore_result=True)
def table_notify(user_id: int, game_id: int, tournament: str) -> None:
    """A tournament seated the player at a new table (T3, T4): a push to each subscription if
    they take pushes and have no socket open, and a mail at a table of an hour or more a turn."""
    user = User.objects.filter(pk=user_id).first()
    game = Game.objects.filter(pk=game_id).first()
    if user is None or game is None:
        return
    prefs = services.settings_of(user)
    if prefs.push_turns and not presence.is_connected(user_id):
        payload = webpush.table_payload(game_id, tournament, prefs.language)
        subscriptions = PushSubscription.objects.filter(user_id=user_id)
        for subscription_id in subscriptions.values_list("pk", flat=True):
            push_send.delay(subscription_id, payload)
    address = mail_address_of(user)
    if prefs.email_turns and address and game.turn_seconds >= limits.CORRESPONDENCE_SECONDS:
        mail.table_mail(user, game, address=address, tournament=tournament)


@shared_task(ignore_result=True)
def remind_due() -> int:
    """The sweep (beat, every minute): the reminder of every turn whose last hour began; and
    the claims of long-gone turns are pruned."""
    turns.claims_prune()
    due = turns.reminders_due()
    return sum(turns.turn_remind(user_id=u, game_id=g, seq=s) for u, g, s in due)


@shared_task(
    ignore_result=True,
    autoretry_for=(webpush.PushFailed,),
    retry_backoff=5,
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=6,
)
def push_send(subscription_id: int, payload: str) -> None:
    """One push to one subscription, retried with backoff while the push service fails; a
    subscription the service reports gone (404, 410) is deleted; a refused one is dropped."""
    subscription = PushSubscription.objects.filter(pk=subscription_id).first()
    if subscription is None:
        return
    try:
        webpush.deliver(
            endpoint=subscription.endpoint,
            p256dh=subscription.p256dh,
            auth=subscription.auth,
            payload=payload,
        )
    except webpush.PushGone:
        services.push_subscription_gone(subscription_id=subscription_id)
    except webpush.PushRefused as error:
        log.warning("push to subscription %s not sent: %s", subscription_id, error)
