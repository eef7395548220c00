"""Reads: what one caller may see of a game, its events, and lists of games."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal, TypedDict, get_args

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet

from accounts.retirement import is_deleted
from accounts.selectors import friend_ids
from apikit.schema import DateTime
from core.errors import NotAPlayer, NotFound
from games import chat_presets, engine, presence
from games.difficulty import Difficulty, difficulty_of
from games.engine import RoundFormat, State
from games.engine.events import EventKind
from games.engine.state import ScoreRecord
from games.engine.views import EventShown, Legal, RoundView
from games.models import (
    ChatMessage,
    Event,
    Game,
    GameStatus,
    Invitation,
    Seat,
    Spectators,
    Visibility,
)

AnyUser = User | AnonymousUser


class PlayerEntry(TypedDict):
    seat: int
    username: str
    is_bot: bool
    score: int
    away: bool  # R18: decisions made for them after at most 5 s
    resigned: bool  # R18: gave up, so away for the rest of the game
    online: bool  # a socket of this site open (games.presence); always true for a bot
    difficulty: Difficulty | None  # a bot's: easy, medium or hard; null for a person


SpecialCard = Literal["dragon_fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter"]
assert get_args(SpecialCard) == tuple(engine.SPECIAL_OPTIONS)


class Table(TypedDict):
    """What anyone may know of a table: its options and who sits where with what score."""

    id: int
    status: GameStatus
    seats: int
    bots: int
    turn_seconds: int
    hook_rule: bool
    blind_first_round: bool
    seq: int
    created_by: str
    created_at: DateTime
    visibility: Visibility
    spectators: Spectators
    min_reliability: int  # 0: anyone may join
    rounds: RoundFormat  # R19
    round_numbers: list[int]  # the rounds the table plays
    special_cards: list[SpecialCard]  # R20, in R20's order
    players: list[PlayerEntry]
    free_seats: int


class GameSummary(Table):
    """A game in a list: its options, players, free seats and progress (no cards)."""

    round_number: int | None
    to_act: int | None


class GameView(Table):
    """What one caller may see of a game (API.md "The game view")."""

    you: int | None
    round: RoundView | None
    hand: list[str] | None
    visible_hands: dict[str, list[str]]
    to_act: int | None
    deadline: DateTime | None
    legal: Legal | None
    scores: list[ScoreRecord]
    winners: list[int] | None
    shuffle_commitment: str
    shuffle_seed: str | None
    rematch: int | None
    invite: str | None  # the invitation code, for the table's players only


class EventRow(TypedDict):
    """One event row as the caller may see it (`GET /games/{id}/events/`, socket pushes)."""

    seq: int
    type: EventKind
    seat: int | None
    auto: bool
    at: DateTime
    payload: EventShown


class ChatMessageView(TypedDict):
    """A table's chat message (made by games.chat): the text as written; clients escape it."""

    id: int
    seat: int | None
    username: str
    text: str
    preset: str | None  # a preset's key: its text is in the reader's language
    at: DateTime


def game_get(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(f"There is no game {game_id}.")
    return game


def has_sat(user: User) -> bool:
    """Whether the user has ever taken a seat (a newcomer has not)."""
    return Seat.objects.filter(user=user).exists()


def ensure_may_watch(game: Game, seats: list[Seat], user: AnyUser) -> None:
    """NotAPlayer unless `user` may see this table (its view, events, socket and replay): its
    players always; anyone else as its `spectators` setting says, and at a private table only
    a friend of one of its players (API.md "Friends, invitations and who may watch")."""
    if seat_of(seats, user) is not None:
        return
    if game.spectators == Spectators.EVERYONE and game.visibility == Visibility.PUBLIC:
        return
    if is_invited(game, user):
        return  # to join it, and to watch it once it runs
    if game.spectators == Spectators.PLAYERS:
        raise NotAPlayer("Only this table's players may watch it.")
    people = {seat.user_id for seat in seats if seat.user_id is not None}
    if not user.is_authenticated or not people & friend_ids(user.pk):
        raise NotAPlayer("Only this table's players and their friends may watch it.")


def games_watchable_by(user: AnyUser) -> QuerySet[Game]:
    """The games `user` may see, in one query: ensure_may_watch's rule, for lists of games
    (a profile's recent games)."""
    open_to_all = Q(spectators=Spectators.EVERYONE, visibility=Visibility.PUBLIC)
    if not user.is_authenticated:
        return Game.objects.filter(open_to_all)
    seated = Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk)
    invited = Invitation.objects.filter(game=OuterRef("pk"), user_id=user.pk)
    friends = Seat.objects.filter(game=OuterRef("pk"), user_id__in=friend_ids(user.pk))
    return Game.objects.filter(
        open_to_all
        | Exists(seated)
        | Exists(invited)
        | (~Q(spectators=Spectators.PLAYERS) & Exists(friends))
    )


def games_to_watch(user: AnyUser) -> QuerySet[Game]:
    """The running public tables `user` may watch and does not play at, liveliest first: the
    most people seated, then the fastest turns, then the latest to start (API.md "Notices and
    games to watch"). Friends-only tables count where a friend of `user` sits."""
    games = Game.objects.filter(status=GameStatus.ACTIVE, visibility=Visibility.PUBLIC)
    if user.is_authenticated:
        friends = Seat.objects.filter(game=OuterRef("pk"), user_id__in=friend_ids(user.pk))
        seated = Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk)
        admits = Q(spectators=Spectators.EVERYONE) | (
            Q(spectators=Spectators.FRIENDS) & Exists(friends)
        )
        games = games.filter(admits).exclude(Exists(seated))
    else:
        games = games.filter(spectators=Spectators.EVERYONE)
    people = Count("seat_set", filter=Q(seat_set__user__isnull=False))
    return (
        games.select_related("created_by")
        .prefetch_related("seat_set__user")
        .annotate(people=people)
        .order_by("-people", "turn_seconds", "-started_at", "-pk")
    )


def is_invited(game: Game, user: AnyUser) -> bool:
    """Whether a player of the table invited `user` to it."""
    return user.is_authenticated and Invitation.objects.filter(game=game, user_id=user.pk).exists()


def seats_of(game: Game) -> list[Seat]:
    return list(game.seat_set.select_related("user"))


def seat_of(seats: list[Seat], user: AnyUser) -> int | None:
    """The seat number `user` holds at this table, or None."""
    if not user.is_authenticated:
        return None
    return next((seat.number for seat in seats if seat.user_id == user.pk), None)


def iso(moment: datetime) -> str:
    """ISO-8601 UTC with a Z, as the contract writes times."""
    return moment.isoformat().replace("+00:00", "Z")


def _table(game: Game, seats: list[Seat], online: set[int] | None = None) -> Table:
    """What the view and a list's summary share; `online`: of the users seated, those online
    (asked here if not given)."""
    totals = (game.state or {}).get("totals") or [0] * game.seats
    if online is None:
        online = presence.online(seat.user_id for seat in seats if seat.user_id is not None)
    return {
        "id": game.pk,
        "status": GameStatus(game.status),
        "seats": game.seats,
        "bots": game.bots,
        "turn_seconds": game.turn_seconds,
        "hook_rule": game.hook_rule,
        "blind_first_round": game.blind_first_round,
        "seq": game.seq,
        "created_by": game.created_by.get_username(),
        "created_at": iso(game.created_at),
        "visibility": Visibility(game.visibility),
        "spectators": Spectators(game.spectators),
        "min_reliability": game.min_reliability,
        "rounds": game.round_format,
        "round_numbers": list(engine.round_numbers(game.seats, game.round_format)),
        "special_cards": list(game.special_cards),
        "players": [
            {
                "seat": seat.number,
                "username": seat.display_name,
                "is_bot": seat.is_bot,
                "score": totals[seat.number],
                "away": seat.away,
                "resigned": seat.resigned,
                "online": seat.is_bot or seat.user_id in online,
                "difficulty": difficulty_of(seat.bot_kind),
            }
            for seat in seats
        ],
        "free_seats": game.seats - len(seats),
    }


def game_view(game: Game, user: AnyUser) -> GameView:
    """The contract's game view for `user`: their own seat's view, or the public one where the
    table lets them watch (NotAPlayer where it does not)."""
    seats = seats_of(game)
    ensure_may_watch(game, seats, user)
    return seat_view(game, seats, game.engine_state(), seat_of(seats, user))


def seat_view(game: Game, seats: list[Seat], state: State | None, seat: int | None) -> GameView:
    """The view of one seat (None: the public view) from seats and a state already read."""
    (view,) = _views(game, seats, state, [seat])
    return view


def game_views(
    game: Game, seats: list[Seat], state: State | None
) -> tuple[dict[int, GameView], GameView]:
    """Every seated user's view (by user id) and the public view of the game at `state`,
    building what they share once."""
    players = [(seat.user_id, seat.number) for seat in seats if seat.user_id is not None]
    public, *own = _views(game, seats, state, [None, *(number for _user, number in players)])
    views = {user: view for (user, _number), view in zip(players, own, strict=True)}
    return views, public


def _views(
    game: Game, seats: list[Seat], state: State | None, yous: list[int | None]
) -> list[GameView]:
    """The views of these seats (None: the public view), in order; the parts every seat sees
    alike are shared by the views, so none may be changed."""
    table, rematch = _table(game, seats), _rematch_id(game)
    active = game.status == GameStatus.ACTIVE  # an aborted game takes no more moves
    shared: GameView = {
        **table,
        "you": None,
        "round": None,
        "hand": None,
        "visible_hands": {},
        "to_act": None,
        "deadline": iso(game.deadline) if active and game.deadline is not None else None,
        "legal": None,
        "scores": [],
        "winners": None,
        "shuffle_commitment": game.commitment,
        "shuffle_seed": game.seed if game.is_over else None,
        "rematch": rematch,
        "invite": None,
    }
    if state is None:  # not started: nothing is active
        return [_seated({**shared, "you": you}, game) for you in yous]
    views: list[GameView] = []
    for you, seen in zip(yous, engine.seat_views(state, yous), strict=True):
        view: GameView = _seated({**shared, "you": you}, game)
        view["round"], view["hand"] = seen["round"], seen["hand"]
        view["visible_hands"], view["scores"] = seen["visible_hands"], seen["scores"]
        view["winners"] = seen["winners"]
        view["to_act"] = seen["to_act"] if active else None
        view["legal"] = seen["legal"] if active else None
        views.append(view)
    return views


def _seated(view: GameView, game: Game) -> GameView:
    """A seated caller's view carries the table's invitation code; anyone else's does not."""
    if view["you"] is not None:
        view["invite"] = game.invite_code
    return view


def _rematch_id(game: Game) -> int | None:
    if game.status != GameStatus.FINISHED:
        return None
    return Game.objects.filter(rematch_of=game).values_list("pk", flat=True).first()


def game_events(game: Game, after: int) -> QuerySet[Event]:
    return game.events.filter(seq__gt=after).order_by("seq")


def event_view(game: Game, row: Event, you: int | None) -> EventRow:
    """One event row as the caller may see it: a deal shows only what R9 or their hand allows."""
    payload = engine.event_view(
        row.payload, you, blind_first_round=game.blind_first_round, reveal=game.is_over
    )
    return {
        "seq": row.seq,
        "type": payload["type"],
        "seat": row.seat,
        "auto": row.auto,
        "at": iso(row.created_at),
        "payload": payload,
    }


def game_list(
    *, user: AnyUser, status: str | None, mine: bool, my_turn: bool = False
) -> QuerySet[Game]:
    """Tables newest first; `my_turn`: the caller's running games where they are to act,
    soonest deadline first."""
    games = Game.objects.select_related("created_by")
    if status is not None:
        games = games.filter(status=status)
    if not (mine or my_turn):  # a private table is listed to its players only
        seated = Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk or 0)
        games = games.filter(Q(visibility=Visibility.PUBLIC) | Exists(seated))
        return games.prefetch_related("seat_set__user").order_by("-created_at", "-pk")
    if not isinstance(user, User):
        return games.none()
    if my_turn:
        games = games.filter(
            status=GameStatus.ACTIVE, seat_set__user=user, seat_set__number=F("to_act")
        )
        return games.prefetch_related("seat_set__user").order_by("deadline", "pk")
    games = games.filter(seat_set__user=user)
    return games.prefetch_related("seat_set__user").order_by("-created_at", "-pk")


def game_summaries(games: Iterable[Game]) -> list[GameSummary]:
    """Games in a list: their options, players, free seats and progress (no cards); who is
    online asked once for the whole list."""
    seated = [(game, list(game.seat_set.all())) for game in games]
    users = (seat.user_id for _game, seats in seated for seat in seats)
    online = presence.online(user for user in users if user is not None)
    return [
        {
            **_table(game, seats, online),
            "round_number": (game.state or {}).get("round") or None,
            "to_act": game.to_act if game.status == GameStatus.ACTIVE else None,
        }
        for game, seats in seated
    ]


RELIABILITY_GAMES = 50  # a player's reliability looks at their last 50 games with people
RELIABILITY_SHOWN_FROM = 5  # and is unknown before 5 of them


def reliability(user_id: int) -> int | None:
    """The percentage of the user's last RELIABILITY_GAMES finished games with another person
    in which they neither resigned nor were away at the end; None before
    RELIABILITY_SHOWN_FROM such games."""
    other_person = Seat.objects.filter(game=OuterRef("game_id"), user__isnull=False).exclude(
        user_id=user_id
    )
    ends = list(
        Seat.objects.filter(user_id=user_id, game__status=GameStatus.FINISHED)
        .filter(game__started_at__isnull=False)
        .filter(Exists(other_person))
        .order_by("-game__finished_at", "-game_id")
        .values_list("resigned", "away")[:RELIABILITY_GAMES]
    )
    if len(ends) < RELIABILITY_SHOWN_FROM:
        return None
    stayed = sum(1 for resigned, away in ends if not resigned and not away)
    return round(100 * stayed / len(ends))


def chat_list(game: Game, after: int = 0, reader: AnyUser | None = None) -> QuerySet[ChatMessage]:
    """The visible messages of a table after message id `after`, oldest first; none from a
    player the reader blocked."""
    messages = ChatMessage.objects.filter(game=game, hidden=False, pk__gt=after)
    if reader is not None and reader.is_authenticated:
        messages = messages.exclude(user__blocked_by__blocker_id=reader.pk)
    return messages.select_related("user").order_by("pk")


def chat_view(message: ChatMessage) -> ChatMessageView:
    """A message as the API and the socket send it (text as written: clients escape it; a
    preset in the active language). A deleted account's line shows no text: one kept as
    evidence under an open report is for the moderators only."""
    if is_deleted(message.user):
        text = ""
    else:
        text = chat_presets.text_of(message.preset) if message.preset else message.text
    return {
        "id": message.pk,
        "seat": message.seat,
        "username": message.user.get_username(),
        "text": text,
        "preset": message.preset or None,
        "at": iso(message.created_at),
    }


class Friend(TypedDict):
    """A friend of the caller (they follow each other): online now, and the open or running
    tables they sit at that the caller may watch or join."""

    username: str
    online: bool
    playing: list[int]


def friends_of(user: User) -> list[Friend]:
    ids = friend_ids(user.pk)
    online = presence.online(ids)
    mine = set(Seat.objects.filter(user=user).values_list("game_id", flat=True))
    mine |= set(Invitation.objects.filter(user=user).values_list("game_id", flat=True))
    playing: dict[int, list[int]] = {user_id: [] for user_id in ids}
    seats = Seat.objects.filter(
        user_id__in=ids, game__status__in=(GameStatus.OPEN, GameStatus.ACTIVE)
    ).select_related("game")
    for seat in seats.order_by("game_id"):
        watchable = seat.game.spectators != Spectators.PLAYERS or seat.game_id in mine
        if seat.user_id is not None and watchable:
            playing[seat.user_id].append(seat.game_id)
    users = User.objects.filter(pk__in=ids).order_by("username")
    return [
        {"username": friend.username, "online": friend.pk in online, "playing": playing[friend.pk]}
        for friend in users
    ]


def tables_to_invite_to(user: User) -> list[Game]:
    """The open and running tables the user sits at (friends may join or watch them)."""
    seated = Seat.objects.filter(user=user).values("game_id")
    return list(
        Game.objects.filter(pk__in=seated, status__in=(GameStatus.OPEN, GameStatus.ACTIVE))
        .exclude(seats=F("bots") + 1)  # a solo game against bots has no room for a friend
        .order_by("status", "-created_at")
    )
