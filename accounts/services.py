"""Writes for accounts: sign-up, the address and its verification, API tokens, and whether a
user may play (suspensions); following and blocking other players."""

from __future__ import annotations

import contextlib
import logging
from datetime import datetime

from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone, translation
from rest_framework.authtoken.models import Token

from accounts import selectors, verification
from accounts.models import Block, Follow, Suspension, VerifiedEmail
from accounts.retirement import is_retired
from accounts.signals import block_changed, block_made, followed
from accounts.usernames import username_validator
from apikit import throttles
from core import limits
from core.errors import Blocked, EmailTaken, Invalid, NotAuthenticated, NotFound, RateLimited

log = logging.getLogger(__name__)


def user_register(*, username: str, password: str, email: str) -> User:
    """A new player account: an ASCII name no other user has in any case; the password must
    pass the configured validators."""
    try:
        username_validator(username)
    except ValidationError as error:
        raise Invalid("Choose another username.", fields={"username": error.messages}) from error
    if not limits.USERNAME_MIN_LENGTH <= len(username) <= limits.USERNAME_MAX_LENGTH:
        length = f"{limits.USERNAME_MIN_LENGTH} to {limits.USERNAME_MAX_LENGTH} characters"
        raise Invalid("Choose another username.", fields={"username": [length]})
    if User.objects.filter(username__iexact=username).exists() or is_retired(username):
        raise Invalid("That username is taken.", fields={"username": ["already taken"]})
    candidate = User(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except ValidationError as error:
        raise Invalid("Choose a stronger password.", fields={"password": error.messages}) from error
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError as error:  # a concurrent sign-up took the name first
        raise Invalid("That username is taken.", fields={"username": ["already taken"]}) from error
    # An address that had its links for the hour gets none now: the player may resend later.
    with contextlib.suppress(RateLimited):
        verification_mail_send(user=user)
    return user


def verification_mail_send(*, user: User) -> None:
    """Mail a link verifying the account's address, after the commit. Nothing is sent for an
    address verified already (by this account or another: the answer is the same, so it tells
    nobody whose address it is). Each address gets a few links an hour at most."""
    if not user.email:
        raise Invalid("Your account has no e-mail address.")
    if selectors.email_verified(user) or selectors.verified_elsewhere(user, user.email):
        return
    wait = throttles.hit("verify_mail", f"mail:{user.email.lower()}")
    if wait is not None:
        raise RateLimited("Too many verification mails to this address.", retry_after=wait)
    language = translation.get_language()
    transaction.on_commit(lambda: _mail_verification(user, language))


def _mail_verification(user: User, language: str | None) -> None:
    # After the commit the account exists for good: a mail server that fails loses the
    # link (the player may ask for another), never the account.
    try:
        verification.verification_mail(user, language=language)
    except Exception as error:
        log.warning("verification mail to user %s not sent: %r", user.pk, error)


def email_verify(*, token: str) -> User:
    """The account the token names has verified its address; Invalid for a bad, expired or
    outdated token (the address changed since), EmailTaken if another account verified the
    address first. Verifying twice is harmless."""
    claim = verification.verify_claim(token)
    user = None if claim is None else User.objects.filter(pk=claim.user_id, is_active=True).first()
    if claim is None or user is None or user.email.lower() != claim.email:
        raise Invalid(
            "This verification link is invalid or has expired.",
            fields={"token": ["invalid or expired"]},
        )
    taken = EmailTaken("This address is verified by another account already.")
    if selectors.verified_elsewhere(user, user.email):
        raise taken
    try:
        with transaction.atomic():
            # A verification whose account has another address since (set in the admin) is void.
            stale = VerifiedEmail.objects.filter(email__iexact=user.email)
            stale.exclude(user__email__iexact=user.email).delete()
            VerifiedEmail.objects.update_or_create(
                user=user, defaults={"email": user.email, "verified_at": timezone.now()}
            )
    except IntegrityError as error:  # another account verified it at the same moment
        raise taken from error
    return user


def email_change(*, user: User, email: str, password: str) -> None:
    """A new address for the account (the password proves it is its owner): it is unverified
    until the link mailed to it is followed, and no turn mail goes anywhere meanwhile."""
    if not user.check_password(password):
        raise Invalid("Wrong password.", fields={"password": ["wrong password"]})
    if email.lower() == user.email.lower():  # the same address (its case may change)
        with transaction.atomic():
            user.email = email
            user.save(update_fields=["email"])
            VerifiedEmail.objects.filter(user=user).update(email=email)
        return
    with transaction.atomic():
        user.email = email
        user.save(update_fields=["email"])
        VerifiedEmail.objects.filter(user=user).delete()
        with contextlib.suppress(RateLimited):  # the change stands; the player may resend
            verification_mail_send(user=user)


def token_for_credentials(*, request: HttpRequest, username: str, password: str) -> Token:
    """The API token of the user with these credentials (created on first use). Wrong
    passwords count towards the log-in lockout like the form's (django-axes)."""
    user = authenticate(request, username=username, password=password)
    if user is None:
        raise NotAuthenticated("Wrong username or password.")
    token, _ = Token.objects.get_or_create(user=user)
    return token


def token_revoke(*, user: User, key: str | None) -> None:
    """The token `key` of this user stops working (nothing happens for another's key)."""
    if key is not None:
        Token.objects.filter(user=user, key=key).delete()


def tokens_revoke_all(*, user: User) -> None:
    """Every API token of the user stops working (after a password change or reset)."""
    Token.objects.filter(user=user).delete()


def suspension_set(
    *, user: User, reason: str, until: datetime | None, banned: bool, by: User | None
) -> Suspension:
    """Bar `user` from playing until a moment, or for good; a lighter sanction never
    shortens one already in force."""
    if not banned and (until is None or until <= timezone.now()):
        raise Invalid("A suspension needs an end in the future, or choose a ban.")
    with transaction.atomic():
        current = Suspension.objects.select_for_update().filter(user=user).first()
        if current is not None and current.in_force:
            banned = banned or current.banned
            if until is not None and current.until is not None:
                until = max(until, current.until)
        suspension, _ = Suspension.objects.update_or_create(
            user=user,
            defaults={"until": until, "banned": banned, "reason": reason, "created_by": by},
        )
    return suspension


def suspension_lift(*, user: User) -> None:
    """The player may log in and play again."""
    Suspension.objects.filter(user=user).delete()


def _other(user: User, username: str) -> User:
    """The player `username` as the other side of a follow or block: never the caller."""
    other = User.objects.filter(username=username, is_active=True).first()  # deleted: none
    if other is None:
        raise NotFound(f"There is no player {username!r}.")
    if other.pk == user.pk:
        raise Invalid("That is you.", fields={"username": ["not yourself"]})
    return other


def follow(*, user: User, username: str) -> None:
    """`user` follows `username` (friends once both follow); again is harmless. Not across a
    block, either way."""
    other = _other(user, username)
    if other.pk in selectors.blocked_ids(user.pk):
        raise Blocked("One of you blocked the other.")
    with transaction.atomic():
        _, created = Follow.objects.get_or_create(follower=user, followed=other)
        if created:
            followed.send(sender=User, user_id=other.pk, follower=user.get_username())


def unfollow(*, user: User, username: str) -> None:
    Follow.objects.filter(follower=user, followed=_other(user, username)).delete()


def block(*, user: User, username: str) -> None:
    """`user` blocks `username`: the follows between them end, and what the layers above let
    one do through the other (block_made); again is harmless."""
    other = _other(user, username)
    with transaction.atomic():
        Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(follower=user, followed=other).delete()
        Follow.objects.filter(follower=other, followed=user).delete()
        block_made.send(sender=User, user_id=user.pk, other_id=other.pk)
        _tell_block(user, other, blocked=True)


def unblock(*, user: User, username: str) -> None:
    other = _other(user, username)
    with transaction.atomic():
        Block.objects.filter(blocker=user, blocked=other).delete()
        _tell_block(user, other, blocked=False)


def _tell_block(user: User, other: User, *, blocked: bool) -> None:
    transaction.on_commit(
        lambda: block_changed.send(
            sender=User, user_id=user.pk, username=other.username, blocked=blocked
        )
    )
