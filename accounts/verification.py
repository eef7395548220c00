"""The signed link that verifies an address, and the mail that carries it.

The token names the account and the address (lower-cased): it stops working once the address
changes, and after VERIFY_MAX_AGE."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

VERIFY_SALT = "accounts.verify_email"
VERIFY_MAX_AGE = timedelta(days=3)


@dataclass(frozen=True)
class Claim:
    """What a valid token says: this account owns this address."""

    user_id: int
    email: str


def verify_token(user: User) -> str:
    """A signed, dated token for the account's current address."""
    return signing.dumps({"user": user.pk, "email": user.email.lower()}, salt=VERIFY_SALT)


def verify_claim(token: str) -> Claim | None:
    """What the token says, or None if this site did not sign it or it is too old."""
    try:
        value = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.BadSignature:  # also SignatureExpired
        return None
    if not isinstance(value, dict):
        return None
    user_id, email = value.get("user"), value.get("email")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or not isinstance(email, str):
        return None
    return Claim(user_id, email)


def verify_url(user: User) -> str:
    path = reverse("verify-email", args=[verify_token(user)])
    return str(settings.SITE_URL).rstrip("/") + path


def verification_mail(user: User, *, language: str | None = None) -> None:
    """Mail the verification link to the account's current address."""
    context = {
        "username": user.get_username(),
        "verify_url": verify_url(user),
        "days": VERIFY_MAX_AGE.days,
    }
    with translation.override(language or translation.get_language()):
        subject = render_to_string("accounts/verify_subject.txt", context)
        body = render_to_string("accounts/verify_email.txt", context)
    EmailMessage(subject=" ".join(subject.split()), body=body, to=[user.email]).send()
