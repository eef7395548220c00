"""Pushing each connected player their own view after a committed change (never before).

One channel-layer group per game. The message carries each seated user's view (made once
here) and the public view, and the event rows the change appended as each of them may see them;
a socket forwards only its own user's share, or the public one to spectators, so a player who
joins a table while connected sees their hand at once. Delivery is at-most-once: every view and
event carries the game's `seq`, and clients fetch `/events/` on a gap.
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


def publish_game(game_id: int, *, lobby: bool = False, since_seq: int | None = None) -> None:
    """Send every socket of the game the view its user may see and, with `since_seq` (the seq
    before the change), the event rows after it as that user may see them; without it each
    socket reads the rows after the last view it sent. With `lobby`, also tell the lobbies that
    the list of tables changed (a table opened, filled, started or ended)."""
    game = Game.objects.select_related("created_by").filter(pk=game_id).first()
    if game is None:
        return
    seats = selectors.seats_of(game)
    views, public = selectors.game_views(game, seats)
    message: dict[str, Any] = {
        "type": "game.state",
        "views": {str(user_id): view for user_id, view in views.items()},
        "public": public,
    }
    if since_seq is not None:
        rows = list(selectors.game_events(game, since_seq))
        message["events"] = {
            str(seat.user_id): [selectors.event_view(game, row, seat.number) for row in rows]
            for seat in seats
            if seat.user_id is not None
        }
        message["public_events"] = [selectors.event_view(game, row, None) for row in rows]
    send(game_group(game_id), message)
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
