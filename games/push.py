"""Pushing each connected player their own view after a committed change (never before).

Each socket of a game is in two groups: its user's group for that game and the game's watch
group. After a change, each seated user's group is sent that user's view and the event rows
the change appended as that seat may see them; the watch group is sent the public view and
public rows, which sockets of seated users ignore. So no message carries a hand to anyone who
may not see it. One push per transaction, built from what the services already hold (no query).
Delivery is at-most-once: views and rows carry `seq`, and clients fetch `/events/` on a gap.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal, NotRequired, TypedDict, get_args

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from apikit.schema import DateTime
from core import fastjson
from core.errors import ErrorDetail
from games import infra, selectors
from games.models import GameStatus, Seat, Visibility
from games.outcome import Outcome
from games.selectors import ChatMessageView, GameView
from games.selectors import EventRow as EventRowView

log = logging.getLogger(__name__)

# A push waits at most this long for Redis: a move's answer never hangs on the channel layer.
PUSH_TIMEOUT = 1.0

LOBBY_GROUP = "lobby"


# -- channel-layer messages (`type` names the consumer method that handles it) ---------------
class GameStateMessage(TypedDict):
    """A StateSocketMessage encoded once, where the push is built: the sockets send `frame` as
    it is (nothing to decode and encode again per socket); `seq` is its view's, and `you`
    whether that view is a seat's own."""

    type: Literal["game.state"]
    seq: int
    you: bool
    frame: str
    seated: NotRequired[list[int]]  # on the watch group: users who get their own view instead


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


class BlockChangedMessage(TypedDict):
    """To every socket of a player who blocked `username` (or lifted the block)."""

    type: Literal["user.block"]
    username: str
    blocked: bool


class AccessChangedMessage(TypedDict):
    """To every socket of a user whom a block may have kept from a table they watch: each
    asks again whether its user may still watch (4403 if not)."""

    type: Literal["game.access"]


class TurnMessage(TypedDict):
    type: Literal["me.turn"]
    game: int
    deadline: DateTime


class GamesChangedMessage(TypedDict):
    type: Literal["me.games"]


class InviteMessage(TypedDict):
    type: Literal["me.invite"]
    game: int
    sender: str


class SeatedMessage(TypedDict):
    type: Literal["me.seated"]
    game: int
    seek: int


class Notice(TypedDict):
    """A change in a layer above the games (a tournament's): `type` names the handler of the
    sockets that listen to its group; that layer's own message adds what they pass on."""

    type: str


LayerMessage = (
    GameStateMessage
    | LobbyChangedMessage
    | ChatMessageMessage
    | ChatHiddenMessage
    | AccountClosedMessage
    | TurnMessage
    | GamesChangedMessage
    | InviteMessage
    | SeatedMessage
    | BlockChangedMessage
    | AccessChangedMessage
    | Notice
)


# -- what the sockets send their clients (API.md "WebSocket") --------------------------------
class StateSocketMessage(TypedDict):
    """The caller's game view after a committed change, with the event rows that change
    appended as the caller may see them (as in `GET /events/`); in answer to `sync` or on
    connect, with no rows."""

    type: Literal["state"]
    state: GameView
    events: list[EventRowView]


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


class TurnSocketMessage(TypedDict):
    """On `ws/me/`: a decision at this game is now yours; the server makes it for you at
    `deadline` (R16, sooner while you are away, R18)."""

    type: Literal["turn"]
    game: int
    deadline: DateTime


# On `ws/me/`: a friend at this table invites you to join it (or to watch, once it runs).
InviteSocketMessage = TypedDict(
    "InviteSocketMessage", {"type": Literal["invite"], "game": int, "from": str}
)


class GamesSocketMessage(TypedDict):
    """On `ws/me/`: your list of games changed (a table of yours filled, started or ended, you
    joined or left one, or a turn of yours ended): fetch it again."""

    type: Literal["games"]


class SeatedSocketMessage(TypedDict):
    """On `ws/me/`: your seek was seated at this new table (R28): go there."""

    type: Literal["seated"]
    game: int
    seek: int


SocketMessage = (
    StateSocketMessage
    | ErrorSocketMessage
    | ChatSocketMessage
    | ChatHiddenSocketMessage
    | LobbySocketMessage
    | TurnSocketMessage
    | GamesSocketMessage
    | InviteSocketMessage
    | SeatedSocketMessage
)
SOCKET_MESSAGES = get_args(SocketMessage)
"""Documented as components of the OpenAPI schema (wizardsite.schema.add_components)."""


def user_group(user_id: int) -> str:
    """Every socket of one user: closed at once when the account is suspended."""
    return f"user-{user_id}"


def me_group(user_id: int) -> str:
    """The user's `ws/me/` sockets: their turns and their list of games, at every table."""
    return f"me-{user_id}"


def seat_group(game_id: int, user_id: int) -> str:
    """The sockets one user has open at one game (names allow only letters, digits, - _ .)."""
    return f"game-{game_id}-user-{user_id}"


def watch_group(game_id: int) -> str:
    """Every socket of one game, for the public view."""
    return f"game-{game_id}-watch"


def messages_of(outcome: Outcome) -> list[tuple[str, LayerMessage]]:
    """What a committed change tells each group: each seated user their own view and rows,
    the watch group the public ones, the lobby a table's change, `ws/me/` sockets theirs."""
    game, seats = outcome.game, outcome.seats
    views, public = outcome.views
    messages: list[tuple[str, LayerMessage]] = []
    for seat in seats:
        if seat.user_id is not None:
            rows = [selectors.event_view(game, row, seat.number) for row in outcome.rows]
            messages.append((seat_group(game.pk, seat.user_id), _state(views[seat.user_id], rows)))
    public_rows = [selectors.event_view(game, row, None) for row in outcome.rows]
    watch = _state(public, public_rows)
    watch["seated"] = [seat.user_id for seat in seats if seat.user_id is not None]
    messages.append((watch_group(game.pk), watch))
    listed = game.visibility == Visibility.PUBLIC  # a private table: never in a lobby
    if (outcome.lobby or outcome.scored) and listed:
        status = GameStatus(game.status)
        messages.append((LOBBY_GROUP, {"type": "lobby.changed", "game": game.pk, "status": status}))
    return messages + _for_me_sockets(outcome)


def _for_me_sockets(outcome: Outcome) -> list[tuple[str, LayerMessage]]:
    """`games` to every player whose list of games changed (a table's seats or status, or a
    turn of theirs that ended); `turn` to the person whose decision this change made due."""
    game, seats = outcome.game, outcome.seats
    users = set(outcome.departed)
    if outcome.lobby:
        users |= {seat.user_id for seat in seats if seat.user_id is not None}
    moved = {row.seat for row in outcome.rows if row.seat is not None}
    users |= {
        seat.user_id
        for seat in seats
        if seat.user_id is not None and seat.number in moved and seat.number != game.to_act
    }
    messages: list[tuple[str, LayerMessage]] = [
        (me_group(user_id), {"type": "me.games"}) for user_id in sorted(users)
    ]
    if outcome.turn is not None:
        turn: TurnMessage = {
            "type": "me.turn",
            "game": game.pk,
            "deadline": selectors.iso(outcome.turn.deadline),
        }
        messages.append((me_group(outcome.turn.user_id), turn))
    return messages


def _state(view: GameView, rows: list[EventRowView]) -> GameStateMessage:
    frame: StateSocketMessage = {"type": "state", "state": view, "events": rows}
    return {
        "type": "game.state",
        "seq": view["seq"],
        "you": view["you"] is not None,
        "frame": fastjson.dumps(frame),
    }


def decode(message: GameStateMessage) -> StateSocketMessage:
    """The socket message a state push carries (for tests and tools that read the layer)."""
    frame: StateSocketMessage = fastjson.loads(message["frame"])
    return frame


def players_of(seats: list[Seat], game_id: int) -> list[str]:
    """The groups of a table's players (the chat is theirs alone)."""
    return [seat_group(game_id, seat.user_id) for seat in seats if seat.user_id is not None]


def send(group: str, message: LayerMessage) -> None:
    """Best effort: a lost push is repaired by the client's seq check and resync."""
    send_many([(group, message)])


def send_many(messages: list[tuple[str, LayerMessage]]) -> None:
    """Each message to its group, in order; best effort, like every push, and bounded: a send
    that fails or takes longer than PUSH_TIMEOUT is logged and dropped (clients resync by
    `seq`). On Redis, one pipeline from the caller's thread; on another layer (the tests'), one
    `group_send` after another in an event loop."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    try:
        if not infra.publish_many(layer, messages, PUSH_TIMEOUT):
            async_to_sync(_send)(layer, messages)
    except Exception as error:
        groups = ", ".join(group for group, _ in messages)
        log.warning("push to %s dropped: %r", groups, error)


async def _send(layer: Any, messages: list[tuple[str, LayerMessage]]) -> None:
    async def in_order() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    await asyncio.wait_for(in_order(), PUSH_TIMEOUT)
