"""Pushing each connected player their own view after a committed change (never before).

One channel-layer group per game. The message carries each seated user's view (made once
here) and the public view; a socket forwards only the view of its own user, or the public one
to spectators, so a player who joins a table while connected sees their hand at once. Delivery
is at-most-once: every view carries the game's `seq`, and clients resync on a gap.
"""

from __future__ import annotations

import logging
from typing import Any, Literal, TypedDict, get_args

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from core.errors import ErrorDetail
from games import selectors
from games.models import Game, GameStatus
from games.selectors import ChatMessageView, GameView

log = logging.getLogger(__name__)

# Set in Celery workers, which call async_to_sync without a lasting event loop.
CLOSE_POOLS_AFTER_SEND = False


LOBBY_GROUP = "lobby"


# -- channel-layer messages (`type` names the consumer method that handles it) ---------------
class GameStateMessage(TypedDict):
    type: Literal["game.state"]
    views: dict[str, GameView]  # by user id
    public: GameView


class LobbyChangedMessage(TypedDict):
    type: Literal["lobby.changed"]
    game: int
    status: GameStatus


class ChatMessageMessage(TypedDict):
    type: Literal["chat.message"]
    message: ChatMessageView


class ChatHiddenMessage(TypedDict):
    type: Literal["chat.hidden"]
    id: int


class AccountClosedMessage(TypedDict):
    type: Literal["account.closed"]


LayerMessage = (
    GameStateMessage
    | LobbyChangedMessage
    | ChatMessageMessage
    | ChatHiddenMessage
    | AccountClosedMessage
)


# -- what the sockets send their clients (API.md "WebSocket") --------------------------------
class StateSocketMessage(TypedDict):
    """The caller's game view after a committed change, or in answer to `sync`."""

    type: Literal["state"]
    state: GameView


class ErrorSocketMessage(TypedDict):
    """A refused or malformed message; the socket stays open."""

    type: Literal["error"]
    error: ErrorDetail


class ChatSocketMessage(TypedDict):
    type: Literal["chat"]
    message: ChatMessageView


class ChatHiddenSocketMessage(TypedDict):
    """A moderator hid this chat message: clients remove it."""

    type: Literal["chat_hidden"]
    id: int


class LobbySocketMessage(TypedDict):
    """A table opened, filled, started or ended: the lobby fetches the list it may see."""

    type: Literal["lobby"]
    game: int
    status: GameStatus


SocketMessage = (
    StateSocketMessage
    | ErrorSocketMessage
    | ChatSocketMessage
    | ChatHiddenSocketMessage
    | LobbySocketMessage
)
SOCKET_MESSAGES = get_args(SocketMessage)
"""Documented as components of the OpenAPI schema (wizardsite.schema.add_components)."""


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
        status = GameStatus(game.status)
        send(LOBBY_GROUP, {"type": "lobby.changed", "game": game_id, "status": status})


def send(group: str, message: LayerMessage) -> None:
    """Best effort: a lost push is repaired by the client's seq check and resync."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send)(layer, group, message)
    except Exception:
        log.exception("push to %s failed", group)


async def _send(layer: Any, group: str, message: LayerMessage) -> None:
    await layer.group_send(group, message)
    if CLOSE_POOLS_AFTER_SEND and hasattr(layer, "close_pools"):
        await layer.close_pools()
