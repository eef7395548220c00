"""Pushing each connected player their own view after a committed change (never before).

Every socket of a game is in the game's group; a player's sockets are also in their seat's
group (the table's chat). After a change, one message goes to the game's group: each seated
user's view and the event rows the change appended as that seat may see them, and the public
view and rows, each encoded once. Each socket sends on the frame of its own user's seat, or the
public one: no socket ever sends a hand to anyone who may not see it, and a change costs one
publish however many sockets watch it. One push per transaction, built from what the services
already hold (no query). Delivery is at-most-once: views and rows carry `seq`, and clients
`sync` on a gap.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Literal, NotRequired, TypedDict, TypeVar, get_args

from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from apikit.schema import DateTime
from core import fastjson
from core.errors import ErrorDetail
from games import presence, selectors
from games.models import GameStatus, Seat, Visibility
from games.outcome import Outcome
from games.selectors import ChatMessageView, GameView
from games.selectors import EventRow as EventRowView

log = logging.getLogger(__name__)
T = TypeVar("T")

# A push waits at most this long for Redis: a move's answer never hangs on the channel layer.
PUSH_TIMEOUT = 1.0

LOBBY_GROUP = "lobby"


# -- channel-layer messages (`type` names the consumer method that handles it) ---------------
class GameStateMessage(TypedDict):
    """One change's StateSocketMessages, each encoded once where the push is built: the sockets
    send a frame as it is (nothing to decode and encode again per socket). `seats`: each
    seated user's frame, by their id as text; `public`: everyone else's; `seq`: the views'."""

    type: Literal["game.state"]
    seq: int
    seats: dict[str, str]
    public: str


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
Messages = list[tuple[str, LayerMessage]]  # (group, message), in the order they are sent


# -- what the sockets send their clients (API.md "WebSocket") --------------------------------
ClientMessageId = str | int


class StateSocketMessage(TypedDict):
    """The caller's game view after a committed change, with the event rows that change
    appended as the caller may see them (as in `GET /events/`); in answer to `sync` or on
    connect, with no rows. `id`: the client message id of this socket's move (or `back`,
    `sit_out`, `sync`) that this view is the first to include."""

    type: Literal["state"]
    state: GameView
    events: list[EventRowView]
    id: NotRequired[ClientMessageId]


class ErrorSocketMessage(TypedDict):
    """A refused or malformed message; the socket stays open. `id`: the refused message's
    client message id, when it had one."""

    type: Literal["error"]
    error: ErrorDetail
    id: NotRequired[ClientMessageId]


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


def game_group(game_id: int) -> str:
    """Every socket of one game: its players' and its spectators'."""
    return f"game-{game_id}"


def messages_of(outcome: Outcome) -> Messages:
    """What a committed change tells each group: the game's sockets each seat's view and rows
    and the public ones, the lobby a table's change, `ws/me/` sockets theirs."""
    game, seats = outcome.game, outcome.seats
    views, public = outcome.views
    frames: dict[str, str] = {}
    for seat in seats:
        if seat.user_id is not None:
            rows = [selectors.event_view(game, row, seat.number) for row in outcome.rows]
            frames[str(seat.user_id)] = _frame(views[seat.user_id], rows)
    public_rows = [selectors.event_view(game, row, None) for row in outcome.rows]
    state: GameStateMessage = {
        "type": "game.state",
        "seq": game.seq,
        "seats": frames,
        "public": _frame(public, public_rows),
    }
    messages: Messages = [(game_group(game.pk), state)]
    listed = game.visibility == Visibility.PUBLIC  # a private table: never in a lobby
    if (outcome.lobby or outcome.scored) and listed:
        status = GameStatus(game.status)
        messages.append((LOBBY_GROUP, {"type": "lobby.changed", "game": game.pk, "status": status}))
    return messages + _for_me_sockets(outcome)


def _for_me_sockets(outcome: Outcome) -> Messages:
    """`games` to every player whose list of games changed (a table's seats or status, or a
    turn of theirs that ended); `turn` to the person whose decision this change made due. Only
    to users with a `ws/me/` socket open (one registry read): a move costs no publish to
    groups nobody listens to, and a socket that opens later fetches the lists itself."""
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
    turn = outcome.turn
    listening = presence.listening(users | ({turn.user_id} if turn is not None else set()))
    messages: Messages = [
        (me_group(user_id), {"type": "me.games"}) for user_id in sorted(users & listening)
    ]
    if turn is not None and turn.user_id in listening:
        told: TurnMessage = {
            "type": "me.turn",
            "game": game.pk,
            "deadline": selectors.iso(turn.deadline),
        }
        messages.append((me_group(turn.user_id), told))
    return messages


def _frame(view: GameView, rows: list[EventRowView]) -> str:
    state: StateSocketMessage = {"type": "state", "state": view, "events": rows}
    return fastjson.dumps(state)


def frame_for(message: GameStateMessage, user_id: int | None) -> tuple[str, bool]:
    """The frame a socket of this user sends of a state push, and whether it is a seat's own
    view (else the public one)."""
    own = message["seats"].get(str(user_id)) if user_id is not None else None
    return (own, True) if own is not None else (message["public"], False)


def with_id(frame: str, message_id: ClientMessageId) -> str:
    """A state frame (JSON text of an object) with the client message id it answers added."""
    return f'{frame[:-1]},"id":{fastjson.dumps(message_id)}}}'


def decode(message: GameStateMessage, user_id: int | None = None) -> StateSocketMessage:
    """The socket message a state push carries for this user's sockets (for tests and tools
    that read the layer)."""
    state: StateSocketMessage = fastjson.loads(frame_for(message, user_id)[0])
    return state


def players_of(seats: list[Seat], game_id: int) -> list[str]:
    """The groups of a table's players (the chat is theirs alone)."""
    return [seat_group(game_id, seat.user_id) for seat in seats if seat.user_id is not None]


def send(group: str, message: LayerMessage) -> None:
    """Best effort: a lost push is repaired by the client's seq check and resync."""
    send_many([(group, message)])


# The pushes (and what follows them) of the changes a socket's own message makes, while its
# database work runs (published_after): the socket publishes them from the event loop once that
# work returns, so a database thread never waits on Redis.
Held = list[tuple[Messages, Callable[[], None] | None]]
_held: ContextVar[Held | None] = ContextVar("held pushes", default=None)


def send_many(messages: Messages, then: Callable[[], None] | None = None) -> None:
    """Each message to its group, in order, then `then()` (the tasks of the change's next
    step: sent once everyone has been told of it). Best effort, like every push, and bounded:
    a send that fails or takes longer than PUSH_TIMEOUT is logged and dropped (clients resync
    by `seq`). From a request's thread it runs on the server's event loop, as channels
    documents (`async_to_sync(layer.group_send)`); under a socket's published_after, from its
    event loop once its work returns."""
    held = _held.get()
    if held is not None:
        held.append((messages, then))
        return
    layer = get_channel_layer()
    if layer is not None and messages:
        async_to_sync(_send)(layer, messages)
    if then is not None:
        then()


async def published_after(work: Awaitable[T]) -> T:
    """Await a socket's database work; then publish the pushes of the changes it committed, and
    send what follows each (in that order, so no next step overtakes the push of its change)."""
    held: Held = []
    token = _held.set(held)
    try:
        return await work
    finally:
        _held.reset(token)
        layer = get_channel_layer()
        for messages, then in held:
            if layer is not None and messages:
                await _send(layer, messages)
            if then is not None:  # may query, where tasks run eagerly (the tests)
                await sync_to_async(then, thread_sensitive=False)()


async def _send(layer: Any, messages: Messages) -> None:
    """Each group's messages in order; the groups at once (each send waits on Redis)."""
    by_group: dict[str, list[LayerMessage]] = {}
    for group, message in messages:
        by_group.setdefault(group, []).append(message)

    async def in_order(group: str, queue: list[LayerMessage]) -> None:
        for message in queue:
            await layer.group_send(group, message)

    sends = [in_order(group, queue) for group, queue in by_group.items()]
    try:
        async with asyncio.timeout(PUSH_TIMEOUT):
            await (sends[0] if len(sends) == 1 else asyncio.gather(*sends))
    except Exception as error:
        log.warning("push to %s dropped: %r", ", ".join(by_group), error)
