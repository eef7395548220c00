"""Pushing each connected player their own view after a committed change (never before).

One channel-layer group per game. The message carries each seated user's view (made once
here) and the public view; a socket forwards only the view of its own user, or the public one
to spectators, so a player who joins a table while connected sees their hand at once. Delivery
is at-most-once: every view carries the game's `seq`, and clients resync on a gap.
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games import selectors
from games.models import Game

log = logging.getLogger(__name__)

# Set in Celery workers, which call async_to_sync without a lasting event loop.
CLOSE_POOLS_AFTER_SEND = False


LOBBY_GROUP = "lobby"


def user_group(user_id: int) -> str:
    """Every socket of one user: closed at once when the account is suspended."""
    return f"user-{user_id}"


def game_group(game_id: int) -> str:
    """The group of a game's sockets (names allow only letters, digits, - _ .)."""
    return f"game-{game_id}"


def publish_game(game_id: int, *, lobby: bool = False) -> None:
    """Send every socket of the game the view its user may see; with `lobby`, also tell the
    lobbies that the list of tables changed (a table opened, filled, started or ended)."""
    game = Game.objects.select_related("created_by").filter(pk=game_id).first()
    if game is None:
        return
    views, public = selectors.game_views(game, selectors.seats_of(game))
    by_user = {str(user_id): view for user_id, view in views.items()}
    send(game_group(game_id), {"type": "game.state", "views": by_user, "public": public})
    if lobby:
        send(LOBBY_GROUP, {"type": "lobby.changed", "game": game_id, "status": game.status})


def send(group: str, message: dict[str, Any]) -> None:
    """Best effort: a lost push is repaired by the client's seq check and resync."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send)(layer, group, message)
    except Exception:
        log.exception("push to %s failed", group)


async def _send(layer: Any, group: str, message: dict[str, Any]) -> None:
    await layer.group_send(group, message)
    if CLOSE_POOLS_AFTER_SEND and hasattr(layer, "close_pools"):
        await layer.close_pools()
