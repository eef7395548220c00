"""The game websocket (the API contract, "WebSocket"): pushes views, takes sync, move and chat
messages."""

from __future__ import annotations

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
from games import chat_presets, metrics, presence, push, selectors, services, socket_quota
from games.models import Game, GameStatus
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
    online: presence.Presence | None = None  # counted as one of the user's open sockets
    watching: presence.Watching | None = None  # counted among a game's spectators
    from_address: presence.FromAddress | None = None  # signed out: among its address's sockets
    quota: socket_quota.SocketQuota | None = None
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
            online, self.online = self.online, None
            await _absent(online)
            counts = (self.watching, self.from_address)
            self.watching = self.from_address = None
            for counted in counts:
                if counted is not None:
                    await counted.stop()
            quota, self.quota = self.quota, None
            await socket_quota.stop(quota)

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
        most = socket_quota.address_limit()
        if most is None or self.scope["user"].is_authenticated:
            return True
        self.from_address = await presence.FromAddress(_address(self.scope)).start()
        if (self.from_address.count or 0) <= most:  # the cache failed: let it in
            return True
        await self.from_address.stop()
        self.from_address = None
        await self.refuse(socket_quota.CLOSE_TOO_MANY_SOCKETS)
        return False

    async def refuse(self, code: int) -> None:
        """Accept the socket, then close it with `code` (API.md's close codes): a server whose
        application closes before accepting refuses the handshake with HTTP 403, and no client
        would learn why."""
        await self.accept()
        await self.close(code=code)

    async def _count_socket(self, user_id: int) -> None:
        """Count this accepted socket among its user's (MAX_SOCKETS_PER_USER)."""
        if socket_quota.limit() is not None:
            quota = socket_quota.SocketQuota(self.channel_layer, user_id, self.channel_name)
            self.quota = await quota.start()

    async def socket_opened(self, message: socket_quota.SocketAnnounced) -> None:
        """Another socket of this user opened (or lives): past the limit, the oldest closes."""
        if self.quota is not None and self.quota.heard(message):
            await socket_quota.stop(self.quota)
            self.quota = None
            await self.close(code=socket_quota.CLOSE_TOO_MANY_SOCKETS)

    async def socket_closed(self, message: socket_quota.SocketAnnounced) -> None:
        if self.quota is not None:
            self.quota.heard(message)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every socket's frames, read the one way: a frame no message of the contract can be
        gets an `error`, and the socket stays open; the others go to receive_json."""
        content, problem = read_frame(text_data, bytes_data)
        if problem is not None:
            await self._send_error(error_body("invalid", problem))
            return
        await self.receive_json(content)

    async def _send_error(self, body: Error) -> None:
        error: push.ErrorSocketMessage = {"type": "error", "error": body["error"]}
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
        found, playing, allowed = await in_db(_game_standing)(self.game_id, user)
        if not found or not allowed:
            await self.refuse(CLOSE_NOT_ALLOWED if found else CLOSE_NOT_FOUND)
            return
        # Group membership expires after a day in channels_redis: join again on every connect.
        # A player of a running game (whose seats no longer change) has only their own view
        # to hear: their socket need not hear, and drop, every public push too.
        # The others hear first that this user came (if no other socket of theirs is open);
        # this socket then starts from a view that says so.
        groups: tuple[str, ...] = ()
        if user.is_authenticated:
            self.online = await _present(user.pk)
            groups = (push.seat_group(self.game_id, user.pk), push.user_group(user.pk))
        if not playing:
            groups += (push.watch_group(self.game_id),)
        await self._join_and_accept(groups)
        if user.is_authenticated:
            await self._count_socket(user.pk)
            self.muted = await in_db(_blocked_names)(user.pk)
            self.language = _language(self.scope)
        await self._send_view()
        if not self.seated:
            self.watching = await presence.Watching(self.game_id).start()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if throttles.enabled():
            await self._throttled_or(self._dispatch, content)
        else:
            await self._dispatch(content)

    async def _throttled_or(self, action: Any, content: Any) -> None:
        """Socket messages count against the `socket` rate (a flood of sync costs queries)."""
        who = str(self.user_id) if self.user_id is not None else _address(self.scope)
        wait = await _throttle_hit("socket", who)
        if wait is None:
            await action(content)
        else:
            message = f"Too many messages: wait {wait} s (sync after a gap in seq, not in a loop)."
            await self._send_error(error_body("rate_limited", message))

    async def _dispatch(self, content: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "sync":
            await self._send_view()
        elif kind == "move" or kind in MOVE_KINDS:
            await self._refusable(_apply_move, content)
        elif kind == "chat":
            await self._refusable(_post_chat, content)
        elif kind in ("back", "sit_out"):
            # R18: when the seat's standing changed the push brings every socket of it the new
            # view; else this socket gets its view back.
            if await self._refusable(_back if kind == "back" else _sit_out, content) is False:
                await self._send_view()
        else:
            await self._send_error(error_body("invalid", UNKNOWN_TYPE))

    async def _refusable(self, action: Any, content: dict[str, Any]) -> Any:
        """Run a service and return what it returns; its refusal comes back on this socket
        only, as the contract's error (and None is returned)."""
        user = self.scope["user"]
        if not user.is_authenticated:
            await self._send_error(error_body("not_authenticated", "Sign in to play."))
            return None
        try:
            return await in_db(action)(self.game_id, user, content)
        except Exception as error:
            body = refusal_or_unavailable(error)
            if body is None:
                raise
            await self._send_error(body)
            return None

    async def game_state(self, message: push.GameStateMessage) -> None:
        """A view pushed after a committed change, with the rows it appended: this user's own
        (their group), or the public one (the watch group) unless they have their own."""
        if self.user_id in message.get("seated", ()):
            return
        if message["seq"] < self.seq:
            return  # late: this socket has sent a newer view
        self.seq, self.seated = message["seq"], message["you"]
        await self.send(text_data=message["frame"])

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
        _found, _playing, allowed = await in_db(_game_standing)(self.game_id, self.scope["user"])
        if not allowed:
            await self.close(code=CLOSE_NOT_ALLOWED)

    async def _send_view(self) -> None:
        view = await in_db(_view)(self.game_id, self.scope["user"])
        self.seq, self.seated = max(self.seq, view["seq"]), view["you"] is not None
        await self._send({"type": "state", "state": view, "events": []})

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
        self.online = await _present(user.pk)
        await self._join_and_accept((push.me_group(user.pk), push.user_group(user.pk)))
        await self._count_socket(user.pk)

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


async def _present(user_id: int) -> presence.Presence:
    """Count a socket of this user; if it is their first, their tables hear they are online."""
    online = await presence.Presence(user_id).start()
    if online.first:
        await _tell_presence(user_id)
    return online


async def _absent(online: presence.Presence | None) -> None:
    """Stop counting a socket; if it was the user's last, their tables hear they left."""
    if online is not None and await online.stop():
        await _tell_presence(online.user_id)


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


def _game_standing(game_id: int, user: AnyUser) -> tuple[bool, bool, bool]:
    """Whether the game exists, whether the user sits at it while it runs, and whether they may
    see it at all (its `visibility` and `spectators` settings)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False, False, False
    seats = selectors.seats_of(game)
    try:
        selectors.ensure_may_watch(game, seats, user)
    except NotAPlayer:
        return True, False, False
    seated = selectors.seat_of(seats, user) is not None
    return True, seated and game.status == GameStatus.ACTIVE, True


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


def _back(game_id: int, user: User, message: dict[str, Any]) -> bool:
    _, changed = services.seat_back(game_id=game_id, user=user)
    return changed


def _sit_out(game_id: int, user: User, message: dict[str, Any]) -> bool:
    _, changed = services.seat_sit_out(game_id=game_id, user=user)
    return changed


def _apply_move(game_id: int, user: User, message: dict[str, Any]) -> None:
    body, seq = move_request(socket_move_body(message))
    services.move_apply(game_id=game_id, user=user, body=body, expected_seq=seq, door="socket")
