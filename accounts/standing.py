"""Whether a user may play: the one check every door uses (login, token, socket, services)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.utils import timezone

from accounts.models import Suspension
from core.errors import NotAuthenticated, Suspended


def suspension_of(user: User | AnonymousUser) -> Suspension | None:
    """The suspension or ban in force for this user, if any."""
    if not user.is_authenticated:
        return None
    return Suspension.objects.filter(_in_force(), user_id=user.pk).first()


def is_suspended(user: User | AnonymousUser) -> bool:
    return user.is_authenticated and is_suspended_id(user.pk)


def is_suspended_id(user_id: int) -> bool:
    return Suspension.objects.filter(_in_force(), user_id=user_id).exists()


def _in_force() -> Q:
    return Q(banned=True) | Q(until__gt=timezone.now())


def ensure_can_play(user: User | AnonymousUser) -> None:
    """Raise Suspended (403) for a suspended or banned user."""
    suspension = suspension_of(user)
    if suspension is None:
        return
    if suspension.banned:
        raise Suspended("Your account is banned.")
    assert suspension.until is not None
    raise Suspended(f"Your account is suspended until {suspension.until.isoformat()}.")


def lock_active(user: User) -> None:
    """Lock the player's row to the transaction's end (FOR NO KEY UPDATE, as the account's
    deletion takes it); an account deleted while the request was on its way is refused (401)."""
    found = User.objects.select_for_update(no_key=True).filter(pk=user.pk, is_active=True)
    if found.values_list("pk", flat=True).first() is None:
        raise NotAuthenticated("This account no longer exists.")
