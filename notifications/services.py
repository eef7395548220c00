"""The only code that writes notification settings, push subscriptions and sent notices."""

from __future__ import annotations

from typing import NamedTuple, TypedDict

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from accounts.standing import lock_active
from core.errors import Invalid
from notifications.models import Device, Kind, NotificationSettings, PushSubscription, Sent

# Browsers and apps a player may subscribe (API.md): a new one beyond it replaces the oldest.
MAX_PUSH_SUBSCRIPTIONS = 10


class SettingsView(TypedDict):
    """What a player is told of: e-mail when it is their turn at a correspondence table (and a
    reminder an hour before the deadline), and Web Push to their subscribed browsers and apps."""

    email_turns: bool
    push_turns: bool


def settings_of(user: User) -> NotificationSettings:
    """The player's settings; the defaults (unsaved) when they never changed any."""
    found = NotificationSettings.objects.filter(user=user).first()
    return found if found is not None else NotificationSettings(user=user)


def settings_view(user: User) -> SettingsView:
    found = settings_of(user)
    return {"email_turns": found.email_turns, "push_turns": found.push_turns}


def settings_update(
    *, user: User, email_turns: bool | None = None, push_turns: bool | None = None
) -> SettingsView:
    """Change the given settings, leave the others."""
    changes = {
        name: value
        for name, value in (("email_turns", email_turns), ("push_turns", push_turns))
        if value is not None
    }
    if changes:
        NotificationSettings.objects.update_or_create(user=user, defaults=changes)
    return settings_view(user)


def language_remember(*, user_id: int, language: str) -> None:
    """The language the player last used on the site, for their mails and pushes."""
    NotificationSettings.objects.update_or_create(user_id=user_id, defaults={"language": language})


def push_subscription_add(*, user: User, endpoint: str, p256dh: str, auth: str) -> None:
    """Subscribe a browser or app; subscribing is opting in, so push_turns is turned on. The
    player's own endpoint posted again gets the new keys; an endpoint another account holds
    stays theirs (400 `invalid`). Beyond MAX_PUSH_SUBSCRIPTIONS, the player's oldest goes."""
    taken = Invalid(
        "This browser's subscription belongs to another account: unsubscribe it in the "
        "browser and subscribe again.",
        fields={"endpoint": ["held by another account"]},
    )
    with transaction.atomic():
        # One player's subscribing, one at a time: the count below stays exact.
        lock_active(user)
        held = PushSubscription.objects.filter(endpoint=endpoint).first()
        if held is not None and held.user_id != user.pk:
            raise taken
        if held is not None:
            held.p256dh, held.auth = p256dh, auth
            held.save(update_fields=["p256dh", "auth"])
        else:
            try:
                with transaction.atomic():
                    PushSubscription.objects.create(
                        user=user, endpoint=endpoint, p256dh=p256dh, auth=auth
                    )
            except IntegrityError:  # another account posted it just now
                raise taken from None
            surplus = PushSubscription.objects.filter(user=user).order_by("-created", "-pk")[
                MAX_PUSH_SUBSCRIPTIONS:
            ]
            PushSubscription.objects.filter(
                pk__in=list(surplus.values_list("pk", flat=True))
            ).delete()
        NotificationSettings.objects.update_or_create(user=user, defaults={"push_turns": True})


def push_subscription_remove(*, user: User, endpoint: str) -> None:
    """Forget the player's subscription at `endpoint` (nothing happens if there is none)."""
    PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()


def push_subscription_gone(*, subscription_id: int) -> None:
    """The push service says the subscription no longer exists (404 or 410)."""
    PushSubscription.objects.filter(pk=subscription_id).delete()


class PushTargets(NamedTuple):
    """A player's Web Push subscriptions and phone devices (their ids)."""

    subscriptions: list[int]
    devices: list[int]


def pushes_to(user_id: int) -> PushTargets | None:
    """Where the player's pushes go; None when nowhere."""
    targets = PushTargets(
        list(PushSubscription.objects.filter(user_id=user_id).values_list("pk", flat=True)),
        list(Device.objects.filter(user_id=user_id).values_list("pk", flat=True)),
    )
    return targets if targets.subscriptions or targets.devices else None


def device_add(*, user: User, platform: str, token: str) -> None:
    """Register a phone app for native push; registering is opting in, so push_turns is turned
    on. A token is one app on one phone: registered by another account, it moves to this one
    (the phone signed in again). Beyond MAX_PUSH_SUBSCRIPTIONS, the player's oldest goes."""
    with transaction.atomic():
        lock_active(user)
        Device.objects.filter(platform=platform, token=token).exclude(user=user).delete()
        try:
            with transaction.atomic():
                Device.objects.get_or_create(user=user, platform=platform, token=token)
        except IntegrityError:  # another account registered it this instant: theirs, then
            raise Invalid(
                "This device was registered by another account just now: try again.",
                fields={"token": ["registered by another account"]},
            ) from None
        surplus = Device.objects.filter(user=user).order_by("-created", "-pk")[
            MAX_PUSH_SUBSCRIPTIONS:
        ]
        Device.objects.filter(pk__in=list(surplus.values_list("pk", flat=True))).delete()
        NotificationSettings.objects.update_or_create(user=user, defaults={"push_turns": True})


def device_remove(*, user: User, token: str) -> None:
    """Forget the player's device with this token (nothing happens if there is none)."""
    Device.objects.filter(user=user, token=token).delete()


def device_gone(*, device_id: int) -> None:
    """The platform's service says the app is no longer installed (the token is dead)."""
    Device.objects.filter(pk=device_id).delete()


def notice_claim(*, user_id: int, game_id: int, seq: int, kind: Kind) -> bool:
    """Claim the one notice of this kind for this turn: True for the first caller only (the
    insert is the compare-and-set; a twin task's insert hits the unique constraint)."""
    try:
        with transaction.atomic():
            Sent.objects.create(user_id=user_id, game_id=game_id, seq=seq, kind=kind)
    except IntegrityError:
        return False
    return True


def notice_release(*, user_id: int, game_id: int, seq: int, kind: Kind) -> None:
    """Give a claim back when the notice could not be sent, so a retry may send it."""
    Sent.objects.filter(user_id=user_id, game_id=game_id, seq=seq, kind=kind).delete()


def notifications_forget(*, user: User) -> None:
    """A deleted account's settings, push subscriptions, devices and notice claims are gone."""
    NotificationSettings.objects.filter(user=user).delete()
    PushSubscription.objects.filter(user=user).delete()
    Device.objects.filter(user=user).delete()
    Sent.objects.filter(user=user).delete()
