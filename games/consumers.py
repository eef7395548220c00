"""The game websocket (the API contract, "WebSocket"): pushes views, takes sync, move and chat
messages."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.contrib.auth.models import User
from django.db import DatabaseError, connection
from django.http import HttpRequest
from django.utils import translation

from accounts.authentication import session_user_id
from accounts.standing import is_suspended, is_suspended_id
from apikit import throttles
from apikit.unavailable import refusal_or_unavailable
from core import fastjson, limits, logcontext
from core.errors import Error, NotAPlayer, error_body
from core.text import json_problem
from games import chat_presets, metrics, presence, push, selectors, services
from games.models import Game
from games.move_input import MOVE_KINDS, move_request, socket_move_body
from games.selectors import AnyUser, GameView

log = logging.getLogger(__name__)

# Socket database work runs in a few threads of its own: a move spends most of its time in
# the thread waiting for PostgreSQL's answers (py-spy under bench/live.py), so moves of
# different games overlap there, while one game's stay serialised by its row lock. Few
# enough that each holds one of the connection pool's 20 connections with room to spare.
DB_THREADS = 4
_db_threads = ThreadPoolExecutor(max_workers=DB_THREADS, thread_name_prefix="socket-db")


@cache  # one wrapper a function: making one inspects the function, for every message
def in_db(func: Callable[..., Any]) -> Callable[..., Awaitable[Any]]:
    """Run `func` in one of the socket database threads, then hand the thread's connection
    back to the pool (as CONN_MAX_AGE=0 would; said here, since channels' own clean-up is
    switched off under its test communicators and a thread would keep its connection)."""

    def closing(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        finally:
            connection.close()

    return database_sync_to_async(closing, thread_sensitive=False, executor=_db_threads)  # type: ignore[no-any-return]


class FastJsonConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    """A JSON socket whose frames are encoded by orjson, and whose messages from the channel
    layer go straight to their handler: channels would first hop to the database thread to
    close stale connections for every pushed message, queueing each push behind the moves.
    Nothing here touches the database but through in_db, which closes them itself."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return fastjson.dumps(content)

    # What this socket counted, each taken back once when it ends (_release).
    joined: tuple[str, ...] = ()  # the channel layer's groups it joined
    # In the socket registry: among its user's sockets, a game's spectators or (signed out)
    # its address's.
    registered: presence.Socket | None = None
    counted = False  # among the open sockets of the metrics

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the socket; however it ends (a disconnect, or an error with no disconnect
        after it), take back what it counted (docs/architecture.md, "A socket's counts")."""
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self._release()

    async def _release(self) -> None:
        """Leave the groups first (the push that this user left is not sent to this socket),
        then the counts, taken back even if leaving failed."""
        joined, self.joined = self.joined, ()
        try:
            for group in joined:
                await self.channel_layer.group_discard(group, self.channel_name)
        finally:
            if self.counted:
                self.counted = False
                metrics.open_sockets.dec()
            registered, self.registered = self.registered, None
            await _absent(registered)

    async def _join_and_accept(self, groups: tuple[str, ...]) -> None:
        """Join these groups of the channel layer, then accept the socket."""
        self.joined = groups
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        self.counted = True
        metrics.open_sockets.inc()

    async def _within_address_limit(self) -> bool:
        """Count a signed-out socket among its address's (MAX_ANONYMOUS_SOCKETS_PER_ADDRESS);
        past the limit it is refused (4429, as a user's sockets past theirs) and False."""
        most = presence.address_limit()
        if most is None or self.scope["user"].is_authenticated:
            return True
        members = await self._registry().join(presence.from_key(_address(self.scope)))
        if members is None or len(members) <= most:  # None: Redis failed, so let it in
            return True
        registered, self.registered = self.registered, None
        await _absent(registered)  # at once: it no longer counts while it closes
        await self.refuse(presence.CLOSE_TOO_MANY_SOCKETS)
        return False

    def _registry(self) -> presence.Socket:
        """This socket's place in the registry (joined one set at a time)."""
        if self.registered is None:
            self.registered = presence.Socket(self.channel_name)
        return self.registered

    async def refuse(self, code: int) -> None:
        """Accept the socket, then close it with `code` (API.md's close codes): a server whose
        application closes before accepting refuses the handshake with HTTP 403, and no client
        would learn why."""
        await self.accept()
        await self.close(code=code)

    async def _count_socket(self) -> None:
        """Past MAX_SOCKETS_PER_USER with this accepted socket, its user's oldest sockets, in
        whichever process, are told to close (best effort, like every push)."""
        most = presence.limit()
        if most is None or self.registered is None:
            return
        evicted: presence.SocketEvicted = {"type": "socket.evicted"}
        for channel in self.registered.oldest_past(most):
            try:
                await asyncio.wait_for(self.channel_layer.send(channel, evicted), push.PUSH_TIMEOUT)
            except Exception as error:
                log.warning("socket %s past the limit not told: %r", channel, error)

    async def socket_evicted(self, message: presence.SocketEvicted) -> None:
        """The user opened one socket too many and this is their oldest: it stops counting at
        once, and closes (4429); told twice, it closes once."""
        registered, self.registered = self.registered, None
        if registered is not None:
            await _absent(registered)
            await self.close(code=presence.CLOSE_TOO_MANY_SOCKETS)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every socket's frames, read the one way: a frame no message of the contract can be
        gets an `error`, and the socket stays open; the others go to receive_json."""
        content, problem = read_frame(text_data, bytes_data)
        if problem is not None:
            await self._send_error(error_body("invalid", problem))
            return
        await self.receive_json(content)

    async def _send_error(
        self, body: Error, message_id: push.ClientMessageId | None = None
    ) -> None:
        error: push.ErrorSocketMessage = {"type": "error", "error": body["error"]}
        if message_id is not None:
            error["id"] = message_id
        await self.send_json(error)


def read_frame(text: str | None, data: bytes | None) -> tuple[Any, str | None]:
    """A frame's JSON value, or why it is refused. Its length is checked before it is parsed:
    none of the contract's messages is longer than SOCKET_MESSAGE_MAX_LENGTH."""
    frame = text if text is not None else data or b""
    if len(frame) > limits.SOCKET_MESSAGE_MAX_LENGTH:
        return None, f"A message is at most {limits.SOCKET_MESSAGE_MAX_LENGTH} characters long."
    try:
        content = json.loads(frame)
    except ValueError:  # UnicodeDecodeError is a ValueError
        return None, "Messages are JSON objects."
    except RecursionError:
        return None, "JSON is nested too deep."
    return content, json_problem(content)


_throttle_hit = sync_to_async(throttles.hit, thread_sensitive=False)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_SUSPENDED = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_NOT_ALLOWED = 4403  # the table's players chose who may watch (API.md)


class GameConsumer(FastJsonConsumer):
    """One socket of one user at one game: their seat's view, or the public one."""

    game_id: int
    user_id: int | None
    seated = False  # chat belongs to the table's players: spectators get none
    seq = -1  # the seq of the newest view this socket has sent
    # The seq of this socket's last change and the id of its message, until a view sent
    # includes it.
    answering: tuple[int, push.ClientMessageId] | None = None
    muted: frozenset[str] = frozenset()  # the players this user blocked: none of their chat
    language = "en"  # the reader's, for preset chat: from their cookie or Accept-Language

    async def connect(self) -> None:
        if await _refused(self, signed_out=True):
            return
        user = self.scope["user"]
        self.user_id = user.pk  # None: a signed-out visitor, who watches
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        logcontext.game_id.set(self.game_id)  # on every log line of this socket
        if not await self._within_address_limit():  # before any query: refusals cost none
            return
        found, allowed = await in_db(_game_standing)(self.game_id, user)
        if not found or not allowed:
            await self.refuse(CLOSE_NOT_ALLOWED if found else CLOSE_NOT_FOUND)
            return
        # Group membership expires after a day in channels_redis: join again on every connect.
        # A change's views come on the game's group; a player's chat on their seat's.
        # The others hear first that this user came (if no other socket of theirs is open);
        # this socket then starts from a view that says so.
        groups: tuple[str, ...] = (push.game_group(self.game_id),)
        if user.is_authenticated:
            await _present(self._registry(), user.pk)
            groups += (push.seat_group(self.game_id, user.pk), push.user_group(user.pk))
        await self._join_and_accept(groups)
        if user.is_authenticated:
            await self._count_socket()
            self.muted = await in_db(_blocked_names)(user.pk)
            self.language = _language(self.scope)
        await self._send_view()
        if not self.seated:  # among the table's spectators
            await self._registry().join(presence.watch_key(self.game_id))

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if throttles.enabled():
            await self._throttled_or(self._dispatch, content)
        else:
            await self._dispatch(content)

    async def _dispatch(self, content: Any) -> None:
        """A message with its client message id taken out: the answer echoes it."""
        message_id: push.ClientMessageId | None = None
        if isinstance(content, dict) and "id" in content:
            content = dict(content)
            message_id = content.pop("id")
            if not is_message_id(message_id):
                await self._send_error(error_body("invalid", BAD_ID))
                return
        await self._answer(content, message_id)

    async def _throttled_or(self, action: Any, content: Any) -> None:
        """Socket messages count against the `socket` rate (a flood of sync costs queries)."""
        who = str(self.user_id) if self.user_id is not None else _address(self.scope)
        wait = await _throttle_hit("socket", who)
        if wait is None:
            await action(content)
        else:
            message = f"Too many messages: wait {wait} s (sync after a gap in seq, not in a loop)."
            await self._send_error(error_body("rate_limited", message))

    async def _answer(self, content: Any, message_id: push.ClientMessageId | None) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            await self._send_view(message_id)
        elif kind == "move" or kind in MOVE_KINDS or kind in ("back", "sit_out"):
            action = _STANDING.get(kind, _apply_move)
            seq = await self._refusable(action, content, message_id)
            # The first view that includes the change carries the id: the push's. R18: a
            # `back` or `sit_out` that changed nothing gets this socket's view back at once.
            if seq is False:
                await self._send_view(message_id)
            elif seq is not None and message_id is not None:
                self.answering = (seq, message_id)
        elif kind == "chat":
            await self._refusable(_post_chat, content, message_id)
        else:
            await self._send_error(error_body("invalid", UNKNOWN_TYPE), message_id)

    async def _refusable(
        self, action: Any, content: dict[str, Any], message_id: push.ClientMessageId | None
    ) -> Any:
        """Run a service and return what it returns; its refusal comes back on this socket
        only, as the contract's error with the message's id (and None is returned)."""
        user = self.scope["user"]
        if not user.is_authenticated:
            await self._send_error(error_body("not_authenticated", "Sign in to play."), message_id)
            return None
        try:
            return await push.published_after(in_db(action)(self.game_id, user, content))
        except Exception as error:
            body = refusal_or_unavailable(error)
            if body is None:
                raise
            await self._send_error(body, message_id)
            return None

    async def game_state(self, message: push.GameStateMessage) -> None:
        """A view pushed after a committed change, with the rows it appended: this user's own
        if they sit at the table, else the public one; with the id of this socket's message
        that it is the first view to include."""
        if message["seq"] < self.seq:
            return  # late: this socket has sent a newer view
        frame, self.seated = push.frame_for(message, self.user_id)
        self.seq = message["seq"]
        if self.answering is not None and self.seq >= self.answering[0]:
            frame, self.answering = push.with_id(frame, self.answering[1]), None
        await self.send(text_data=frame)

    async def chat_message(self, message: push.ChatMessageMessage) -> None:
        shown = message["message"]
        if not self.seated or shown["username"] in self.muted:
            return
        if shown["preset"] is not None:
            shown = {**shown, "text": chat_presets.text_of(shown["preset"], self.language)}
        await self._send({"type": "chat", "message": shown})

    async def chat_hidden(self, message: push.ChatHiddenMessage) -> None:
        if self.seated:
            await self._send({"type": "chat_hidden", "id": message["id"]})

    async def account_closed(self, message: push.AccountClosedMessage) -> None:
        """The account was suspended: this socket stops at once."""
        await self.close(code=CLOSE_SUSPENDED)

    async def user_block(self, message: push.BlockChangedMessage) -> None:
        """The user blocked a player (or lifted it): their chat stops (or comes) at once."""
        if message["blocked"]:
            self.muted = self.muted | {message["username"]}
        else:
            self.muted = self.muted - {message["username"]}

    async def game_access(self, message: push.AccessChangedMessage) -> None:
        """A block may have ended the invitation or friendship this socket watches through:
        if its user may no longer watch the table, it closes (4403)."""
        _found, allowed = await in_db(_game_standing)(self.game_id, self.scope["user"])
        if not allowed:
            await self.close(code=CLOSE_NOT_ALLOWED)

    async def _send_view(self, message_id: push.ClientMessageId | None = None) -> None:
        view = await in_db(_view)(self.game_id, self.scope["user"])
        self.seq, self.seated = max(self.seq, view["seq"]), view["you"] is not None
        state: push.StateSocketMessage = {"type": "state", "state": view, "events": []}
        if message_id is not None:
            state["id"] = message_id
        await self._send(state)

    async def _send(self, message: push.SocketMessage) -> None:
        await self.send_json(message)


class LobbyConsumer(FastJsonConsumer):
    """Tells a lobby page that tables changed; the page fetches the list it may see."""

    async def connect(self) -> None:
        if await self._within_address_limit():
            await self._join_and_accept((push.LOBBY_GROUP,))

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        return None  # the lobby only listens

    async def lobby_changed(self, message: push.LobbyChangedMessage) -> None:
        lobby: push.LobbySocketMessage = {
            "type": "lobby",
            "game": message["game"],
            "status": message["status"],
        }
        await self.send_json(lobby)


class MeConsumer(FastJsonConsumer):
    """One user's socket for all their tables (`ws/me/`): `turn` when a decision becomes theirs
    anywhere, `games` when their list of games changes, `invite` when a friend invites them to
    a table, `seated` when their seek is seated (R28). It only listens."""

    async def connect(self) -> None:
        if await _refused(self):
            return
        user = self.scope["user"]
        await _present(self._registry(), user.pk)
        await self._registry().join(presence.me_key(user.pk))  # it hears turns and games
        await self._join_and_accept((push.me_group(user.pk), push.user_group(user.pk)))
        await self._count_socket()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        return None  # nothing to ask: the client fetches its lists over REST

    async def me_turn(self, message: push.TurnMessage) -> None:
        turn: push.TurnSocketMessage = {
            "type": "turn",
            "game": message["game"],
            "deadline": message["deadline"],
        }
        await self.send_json(turn)

    async def me_games(self, message: push.GamesChangedMessage) -> None:
        games: push.GamesSocketMessage = {"type": "games"}
        await self.send_json(games)

    async def me_invite(self, message: push.InviteMessage) -> None:
        invite: push.InviteSocketMessage = {
            "type": "invite",
            "game": message["game"],
            "from": message["sender"],
        }
        await self.send_json(invite)

    async def me_seated(self, message: push.SeatedMessage) -> None:
        seated: push.SeatedSocketMessage = {
            "type": "seated",
            "game": message["game"],
            "seek": message["seek"],
        }
        await self.send_json(seated)

    async def account_closed(self, message: push.AccountClosedMessage) -> None:
        await self.close(code=CLOSE_SUSPENDED)

    async def user_block(self, message: push.BlockChangedMessage) -> None:
        return None  # this socket carries no chat

    async def game_access(self, message: push.AccessChangedMessage) -> None:
        return None  # this socket watches no table


UNKNOWN_TYPE = "'type' is one of {}.".format(
    ", ".join(repr(kind) for kind in ("sync", "move", *MOVE_KINDS, "chat", "back", "sit_out"))
)
MESSAGE_ID_LENGTH = 64
MESSAGE_ID_MAX = 2**53 - 1  # exact in every client's JSON numbers
BAD_ID = (
    f"'id' is a string of 1 to {MESSAGE_ID_LENGTH} characters or a whole number from 0 to"
    f" {MESSAGE_ID_MAX}."
)


def is_message_id(value: object) -> bool:
    """Whether a client may name its message so (the answer echoes it)."""
    if isinstance(value, str):
        return 1 <= len(value) <= MESSAGE_ID_LENGTH
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MESSAGE_ID_MAX


async def _present(socket: presence.Socket, user_id: int) -> None:
    """Count a socket of this user; if it is their first, their tables hear they are online."""
    if await socket.join_user(user_id):
        await _tell_presence(user_id)


async def _absent(socket: presence.Socket | None) -> None:
    """Take a socket out of the registry; if it was its user's last, their tables hear they
    left."""
    if socket is not None and await socket.close() and socket.user_id is not None:
        await _tell_presence(socket.user_id)


async def _tell_presence(user_id: int) -> None:
    """Best effort: a seat's `online` is right again in the next view anyway."""
    try:
        await in_db(services.presence_told)(user_id)
    except DatabaseError as error:
        log.warning("presence of user %s not told: %r", user_id, error)


async def _refused(consumer: FastJsonConsumer, *, signed_out: bool = False) -> bool:
    """Refuse the socket of a suspended (4403) or, unless `signed_out` may watch, a signed-out
    (4401) user; True if it was."""
    if await in_db(_is_suspended_socket)(consumer.scope):
        await consumer.refuse(CLOSE_SUSPENDED)
        return True
    user = consumer.scope.get("user")
    refused = consumer.scope.get("token_refused") or not signed_out
    if user is None or (not user.is_authenticated and refused):
        await consumer.refuse(CLOSE_UNAUTHENTICATED)
        return True
    return False


def _is_suspended_socket(scope: dict[str, Any]) -> bool:
    """A token user or a session's user who is suspended (the session backend already sees
    them as anonymous, so ask by the id the session holds)."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return is_suspended(user)
    user_id = session_user_id(scope.get("session"))
    return user_id is not None and is_suspended_id(user_id)


def _address(scope: dict[str, Any]) -> str:
    """A signed-out visitor's address, for their rate."""
    client = scope.get("client") or ("unknown",)
    return f"ip-{client[0]}"


def _game_standing(game_id: int, user: AnyUser) -> tuple[bool, bool]:
    """Whether the game exists, and whether the user may see it at all (its `visibility` and
    `spectators` settings)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False, False
    try:
        selectors.ensure_may_watch(game, selectors.seats_of(game), user)
    except NotAPlayer:
        return True, False
    return True, True


def _blocked_names(user_id: int) -> frozenset[str]:
    blocked = User.objects.filter(blocked_by__blocker_id=user_id)
    return frozenset(blocked.values_list("username", flat=True))


def _view(game_id: int, user: User) -> GameView:
    return selectors.game_view(selectors.game_get(game_id), user)


def _language(scope: dict[str, Any]) -> str:
    """The language Django's LocaleMiddleware would choose for this socket's handshake."""
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return translation.get_language_from_request(request)


def _post_chat(game_id: int, user: User, message: dict[str, Any]) -> None:
    services.chat_post(
        game_id=game_id, user=user, text=message.get("text"), preset=message.get("preset")
    )


def _back(game_id: int, user: User, message: dict[str, Any]) -> int | bool:
    """The seq of the change, or False if the seat was not away."""
    outcome, changed = services.seat_back(game_id=game_id, user=user)
    return outcome.game.seq if changed else False


def _sit_out(game_id: int, user: User, message: dict[str, Any]) -> int | bool:
    """The seq of the change, or False if the seat was already away."""
    outcome, changed = services.seat_sit_out(game_id=game_id, user=user)
    return outcome.game.seq if changed else False


def _apply_move(game_id: int, user: User, message: dict[str, Any]) -> int:
    """The seq of the change the move made."""
    body, seq = move_request(socket_move_body(message))
    outcome = services.move_apply(
        game_id=game_id, user=user, body=body, expected_seq=seq, door="socket"
    )
    return outcome.game.seq


_STANDING = {"back": _back, "sit_out": _sit_out}
