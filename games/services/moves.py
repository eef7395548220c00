"""Moves: a player's decision, the bots' steps, and the timer's auto-moves (R16, R18 away).

Every entry point (REST, websocket, timer) calls these. Each runs in one transaction with the
game row locked, so moves on one game are serialised, and a refused move changes nothing; once
it has committed, games.dispatch tells everyone. A bot decides in its own Celery task, before
the lock (`bot_step`), never in the caller's request.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.standing import ensure_can_play
from core.errors import GameNotActive, NotAPlayer, Refusal, StaleState
from games import engine, metrics, selectors, sql
from games.difficulty import DIFFICULTIES, make_seat_bot
from games.dispatch import dispatch, expire_at
from games.engine import Event, Move, State
from games.engine.events import ROUND_SCORED
from games.locks import Table, lock_table
from games.models import Event as EventRow
from games.models import Game, GameStatus, Seat
from games.outcome import Outcome, PersonTurn, chain, next_actor
from games.services import clock

log = logging.getLogger(__name__)


def move_apply(
    *,
    game_id: int,
    user: User,
    body: object,
    expected_seq: int | None = None,
    door: metrics.Door = "rest",
) -> Outcome:
    """Apply a player's move (a JSON body as in the API contract); the bots reply in their
    own tasks. Raises a Refusal (state unchanged) when the move is refused; `expected_seq`
    that no longer matches the game's → stale_state. `door`: where it came in, for metrics."""
    move = engine.parse_move(body)
    refusal: Refusal | None = None
    outcome: Outcome | None
    with transaction.atomic(durable=True):
        table = lock_table(game_id)
        mine = table.seat_of(user.pk)
        if mine is None:
            ensure_can_play(user)  # a barred stranger hears that first
            raise NotAPlayer("You do not sit at this table.")
        if mine.number in table.barred:
            ensure_can_play(user)
        # R16: an expired turn is auto-moved first, under the same lock, and stays applied
        # even when the move that found it is refused.
        overdue, _ = apply_overdue(table)
        try:
            _check_move(table.game, mine, expected_seq)
            outcome = _decide(table, mine.number, move, auto=False, mine=mine)
            outcome = overdue.then(outcome) if overdue is not None else outcome
        except Refusal as error:
            refusal, outcome = error, overdue  # nothing of this move was written
    if outcome is not None:
        dispatch(outcome)
        overdue_rows = len(overdue.rows) if overdue is not None else 0
        metrics.moves_count(outcome.rows[overdue_rows:], door)  # apply_overdue counts its own
    if refusal is not None:
        raise refusal
    assert outcome is not None
    return outcome


def _check_move(game: Game, mine: Seat, expected_seq: int | None) -> None:
    if game.status != GameStatus.ACTIVE:
        raise GameNotActive("The game is not running: no move is possible.")
    if expected_seq is not None and expected_seq != game.seq:
        raise StaleState(
            f"The game has moved on: you saw event {expected_seq}, the game is at {game.seq}."
        )
    if mine.resigned:  # R18: a resigned seat stays away to the end
        raise GameNotActive("You resigned this game: the server plays your seat.")


def turns_expire(*, limit: int = 200) -> int:
    """R16: auto-move every turn whose deadline has passed, one game per transaction; games
    locked by a move in progress are left to that move. Then a task at each deadline due
    before the sweep after next (clock.soon_expiring). Returns the auto-moves applied."""
    now = timezone.now()
    due = Game.objects.filter(status=GameStatus.ACTIVE, deadline__lte=now).order_by("deadline")
    applied = 0
    for game_id in due.values_list("pk", flat=True)[:limit]:
        try:
            applied += _expire_one(game_id)
        except Exception:  # one game's fault never stops every other table's clock
            log.exception("The turn timer could not settle game %s", game_id)
            metrics.timer_failures.inc()
    for game_id, seq, deadline in clock.soon_expiring(timezone.now()):
        expire_at(game_id, seq, deadline)
    return applied


def _expire_one(game_id: int) -> int:
    """The sweep's work on one overdue game, in its own transaction: its auto-moves applied."""
    with transaction.atomic(durable=True):
        table = lock_table(game_id, skip_locked=True)
        outcome, count = apply_overdue(table) if table is not None else (None, 0)
    if outcome is not None:
        dispatch(outcome)
    return count


def turn_expire(*, game_id: int, seq: int) -> int:
    """R16 on time: the auto-move of the turn the game had at event `seq`, if that turn has
    expired and nothing happened since (so a duplicate or a late task moves nothing)."""
    game = selectors.game_get(game_id)
    if game.seq != seq or not clock.is_overdue(game, timezone.now()):
        return 0
    with transaction.atomic(durable=True):
        table = lock_table(game_id)
        outcome, applied = apply_overdue(table) if table.game.seq == seq else (None, 0)
    if outcome is not None:
        dispatch(outcome)
    return applied


def apply_overdue(table: Table) -> tuple[Outcome | None, int]:
    """Under the game's lock: settle each expired turn, in order (R16). Each auto-move is made
    now, so the next turn gets its full limit from this commit, never from the missed
    deadline. A human turn found more than clock.OUTAGE_GRACE past its deadline gets, once, a
    fresh full limit from now instead of an auto-move, not counted as an expiry (R18): after
    an outage nobody is auto-moved on a turn they were not given in full. An away player's
    expired turn (R18), or a bot step whose task was lost, sends the bot's step task (a bot
    never thinks under the lock). Returns what changed and the auto-moves and blind-trick
    steps applied (a renewal or a step sent is none)."""
    game, outcomes, applied, lateness = table.game, list[Outcome](), 0, list[float]()
    while clock.is_overdue(game, now := timezone.now()):
        state = game.engine_state()
        assert state is not None and state.to_act is not None
        acting = table.seat(state.to_act)
        if engine.blind_trick_pending(state):  # R9: no thinking, the only card there is
            outcomes.append(_record(table, *engine.blind_step(state, seed=game.seed)))
        elif acting.is_bot:
            if not outcomes:  # else the move just applied has sent the bot's task
                outcomes.append(_step_resend(table, state, now))
            break
        elif acting.away:  # R18: the medium bot decides for them, in its task
            outcomes.append(_step_resend(table, state, now))
            break
        elif clock.untimed(game, acting, acting.number in table.barred, now):
            outcomes.append(_renew_turn(table, state, acting, now))
            break
        else:
            _expired(acting)
            assert game.deadline is not None  # is_overdue: the turn has one
            lateness.append((now - game.deadline).total_seconds())
            if acting.away:  # a second expiry in a row: away now, so not R16's fixed choice
                outcomes.append(_step_resend(table, state, now))
                break
            outcomes.append(_decide(table, state.to_act, engine.auto_move(state), auto=True))
        applied += 1
    outcome = chain(outcomes)
    if outcome is not None:  # counted once committed, whoever found them (a move, a resign…)
        rows = outcome.rows
        transaction.on_commit(lambda: metrics.timer_moves_count(rows, lateness))
    return outcome, applied


def _renew_turn(table: Table, state: State, acting: Seat, now: datetime) -> Outcome:
    """The turn starts again now with the seat's full limit (R16, R18's while away)."""
    game = table.game
    game.deadline = now + timedelta(seconds=clock.turn_limit(game, acting))
    game.turn_renewed = True
    game.save(update_fields=["deadline", "turn_renewed"])
    return Outcome(game, table.seats, state, timer_due=clock.timer_due(game, now))


def _step_resend(table: Table, state: State, now: datetime) -> Outcome:
    """A bot step whose task was lost: its deadline moves on and its task is sent again."""
    game = table.game
    game.deadline = clock.deadline(game, table, state, now)
    game.save(update_fields=["deadline"])
    return Outcome(game, table.seats, state, step_delay_ms=0)


AWAY_AFTER_EXPIRIES = 2  # R18
AWAY_BOT = DIFFICULTIES["medium"]  # R18: who decides for an away player


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
    table: Table, seat: int, move: Move, *, auto: bool, mine: Seat | None = None
) -> Outcome:
    """Apply one decision; `mine`: the seat of a player deciding themselves, no longer away
    (R18)."""
    state = table.game.engine_state()
    assert state is not None  # an active game has started
    state, events = engine.take_turn(
        state, seat, move, seed=table.game.seed, auto=auto, auto_blind=not _paced()
    )
    if mine is not None:
        _present(mine)  # after the engine accepted the move: a refused one changes nothing
    return _record(table, state, events)


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
    with transaction.atomic(durable=True):
        table = lock_table(game_id)
        if table.game.status != GameStatus.ACTIVE or table.game.seq != seq:
            return False  # a move, the timer or a twin task got there first
        if _came_back(table, state):
            return False  # the away player is back (R18): their turn is theirs again
        outcome = _record(table, *step)
    dispatch(outcome)
    metrics.moves_count(outcome.rows, "bot")
    return True


def _automatic_step(
    game: Game, seats: list[Seat], state: State
) -> tuple[State, list[Event]] | None:
    """What happens next without a human: the blind trick's next card, or the decision of the
    bot to act (as one step, the bots paced), or of the medium bot for an away player (R18,
    marked auto, as the timer's); None when a present human is to decide."""
    if engine.blind_trick_pending(state):
        return engine.blind_step(state, seed=game.seed)
    acting = next((s for s in seats if s.number == state.to_act), None)
    if acting is None or not (acting.is_bot or acting.away):
        return None
    kind = acting.bot_kind if acting.is_bot else AWAY_BOT
    bot = make_seat_bot(kind, seed=f"{game.seed}:{acting.number}:{state.seq}")
    move = engine.bot_move(bot, state, acting.number)
    return engine.take_turn(
        state, acting.number, move, seed=game.seed, auto=not acting.is_bot, auto_blind=not _paced()
    )


def _came_back(table: Table, state: State) -> bool:
    """The step is an away player's decision (R18), and under the lock they are away no more."""
    if engine.blind_trick_pending(state) or state.to_act is None:
        return False
    acting = table.seat(state.to_act)
    return not acting.is_bot and not acting.away


def _paced() -> bool:
    """Bots and the blind trick act one step at a time, BOT_MOVE_DELAY_MS apart (0: at once)."""
    return bool(settings.BOT_MOVE_DELAY_MS > 0)


def _step_delay_ms(events: list[Event]) -> int:
    """Paced, a step waits BOT_MOVE_DELAY_MS, and after a complete trick TRICK_PAUSE_MS longer,
    so everyone sees the trick."""
    if not _paced():
        return 0
    trick_won = any(e["type"] == "trick_won" for e in events)
    return int(settings.BOT_MOVE_DELAY_MS) + (int(settings.TRICK_PAUSE_MS) if trick_won else 0)


def start(table: Table) -> Outcome:
    """Deal the first round (R3–R5)."""
    game = table.game
    state, events = engine.start_game(
        players=game.seats,
        seed=game.seed,
        hook_rule=game.hook_rule,
        blind_first_round=game.blind_first_round,
        rounds=game.round_format,
        special_cards=game.special_codes,
    )
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    return _record(table, state, events)


def _record(table: Table, state: State, events: list[Event]) -> Outcome:
    """Append the event rows and refresh the game's cached state, turn and deadline (the new
    turn's limit counts from now, its commit, the rows' instant too); what changed."""
    game, seats = table.game, table.seats
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
    game.seq = state.seq
    game.set_engine_state(state)
    game.to_act = state.to_act
    game.deadline = clock.deadline(game, table, state, now)
    game.turn_renewed = False
    if state.is_over:
        game.status = GameStatus.FINISHED
        game.finished_at = now
        _record_results(seats, state)
    sql.game_record(rows, game)
    actor = next_actor(state, seats)
    stepping = actor in ("bot", "blind")
    return Outcome(
        game,
        seats,
        state,
        rows,
        step_delay_ms=_step_delay_ms(events) if stepping else None,
        timer_due=None if stepping else clock.timer_due(game, now),
        turn=_person_turn(table, state, events) if actor == "person" else None,
        finished=state.is_over,
        # Lobbies care when a table starts or ends, not about every move; and when it scores a
        # round, which their games to watch show.
        lobby=state.is_over or len(events) == game.seq,
        scored=any(event["type"] == ROUND_SCORED for event in events),
    )


def _person_turn(table: Table, state: State, events: list[Event]) -> PersonTurn | None:
    """The person now to decide, and whether they made the decision just before themselves."""
    assert state.to_act is not None and table.game.deadline is not None
    acting = table.seat(state.to_act)
    if acting.user_id is None:
        return None
    decisions = [e for e in events if e["type"] in engine.PLAYER_DECISIONS]
    again = bool(
        decisions and decisions[-1].get("seat") == acting.number and not decisions[-1].get("auto")
    )
    return PersonTurn(user_id=acting.user_id, deadline=table.game.deadline, again=again)


def _record_results(seats: list[Seat], state: State) -> None:
    """Each seat's final score, place (R15) and exact bids."""
    places = engine.places(state.totals)
    for seat in seats:
        seat.final_score = state.totals[seat.number]
        seat.place = places[seat.number]
        seat.exact_bids = sum(
            record["bids"][seat.number] == record["tricks"][seat.number] for record in state.scores
        )
    Seat.objects.bulk_update(seats, ["final_score", "place", "exact_bids"])
