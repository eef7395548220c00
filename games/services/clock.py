"""The turn clock (R16, R18): when a decision expires, when a turn counts as overdue or as not
timed at all, and the tasks that fire at deadlines. Pure reckoning and scheduling: the moves
(games.services.moves) apply what falls due."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from core import limits
from games import engine
from games.engine import State
from games.locks import Table
from games.models import Game, GameStatus, Seat

# How long a step's task may be late before the timer's sweep sends it again (R9's blind
# trick: plays its card itself).
STEP_GRACE = timedelta(seconds=5)
# A healthy timer finds an expired turn within about a second (a task at the deadline and a
# sweep every second). A turn found later than this was not timed: the timer, its worker or
# the database was down, so the player may not have had their turn in full.
OUTAGE_GRACE = timedelta(seconds=5)
# R16 on time without a task per turn: the timer's sweep runs every second and schedules a
# task at each deadline due within this look-ahead (soon_expiring), so only turns
# that really run out cost a task. A turn that starts with less time left than this (a barred
# player's, due at once) gets its task from the change that starts it.
EXPIRY_LOOKAHEAD = timedelta(seconds=2)
EXPIRY_BATCH = 1000  # deadlines scheduled by one sweep; later ones wait for the next


def is_overdue(game: Game, now: datetime) -> bool:
    return game.status == GameStatus.ACTIVE and game.deadline is not None and game.deadline <= now


def untimed(game: Game, acting: Seat, barred: bool, now: datetime) -> bool:
    """The running human turn was found too late to have been timed (see OUTAGE_GRACE) and
    has not been renewed yet; a barred player's turn never waits (it expires at once)."""
    assert game.deadline is not None
    late = now - game.deadline > OUTAGE_GRACE
    return late and not game.turn_renewed and not barred


def deadline(game: Game, table: Table, state: State, turn_starts: datetime) -> datetime | None:
    """When the next decision expires (R16); at once for a barred player, so a barred
    player never blocks the table. A paced bot or blind-trick step has its task: its deadline
    only lets the timer's sweep take over if that task is lost."""
    if state.to_act is None:
        return None
    if state.to_act in table.barred:
        return turn_starts
    if table.seat(state.to_act).is_bot or engine.blind_trick_pending(state):
        return turn_starts + step_window()
    return turn_starts + timedelta(seconds=turn_limit(game, table.seat(state.to_act)))


def step_window() -> timedelta:
    """How long after its turn began a bot or blind-trick step is overdue."""
    step_ms = settings.BOT_MOVE_DELAY_MS + settings.TRICK_PAUSE_MS
    return timedelta(milliseconds=step_ms) + STEP_GRACE


def turn_limit(game: Game, seat: Seat) -> int:
    """Seconds a seat has for a decision: the table's limit (R16), at most 5 while away (R18)."""
    if seat.away:
        return min(game.turn_seconds, limits.AWAY_TURN_SECONDS)
    return int(game.turn_seconds)


def timer_due(game: Game, now: datetime) -> datetime | None:
    """The deadline of the turn a change started, if it falls before the sweep can send its
    task (the sweep stays as the safety net)."""
    due = game.deadline
    if game.status != GameStatus.ACTIVE or due is None or due - now > EXPIRY_LOOKAHEAD:
        return None
    return due


def soon_expiring(now: datetime) -> list[tuple[int, int, datetime]]:
    """R16 on time: each running turn (game, seq, deadline) whose deadline falls within
    EXPIRY_LOOKAHEAD (a turn seen by two sweeps gets two tasks: the second moves nothing)."""
    soon = Game.objects.filter(
        status=GameStatus.ACTIVE, deadline__gt=now, deadline__lte=now + EXPIRY_LOOKAHEAD
    )
    found = soon.values_list("pk", "seq", "deadline")[:EXPIRY_BATCH]
    return [(game_id, seq, due) for game_id, seq, due in found if due is not None]
