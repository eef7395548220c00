"""Reads for accounts: whether a player's address is verified, and so whether we may mail it."""

from __future__ import annotations

from django.contrib.auth.models import User

from accounts.models import VerifiedEmail


def email_verified(user: User) -> bool:
    """True while the account's address is the one its owner verified."""
    return bool(user.email) and (
        VerifiedEmail.objects.filter(user=user, email__iexact=user.email).exists()
    )


def mail_address_of(user: User) -> str | None:
    """The address we may mail this player at (turn mails, reminders, invitations): only an
    address they verified, of an active account; None otherwise."""
    if not user.is_active or not email_verified(user):
        return None
    return user.email


def verified_elsewhere(user: User, email: str) -> bool:
    """Another account verified this address (in any case) and has it still."""
    return (
        VerifiedEmail.objects.filter(email__iexact=email, user__email__iexact=email)
        .exclude(user=user)
        .exists()
    )
