"""The only code that writes a game: create, join, leave, and apply a move.

Every entry point (REST, websocket, timer) calls these. Each runs in one transaction with the
game row locked, so moves on one game are serialised, and a refused move changes nothing.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.moderation import audit
from accounts.standing import ensure_can_play, is_suspended_id
from games import engine, push, selectors
from games.engine import EngineError, Event, Move, State
from games.locks import lock_game
from games.models import Event as EventRow
from games.models import Game, GameStatus, Seat
from league import services as league_services
from wizardsite.api import (
    ApplicationError,
    GameFull,
    GameNotActive,
    Invalid,
    NotAPlayer,
    StaleState,
)

MIN_TURN_SECONDS, MAX_TURN_SECONDS = 5, 600


def game_create(
    *,
    user: User,
    seats: int,
    bots: int = 0,
    turn_seconds: int | None = None,
    hook_rule: bool = True,
    blind_first_round: bool = True,
    bot_kind: str | None = None,
    rematch_of: Game | None = None,
) -> Game:
    """A new table: the creator takes seat 0, bots the last seats; full tables start at once."""
    ensure_can_play(user)
    turn_seconds = turn_seconds if turn_seconds is not None else settings.TURN_SECONDS_DEFAULT
    bot_kind = bot_kind or settings.DEFAULT_BOT
    if not engine.rules.MIN_PLAYERS <= seats <= engine.rules.MAX_PLAYERS:  # R2
        raise Invalid("A table has 3 to 6 seats (R2).", fields={"seats": ["3 to 6"]})
    if not 0 <= bots <= seats - 1:
        raise Invalid("Bots fill 0 to seats − 1 seats.", fields={"bots": [f"0 to {seats - 1}"]})
    if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:  # R16
        raise Invalid(
            "The turn limit is 5 to 600 seconds (R16).", fields={"turn_seconds": ["5 to 600"]}
        )
    if bot_kind not in engine.BOTS:
        raise Invalid(f"Unknown bot kind {bot_kind!r}.", fields={"bot_kind": list(engine.BOTS)})
    seed = engine.new_seed()
    with transaction.atomic():
        game = Game.objects.create(
            created_by=user,
            seats=seats,
            bots=bots,
            turn_seconds=turn_seconds,
            hook_rule=hook_rule,
            blind_first_round=blind_first_round,
            seed=seed,
            commitment=engine.commitment(seed),
            rematch_of=rematch_of,
        )
        Seat.objects.bulk_create(
            [Seat(game=game, number=0, user=user)]
            + [Seat(game=game, number=n, bot_kind=bot_kind) for n in range(seats - bots, seats)]
        )
        if bots == seats - 1:
            _start(game)
        else:
            _publish_on_commit(game)
    return game


def game_rematch(*, game_id: int, user: User) -> Game:
    """A new table with the same options for a finished game's players; the first player to
    ask creates it (taking seat 0), the others join it. Asking again returns the same table."""
    with transaction.atomic():
        game = lock_game(game_id)
        if not game.seat_set.filter(user=user).exists():
            raise NotAPlayer("Only the game's players can start its rematch.")
        if game.status != GameStatus.FINISHED:
            raise GameNotActive("A rematch follows a finished game.")
        rematch = Game.objects.filter(rematch_of=game).first()
        if rematch is None:
            bot_kind = next((s.bot_kind for s in game.seat_set.all() if s.is_bot), None)
            rematch = game_create(
                user=user,
                seats=game.seats,
                bots=game.bots,
                turn_seconds=game.turn_seconds,
                hook_rule=game.hook_rule,
                blind_first_round=game.blind_first_round,
                bot_kind=bot_kind,
                rematch_of=game,
            )
            _publish_on_commit(game)  # the players at the old table see the invitation
            return rematch
    return (
        game_join(game_id=rematch.pk, user=user) if rematch.status == GameStatus.OPEN else rematch
    )


def game_join(*, game_id: int, user: User) -> Game:
    """Take the lowest free seat; the game starts when the last seat fills. Joining a table one
    already sits at is a no-op, so a retried request is harmless."""
    ensure_can_play(user)
    with transaction.atomic():
        game = lock_game(game_id)
        seats = list(game.seat_set.all())
        if any(seat.user_id == user.pk for seat in seats):
            return game
        if game.status != GameStatus.OPEN:
            raise GameFull("This table has started or ended: no seat is free.")
        taken = {seat.number for seat in seats}
        free = [n for n in range(game.seats) if n not in taken]
        Seat.objects.create(game=game, number=free[0], user=user)
        if len(free) == 1:
            _start(game)
        else:
            _publish_on_commit(game)
    return game


def game_leave(*, game_id: int, user: User) -> Game:
    """Give up one's seat before the start; a table nobody sits at any more is aborted."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seat_set.filter(user=user).first()
        if seat is None:
            raise NotAPlayer("You do not sit at this table.")
        if game.status != GameStatus.OPEN:
            raise GameNotActive("Seats can only be left before the game starts.")
        seat.delete()
        if not game.seat_set.filter(user__isnull=False).exists():
            game.status = GameStatus.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
        _publish_on_commit(game)
    return game


def move_request(body: Any) -> tuple[dict[str, Any], int | None]:
    """A move body as REST and the websocket receive it, and its optional `seq`."""
    if not isinstance(body, dict):
        raise Invalid("A move is a JSON object with a 'type'.")
    seq = body.get("seq")
    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
        raise Invalid("'seq' must be a whole number.", fields={"seq": ["not a number"]})
    return body, seq


def move_apply(
    *,
    game_id: int,
    user: User,
    body: object,
    expected_seq: int | None = None,
) -> Game:
    """Apply a player's move (a JSON body as in API.md), then the bots' immediate replies.

    Raises ApplicationError or EngineError (state unchanged) when the move is refused;
    `expected_seq` that no longer matches the game's → stale_state.
    """
    ensure_can_play(user)
    move = engine.parse_move(body)
    refusal: ApplicationError | EngineError | None = None
    with transaction.atomic():
        game = lock_game(game_id)
        seats = list(game.seat_set.all())
        seat = next((s.number for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise NotAPlayer("You do not sit at this table.")
        # R16: an expired turn is auto-moved first, under the same lock, and stays applied
        # even when the move that found it is refused.
        _apply_overdue(game)
        try:
            if game.status != GameStatus.ACTIVE:
                raise GameNotActive("The game is not running: no move is possible.")
            if expected_seq is not None and expected_seq != game.seq:
                raise StaleState(
                    f"The game has moved on: you saw event {expected_seq}, "
                    f"the game is at {game.seq}."
                )
            _decide(game, seats, seat, move, auto=False)
        except (ApplicationError, EngineError) as error:
            refusal = error  # nothing of this move was written; commit what the timer did
    if refusal is not None:
        raise refusal
    return game


def game_catch_up(game_id: int) -> Game:
    """The game, with any overdue auto-moves applied first (R16), so a table that nobody
    watched while the timer was down is right the moment anyone looks."""
    game = selectors.game_get(game_id)
    if not _is_overdue(game, timezone.now()):
        return game
    with transaction.atomic():
        game = lock_game(game_id)
        _apply_overdue(game)
    return game


def turns_expire(*, limit: int = 200) -> int:
    """R16: auto-move every turn whose deadline has passed, one game per transaction; games
    locked by a move in progress are left to that move. Returns the auto-moves applied."""
    now = timezone.now()
    due = Game.objects.filter(status=GameStatus.ACTIVE, deadline__lte=now).order_by("deadline")
    applied = 0
    for game_id in due.values_list("pk", flat=True)[:limit]:
        with transaction.atomic():
            game = lock_game(game_id, skip_locked=True)
            if game is not None:
                applied += _apply_overdue(game)
    return applied


def _is_overdue(game: Game, now: datetime) -> bool:
    return game.status == GameStatus.ACTIVE and game.deadline is not None and game.deadline <= now


def _apply_overdue(game: Game) -> int:
    """Under the game's lock: the auto-move of each expired turn, in order. The next turn
    starts when the previous one expired, so a long-unwatched table catches up in full."""
    now = timezone.now()
    applied = 0
    seats: list[Seat] | None = None
    while _is_overdue(game, now):
        assert game.deadline is not None
        seats = seats if seats is not None else list(game.seat_set.all())
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        _decide(game, seats, state.to_act, engine.auto_move(state), auto=True, at=game.deadline)
        applied += 1
    return applied


def _decide(
    game: Game, seats: list[Seat], seat: int, move: Move, *, auto: bool, at: datetime | None = None
) -> None:
    """Apply one decision and the bots' replies; `at` is when it counts as made (now)."""
    state = game.engine_state()
    assert state is not None  # an active game has started
    state, events = engine.take_turn(state, seat, move, seed=game.seed, auto=auto)
    state = _bots_reply(game, seats, state, events)
    _record(game, seats, state, events, at=at)


def _start(game: Game) -> None:
    """Deal the first round (R3–R5) and let bots act if it is their turn."""
    state, events = engine.start_game(
        players=game.seats,
        seed=game.seed,
        hook_rule=game.hook_rule,
        blind_first_round=game.blind_first_round,
    )
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    seats = list(game.seat_set.all())
    state = _bots_reply(game, seats, state, events)
    _record(game, seats, state, events)


def _bots_reply(game: Game, seats: list[Seat], state: State, events: list[Event]) -> State:
    """Bots act at once, through the same rules a human's move goes through (no timer)."""
    bot_kinds = {seat.number: seat.bot_kind for seat in seats if seat.is_bot}
    while state.to_act in bot_kinds and not state.is_over:
        seat = state.to_act
        bot = engine.make_bot(bot_kinds[seat], seed=f"{game.seed}:{seat}:{state.seq}")
        state, more = engine.take_turn(
            state, seat, engine.bot_move(bot, state, seat), seed=game.seed
        )
        events.extend(more)
    return state


def _record(
    game: Game, seats: list[Seat], state: State, events: list[Event], *, at: datetime | None = None
) -> None:
    """Append the event rows, refresh the game's cached state, turn and deadline, and push the
    new views once the transaction commits."""
    first = game.seq + 1
    EventRow.objects.bulk_create(
        [
            EventRow(
                game=game,
                seq=first + i,
                type=event["type"],
                seat=event.get("seat") if event["type"] in engine.PLAYER_DECISIONS else None,
                auto=event.get("auto", False),
                payload=event,
            )
            for i, event in enumerate(events)
        ]
    )
    now = timezone.now()
    turn_starts = at or now
    game.seq = state.seq
    game.state = state.to_json()
    game.to_act = state.to_act
    game.deadline = _deadline(game, seats, state, turn_starts)
    fields = ["seq", "state", "to_act", "deadline", "status", "started_at"]
    if state.is_over:
        game.status = GameStatus.FINISHED
        game.finished_at = now
        fields += ["finished_at", "league"]
        _record_results(game, seats, state)
    game.save(update_fields=fields)
    # Lobbies care when a table starts or ends, not about every move.
    _publish_on_commit(game, lobby=state.is_over or len(events) == game.seq)


def _publish_on_commit(game: Game, *, lobby: bool = True) -> None:
    """Push the game's new views once the rows are in; `lobby`: the list of tables changed."""
    game_id = game.pk
    transaction.on_commit(lambda: push.publish_game(game_id, lobby=lobby))


def _deadline(
    game: Game, seats: list[Seat], state: State, turn_starts: datetime
) -> datetime | None:
    """When the next decision expires (R16); at once for a suspended player, so a barred
    player never blocks the table."""
    if state.to_act is None:
        return None
    user_id = next((seat.user_id for seat in seats if seat.number == state.to_act), None)
    if user_id is not None and is_suspended_id(user_id):
        return turn_starts
    return turn_starts + timedelta(seconds=game.turn_seconds)


def game_abort(*, moderator: User, game_id: int, reason: str) -> Game:
    """Stop a running (or open) game: status aborted, players told live; it never counts."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in (GameStatus.OPEN, GameStatus.ACTIVE):
            raise GameNotActive("Only an open or running game can be aborted.")
        game.status = GameStatus.ABORTED
        game.finished_at = timezone.now()
        game.deadline = None
        game.to_act = None
        game.save(update_fields=["status", "finished_at", "deadline", "to_act"])
        audit(moderator=moderator, action="abort game", target=game, reason=reason)
        _publish_on_commit(game)
    return game


def game_void(*, moderator: User, game_id: int, reason: str) -> Game:
    """Void a finished game: it leaves the league (R17) and every rating is rebuilt."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != GameStatus.FINISHED:
            raise GameNotActive("Only a finished game can be voided.")
        if game.voided:
            return game
        game.voided = True
        league_services.game_eligibility_changed(game=game)
        audit(moderator=moderator, action="void game", target=game, reason=reason)
    return game


def _record_results(game: Game, seats: list[Seat], state: State) -> None:
    """Each seat's final score, place (R15) and exact bids; then the league's part (R17),
    in this same transaction."""
    places = engine.places(state.totals)
    for seat in seats:
        seat.final_score = state.totals[seat.number]
        seat.place = places[seat.number]
        seat.exact_bids = sum(
            record["bids"][seat.number] == record["tricks"][seat.number] for record in state.scores
        )
    Seat.objects.bulk_update(seats, ["final_score", "place", "exact_bids"])
    league_services.game_finished(game=game, seats=seats)
