"""Reads for accounts: whether a player's address is verified (so whether we may mail it), and
who is a friend of whom or blocked."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypedDict

from django.contrib.auth.models import User

from accounts.models import Block, Follow, VerifiedEmail


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


def friend_ids(user_id: int) -> set[int]:
    """The users who follow `user_id` and whom they follow (friends are mutual follows)."""
    follows = Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True)
    return set(
        Follow.objects.filter(followed_id=user_id, follower_id__in=follows).values_list(
            "follower_id", flat=True
        )
    )


def blocked_ids(user_id: int) -> set[int]:
    """The users `user_id` blocked or was blocked by: neither side may meet the other."""
    blocked = Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True)
    blockers = Block.objects.filter(blocked_id=user_id).values_list("blocker_id", flat=True)
    return set(blocked) | set(blockers)


def blocked_pairs(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among these users of whom one blocked the other (see blocked_ids)."""
    ids = list(user_ids)
    blocks = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids)
    return {frozenset(pair) for pair in blocks.values_list("blocker_id", "blocked_id")}


class Relation(TypedDict):
    """How the viewer stands with another player, for the buttons on that player's profile."""

    following: bool  # the viewer follows them
    followed_by: bool  # they follow the viewer
    blocked: bool  # the viewer blocked them


def relation(viewer: User, other: User) -> Relation:
    return {
        "following": Follow.objects.filter(follower=viewer, followed=other).exists(),
        "followed_by": Follow.objects.filter(follower=other, followed=viewer).exists(),
        "blocked": Block.objects.filter(blocker=viewer, blocked=other).exists(),
    }


class Circle(TypedDict):
    """The viewer's half-made friendships and blocks, for their friends page (friends
    themselves come with their tables from games.selectors.friends_of)."""

    followers: list[str]  # who follows the viewer and is not followed back
    following: list[str]  # whom the viewer follows, who has not followed back yet
    blocked: list[str]


def circle(user: User) -> Circle:
    follows = set(Follow.objects.filter(follower=user).values_list("followed__username", flat=True))
    fans = set(Follow.objects.filter(followed=user).values_list("follower__username", flat=True))
    blocked = Block.objects.filter(blocker=user).values_list("blocked__username", flat=True)
    return {
        "followers": sorted(fans - follows),
        "following": sorted(follows - fans),
        "blocked": sorted(blocked),
    }
