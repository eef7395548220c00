"""Celery tasks of the notifications: thin wrappers around notifications.turns, webpush and
native.

They run on a queue of their own, `notifications` (CELERY_TASK_ROUTES), taken by a worker of
their own (the Procfiles' `notify`): a push service or mail server that hangs holds up other
notices at worst, never a bot's step or the turn timer.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.contrib.auth.models import User
from django.utils import timezone

from accounts.selectors import mail_address_of
from core import limits
from games import presence
from games.models import Game
from notifications import mail, native, services, turns, webpush
from notifications.models import Device, PushSubscription

log = logging.getLogger(__name__)

# A reminder further ahead than this is left to the sweep: the broker (Redis) redelivers a
# task it held longer than its visibility timeout, an hour.
REMIND_HORIZON = timedelta(minutes=15)
# A push while its service fails: tried again 6 times, with backoff from 5 s up to 10 minutes.
RETRIED: dict[str, Any] = {
    "ignore_result": True,
    "autoretry_for": (webpush.PushFailed,),
    "retry_backoff": 5,
    "retry_backoff_max": 600,
    "retry_jitter": True,
    "max_retries": 6,
}


@shared_task(ignore_result=True)
def turn_notify(user_id: int, game_id: int, seq: int) -> None:
    """A decision became the player's: their mail now, pushes to each subscription, and the
    reminder's task if it is due soon (the sweep sends the others)."""
    notices = turns.turn_notify(user_id=user_id, game_id=game_id, seq=seq)
    if notices.push is not None:
        _push(notices.push)
    remind_at = notices.remind_at
    if remind_at is not None and remind_at - timezone.now() <= REMIND_HORIZON:
        turn_remind.apply_async((user_id, game_id, seq), eta=remind_at)


@shared_task(ignore_result=True)
def turn_remind(user_id: int, game_id: int, seq: int) -> bool:
    """An hour before the deadline: the reminder's mail and push, if the turn is still theirs
    and each is unsent. True if a mail was sent now."""
    return _remind(user_id, game_id, seq)


def _remind(user_id: int, game_id: int, seq: int) -> bool:
    mailed, push = turns.remind(user_id=user_id, game_id=game_id, seq=seq)
    if push is not None:
        _push(push)
    return mailed


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
    _push_to(user_id, webpush.invite_payload(game_id, inviter, prefs.language))


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
        _push_to(user_id, webpush.table_payload(game_id, tournament, prefs.language))
    address = mail_address_of(user)
    if prefs.email_turns and address and game.turn_seconds >= limits.CORRESPONDENCE_SECONDS:
        mail.table_mail(user, game, address=address, tournament=tournament)


def _push_to(user_id: int, payload: str) -> None:
    targets = services.pushes_to(user_id)
    if targets is not None:
        _push(turns.Push(payload, targets))


def _push(push: turns.Push) -> None:
    """One task a subscribed browser and one a registered phone: each retried on its own."""
    for subscription_id in push.targets.subscriptions:
        push_send.delay(subscription_id, push.payload)
    for device_id in push.targets.devices:
        device_send.delay(device_id, push.payload)


@shared_task(ignore_result=True)
def remind_due() -> int:
    """The sweep (beat, every minute): the reminder of every turn whose last hour began (the
    mails sent are counted); and the claims of long-gone turns are pruned."""
    turns.claims_prune()
    due = turns.reminders_due()
    return sum(_remind(u, g, s) for u, g, s in due)


@shared_task(**RETRIED)
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


@shared_task(**RETRIED)
def device_send(device_id: int, payload: str) -> None:
    """One notice to one phone (FCM or APNs), retried with backoff while the service fails; a
    device the service reports unregistered is deleted."""
    device = Device.objects.filter(pk=device_id).first()
    if device is None:
        return
    try:
        native.deliver(platform=device.platform, token=device.token, payload=payload)
    except webpush.PushGone:
        services.device_gone(device_id=device_id)
