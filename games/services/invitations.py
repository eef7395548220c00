"""Inviting a friend to a table: `ws/me/` at once, and Web Push where they have no socket."""

from __future__ import annotations

from django.contrib.auth.models import User

from accounts.selectors import friend_ids
from core.errors import GameNotActive, NotAFriend, NotAPlayer
from games import push, selectors
from games.models import Game
from games.signals import game_invited


def game_invite(*, game_id: int, user: User, username: str) -> None:
    """A player of the table invites a friend (a mutual follow) to it: to join while it is
    open, to watch once it runs. Nothing is written; asking again invites again."""
    game = selectors.game_get(game_id)
    if selectors.seat_of(selectors.seats_of(game), user) is None:
        raise NotAPlayer("Only the table's players invite to it.")
    if game.is_over:
        raise GameNotActive("The game is over: start a rematch instead.")
    friend = User.objects.filter(username=username).first()
    if friend is None or friend.pk not in friend_ids(user.pk):
        raise NotAFriend("You can invite your friends only: follow each other first.")
    invite: push.InviteMessage = {"type": "me.invite", "game": game.pk, "sender": user.username}
    push.send_many([(push.me_group(friend.pk), invite)])
    game_invited.send(sender=Game, game_id=game.pk, user_id=friend.pk, inviter=user.username)
