"""Moves: a player's decision, the bots' steps, and the timer's auto-moves (R16, R18 away).

Every entry point (REST, websocket, timer) calls these. Each runs in one transaction with the
game row locked, so moves on one game are serialised, and a refused move changes nothing. A bot
decides in its own Celery task, before the lock (`bot_step`), never in the caller's request.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.standing import ensure_can_play
from core.errors import GameNotActive, NotAPlayer, Refusal, StaleState
from games import engine, enqueue, hot_writes, push, selectors
from games.difficulty import make_seat_bot
from games.engine import Event, Move, State
from games.enqueue import game_transaction
from games.locks import lock_game, lock_table
from games.models import Event as EventRow
from games.models import Game, GameStatus, Seat
from games.services import clock
from games.signals import game_finished, turn_started


def move_apply(
    *,
    game_id: int,
    user: User,
    body: object,
    expected_seq: int | None = None,
) -> Game:
    """Apply a player's move (a JSON body as in the API contract). The bots' replies are their
    tasks' (with eager tasks and no pacing, done by the time this returns: the game re-read).

    Raises a Refusal (state unchanged) when the move is refused;
    `expected_seq` that no longer matches the game's → stale_state.
    """
    move = engine.parse_move(body)
    refusal: Refusal | None = None
    with game_transaction() as sent:
        game, seats = lock_table(game_id)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            ensure_can_play(user)  # a barred stranger hears that first
            raise NotAPlayer("You do not sit at this table.")
        if mine.barred:  # type: ignore[attr-defined]  # annotated by table_seats
            ensure_can_play(user)
        seat = mine.number
        # R16: an expired turn is auto-moved first, under the same lock, and stays applied
        # even when the move that found it is refused.
        apply_overdue(game, seats)
        try:
            if game.status != GameStatus.ACTIVE:
                raise GameNotActive("The game is not running: no move is possible.")
            if expected_seq is not None and expected_seq != game.seq:
                raise StaleState(
                    f"The game has moved on: you saw event {expected_seq}, "
                    f"the game is at {game.seq}."
                )
            if mine.resigned:  # R18: a resigned seat stays away to the end
                raise GameNotActive("You resigned this game: the server plays your seat.")
            _decide(game, seats, seat, move, auto=False, mine=mine)
        except Refusal as error:
            refusal = error  # nothing of this move was written; commit what the timer did
    if refusal is not None:
        raise refusal
    return selectors.game_get(game_id) if sent.tasks else game


def game_catch_up(game_id: int) -> Game:
    """The game, with any overdue auto-moves applied first (R16), so a table that nobody
    watched while the timer was down is right the moment anyone looks."""
    game = selectors.game_get(game_id)
    if not clock.is_overdue(game, timezone.now()):
        return game
    with game_transaction() as sent:
        game = lock_game(game_id)
        apply_overdue(game)
    return selectors.game_get(game_id) if sent.tasks else game


def turns_expire(*, limit: int = 200) -> int:
    """R16: auto-move every turn whose deadline has passed, one game per transaction; games
    locked by a move in progress are left to that move. Then a task at each deadline due
    before the sweep after next (clock.schedule_soon_expiring). Returns the auto-moves applied."""
    now = timezone.now()
    due = Game.objects.filter(status=GameStatus.ACTIVE, deadline__lte=now).order_by("deadline")
    applied = 0
    for game_id in due.values_list("pk", flat=True)[:limit]:
        with game_transaction():
            game = lock_game(game_id, skip_locked=True)
            if game is not None:
                applied += apply_overdue(game)
    clock.schedule_soon_expiring(timezone.now())
    return applied


def apply_overdue(game: Game, seats: list[Seat] | None = None) -> int:
    """Under the game's lock: settle each expired turn, in order (R16). Each auto-move is made
    now, so the next turn gets its full limit from this commit, never from the missed
    deadline. A human turn found more than clock.OUTAGE_GRACE past its deadline gets, once, a
    fresh full limit from now instead of an auto-move, not counted as an expiry (R18): after
    an outage nobody is auto-moved on a turn they were not given in full. A bot step whose
    task was lost is sent again (a bot never thinks under the lock). Returns the auto-moves
    and blind-trick steps applied (a renewal or a bot step sent again is none)."""
    applied = 0
    while clock.is_overdue(game, now := timezone.now()):
        assert game.deadline is not None
        seats = seats if seats is not None else selectors.table_seats(game)
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        acting = next(s for s in seats if s.number == state.to_act)
        if engine.blind_trick_pending(state):  # R9: no thinking, the only card there is
            _record(game, seats, *engine.blind_step(state, seed=game.seed))
        elif acting.is_bot:
            if not applied:  # else the move just applied has sent the bot's task
                _step_resend(game, seats, state, now)
            return applied
        elif clock.untimed(game, acting, now):
            _renew_turn(game, seats, acting, now)
            break
        else:
            _expired(acting)
            _decide(game, seats, state.to_act, engine.auto_move(state), auto=True)
        applied += 1
    return applied


def _renew_turn(game: Game, seats: list[Seat], acting: Seat, now: datetime) -> None:
    """The turn starts again now with the seat's full limit (R16, R18's while away)."""
    game.deadline = now + timedelta(seconds=clock.turn_limit(game, acting))
    game.turn_renewed = True
    game.save(update_fields=["deadline", "turn_renewed"])
    clock.schedule_expiry(game, now)
    push.publish_on_commit(game, seats)


AWAY_AFTER_EXPIRIES = 2  # R18


def _expired(seat: Seat) -> None:
    """R18: one more turn limit expired in a row; the second makes the player away. Written
    before the auto-move, so the next decision's deadline already counts them away."""
    seat.expiries += 1
    seat.away = seat.away or seat.expiries >= AWAY_AFTER_EXPIRIES
    seat.save(update_fields=["expiries", "away"])


def _present(seat: Seat) -> None:
    """R18: a decision of one's own ends the run of expiries and any absence (not a
    resignation's)."""
    if seat.expiries or (seat.away and not seat.resigned):
        seat.expiries, seat.away = 0, seat.resigned
        seat.save(update_fields=["expiries", "away"])


def _decide(
    game: Game,
    seats: list[Seat],
    seat: int,
    move: Move,
    *,
    auto: bool,
    mine: Seat | None = None,
) -> None:
    """Apply one decision (a bot to act next gets its task); `mine`: the seat of a player
    deciding themselves, no longer away (R18)."""
    state = game.engine_state()
    assert state is not None  # an active game has started
    state, events = engine.take_turn(
        state, seat, move, seed=game.seed, auto=auto, auto_blind=not _paced()
    )
    if mine is not None:
        _present(mine)  # after the engine accepted the move: a refused one changes nothing
    _record(game, seats, state, events)


def bot_step(*, game_id: int, seq: int) -> bool:
    """A bot's decision, or the next card of the blind trick (R9), if the game is still at
    event `seq` (so a retried, duplicated or late task moves nothing). The bot thinks on the
    committed state before the game is locked; the move is applied only if nothing happened
    meanwhile (the seed is per decision, so whoever applies it, it is the same move)."""
    game = selectors.game_get(game_id)
    state = game.engine_state()
    if game.status != GameStatus.ACTIVE or game.seq != seq or state is None:
        return False
    step = _automatic_step(game, selectors.seats_of(game), state)
    if step is None:
        return False
    with game_transaction():
        game, seats = lock_table(game_id)
        if game.status != GameStatus.ACTIVE or game.seq != seq:
            return False  # a move, the timer or a twin task got there first
        _record(game, seats, *step)
    return True


def _automatic_step(
    game: Game, seats: list[Seat], state: State
) -> tuple[State, list[Event]] | None:
    """What happens next without a human: the blind trick's next card, or the decision of the
    bot to act (as one step, the bots paced); None when a human is to decide."""
    if engine.blind_trick_pending(state):
        return engine.blind_step(state, seed=game.seed)
    seat = state.to_act
    bot_kind = _bot_kind(seats, seat)
    if seat is None or bot_kind is None:
        return None
    bot = make_seat_bot(bot_kind, seed=f"{game.seed}:{seat}:{state.seq}")
    move = engine.bot_move(bot, state, seat)
    return engine.take_turn(state, seat, move, seed=game.seed, auto_blind=not _paced())


def _bot_kind(seats: list[Seat], seat: int | None) -> str | None:
    return next((s.bot_kind for s in seats if s.number == seat and s.is_bot), None)


def _step_resend(game: Game, seats: list[Seat], state: State, now: datetime) -> None:
    """A bot step whose task was lost: its deadline moves on and its task is sent again."""
    game.deadline = clock.deadline(game, seats, state, now)
    game.save(update_fields=["deadline"])
    _send_step(game.pk, state.seq, 0)


def _send_step(game_id: int, seq: int, delay_ms: int) -> None:
    from games import tasks  # tasks import this module

    # Off this thread once the game transaction has committed: a frozen broker holds up nothing.
    enqueue.after_game_transaction(tasks.bot_step, (game_id, seq), countdown=delay_ms / 1000)


def _paced() -> bool:
    """Bots and the blind trick act one step at a time, BOT_MOVE_DELAY_MS apart (0: at once)."""
    return bool(settings.BOT_MOVE_DELAY_MS > 0)


def _schedule_next_step(game: Game, seats: list[Seat], state: State, events: list[Event]) -> None:
    """After the commit: the task for the next step, if a bot or the blind trick is next.
    Paced, after a complete trick it waits TRICK_PAUSE_MS longer, so everyone sees the trick."""
    if not _step_pending(seats, state):
        return
    delay_ms = settings.BOT_MOVE_DELAY_MS + _pause_ms(events) if _paced() else 0
    _send_step(game.pk, state.seq, delay_ms)


def turn_expire(*, game_id: int, seq: int) -> int:
    """R16 on time: the auto-move of the turn the game had at event `seq`, if that turn has
    expired and nothing happened since (so a duplicate or a late task moves nothing)."""
    game = selectors.game_get(game_id)
    if game.seq != seq or not clock.is_overdue(game, timezone.now()):
        return 0
    with game_transaction():
        game = lock_game(game_id)
        return apply_overdue(game) if game.seq == seq else 0


def _step_pending(seats: list[Seat], state: State) -> bool:
    """A bot or the blind trick, not a human, is to act next."""
    if state.is_over or state.to_act is None:
        return False
    bots = {seat.number for seat in seats if seat.is_bot}
    return state.to_act in bots or engine.blind_trick_pending(state)


def _pause_ms(events: list[Event]) -> int:
    return int(settings.TRICK_PAUSE_MS) if any(e["type"] == "trick_won" for e in events) else 0


def start(game: Game) -> None:
    """Deal the first round (R3–R5); a bot to act first gets its task."""
    state, events = engine.start_game(
        players=game.seats,
        seed=game.seed,
        hook_rule=game.hook_rule,
        blind_first_round=game.blind_first_round,
    )
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    seats = selectors.table_seats(game)
    _record(game, seats, state, events)


def _record(game: Game, seats: list[Seat], state: State, events: list[Event]) -> None:
    """Append the event rows, refresh the game's cached state, turn and deadline (the new
    turn's limit counts from now, its commit), and push the new views once the transaction
    commits. The rows are stamped with the same now as the new turn's start."""
    first = game.seq + 1
    now = timezone.now()
    rows = [
        EventRow(
            game=game,
            seq=first + i,
            type=event["type"],
            seat=event.get("seat") if event["type"] in engine.PLAYER_DECISIONS else None,
            auto=event.get("auto", False),
            payload=event,
            created_at=now,
        )
        for i, event in enumerate(events)
    ]
    game.__dict__["_seats"] = seats  # for the caller's answer (selectors.game_view)
    game.seq = state.seq
    game.set_engine_state(state)
    game.to_act = state.to_act
    game.deadline = clock.deadline(game, seats, state, now)
    game.turn_renewed = False
    fields = ["seq", "state", "to_act", "deadline", "turn_renewed", "status", "started_at"]
    if state.is_over:
        game.status = GameStatus.FINISHED
        game.finished_at = now
        fields += ["finished_at"]
        _record_results(game, seats, state)
    hot_writes.game_record(rows, game, fields)
    _schedule_next_step(game, seats, state, events)
    if not _step_pending(seats, state):
        clock.schedule_expiry(game, now)
        _announce_turn(game, seats, state, events)
    # Lobbies care when a table starts or ends, not about every move.
    push.publish_on_commit(game, seats, rows, lobby=state.is_over or len(events) == game.seq)


def _announce_turn(game: Game, seats: list[Seat], state: State, events: list[Event]) -> None:
    """After the commit: tell whoever listens (notifications) that a person is now to decide,
    unless that person made the decision just before and is simply to act again."""
    if state.is_over or state.to_act is None or game.deadline is None:
        return
    acting = next(seat for seat in seats if seat.number == state.to_act)
    if acting.user_id is None:
        return
    decisions = [e for e in events if e["type"] in engine.PLAYER_DECISIONS]
    if decisions and decisions[-1].get("seat") == acting.number and not decisions[-1].get("auto"):
        return
    announced = {
        "game_id": game.pk,
        "user_id": acting.user_id,
        "seq": game.seq,
        "deadline": game.deadline,
        "turn_seconds": game.turn_seconds,
    }
    transaction.on_commit(lambda: turn_started.send(sender=Game, **announced))


def _record_results(game: Game, seats: list[Seat], state: State) -> None:
    """Each seat's final score, place (R15) and exact bids; once committed, whoever listens
    (the league, R17) is told the game finished."""
    places = engine.places(state.totals)
    for seat in seats:
        seat.final_score = state.totals[seat.number]
        seat.place = places[seat.number]
        seat.exact_bids = sum(
            record["bids"][seat.number] == record["tricks"][seat.number] for record in state.scores
        )
    Seat.objects.bulk_update(seats, ["final_score", "place", "exact_bids"])
    game_id = game.pk
    transaction.on_commit(lambda: game_finished.send(sender=Game, game_id=game_id))
