"""Inviting a friend to a table: `ws/me/` at once, and Web Push where they have no socket."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from accounts.selectors import friend_ids
from core.errors import GameNotActive, NotAFriend, NotAPlayer
from games import push, selectors
from games.models import Game, Invitation
from games.signals import game_invited


def game_invite(*, game_id: int, user: User, username: str) -> None:
    """A player of the table invites a friend (a mutual follow) to it: to join while it is
    open, to watch once it runs. Asking again invites again."""
    game = selectors.game_get(game_id)
    if selectors.seat_of(selectors.seats_of(game), user) is None:
        raise NotAPlayer("Only the table's players invite to it.")
    if game.is_over:
        raise GameNotActive("The game is over: start a rematch instead.")
    friend = User.objects.filter(username=username).first()
    if friend is None or friend.pk not in friend_ids(user.pk):
        raise NotAFriend("You can invite your friends only: follow each other first.")
    invite_users(game.pk, user, [friend.pk])


def invite_users(game_id: int, sender: User, user_ids: list[int], *, rematch: bool = False) -> None:
    """Invite each user to the table (they may then join it without its code, and watch it):
    `ws/me/` tells them at once, Web Push those with no socket open (notifications.receivers)."""
    for user_id in user_ids:
        Invitation.objects.update_or_create(
            game_id=game_id, user_id=user_id, defaults={"sender": sender}
        )
    invite: push.InviteMessage = {"type": "me.invite", "game": game_id, "sender": sender.username}
    push.send_many([(push.me_group(user_id), invite) for user_id in user_ids])
    for user_id in user_ids:
        game_invited.send(
            sender=Game,
            game_id=game_id,
            user_id=user_id,
            inviter=sender.username,
            rematch=rematch,
        )


def invitations_between_end(*, user_id: int, other_id: int) -> None:
    """In a block's transaction: the invitations between the two end, whoever sent them; after
    the commit every game socket of either asks again whether its user may still watch (the
    block ended their friendship too), and closes if not."""
    between = Q(user_id=user_id, sender_id=other_id) | Q(user_id=other_id, sender_id=user_id)
    Invitation.objects.filter(between).delete()
    check: push.AccessChangedMessage = {"type": "game.access"}
    groups = [push.user_group(user_id), push.user_group(other_id)]
    transaction.on_commit(lambda: push.send_many([(group, check) for group in groups]))
