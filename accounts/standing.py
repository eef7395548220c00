"""Whether a user may play: the one check every door uses (login, token, socket, services)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext

from accounts.models import Suspension
from core.errors import NotAuthenticated, Suspended


def suspension_of(user: User | AnonymousUser) -> Suspension | None:
    """The suspension or ban in force for this user, if any."""
    if not user.is_authenticated:
        return None
    return Suspension.objects.filter(_in_force(), user_id=user.pk).first()


def suspension_of_id(user_id: int) -> Suspension | None:
    """The suspension or ban in force for the user with this id, if any."""
    return Suspension.objects.filter(_in_force(), user_id=user_id).first()


def moment_text(moment: datetime) -> str:
    """A moment as people read it: in the active language and time zone, the zone named."""
    local = timezone.localtime(moment)
    return f"{date_format(local, 'DATETIME_FORMAT')} ({local.tzname()})"


def suspension_text(suspension: Suspension) -> str:
    """Why and until when, for the player, in the active language; the end in the active time
    zone, named."""
    reason = suspension.reason.strip()
    if suspension.banned:
        told = gettext("Your account is banned.")
    else:
        assert suspension.until is not None
        until = moment_text(suspension.until)
        told = gettext("Your account is suspended until %(until)s.") % {"until": until}
    if reason:
        told += " " + gettext("The moderators' reason: %(reason)s") % {"reason": reason}
    return told


def suspension_at_login(request: HttpRequest, username: str, password: str) -> Suspension | None:
    """A refused log-in's suspension, when the password was right: the player is told why
    rather than "wrong password". A wrong password, or a name locked out for wrong ones, learns
    nothing more."""
    if getattr(request, "axes_locked_out", False):
        return None
    user = User.objects.filter(username=username).first()
    if user is None or not user.is_active or not user.check_password(password):
        return None
    return suspension_of_id(user.pk)


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
