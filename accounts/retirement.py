"""A deleted account: its identity erased and its name retired. The user row stays, renamed
`deleted-<id>`, so finished games, the league and tournaments keep the seat."""

from __future__ import annotations

import re

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.models import Block, Follow, RetiredUsername, VerifiedEmail

DELETED_NAME = re.compile(r"deleted-[0-9]+", re.IGNORECASE)


def deleted_name(user: User) -> str:
    return f"deleted-{user.pk}"


def is_deleted(user: User) -> bool:
    """Whether the account was deleted: no other account can have its `deleted-<id>` name."""
    return user.username == deleted_name(user)


def is_retired(username: str) -> bool:
    """Whether sign-up must refuse this name: a deleted account's, or one shaped like the
    names deleted accounts get."""
    return bool(DELETED_NAME.fullmatch(username)) or (
        RetiredUsername.objects.filter(username__iexact=username).exists()
    )


def account_anonymise(*, user: User) -> None:
    """In the caller's transaction: the name retired and replaced, the account unusable
    (inactive, no password, no address), its tokens, sessions, follows and blocks gone."""
    RetiredUsername.objects.get_or_create(username=user.username)
    user.username = deleted_name(user)
    user.email = user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    VerifiedEmail.objects.filter(user=user).delete()
    Token.objects.filter(user=user).delete()
    Follow.objects.filter(follower=user).delete()
    Follow.objects.filter(followed=user).delete()
    Block.objects.filter(blocker=user).delete()
    Block.objects.filter(blocked=user).delete()
    sessions_end(user)


def sessions_end(user: User) -> None:
    """Delete every stored session logged in as `user` (their data names only the user id)."""
    ended = [
        session.pk
        for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(session.get_decoded().get(SESSION_KEY)) == str(user.pk)
    ]
    Session.objects.filter(pk__in=ended).delete()
