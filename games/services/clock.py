"""The turn clock (R16, R18): when a decision expires, when a turn counts as overdue or as not
timed at all, and the tasks that fire at deadlines. Pure reckoning and scheduling: the moves
(games.services.moves) apply what falls due."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings

from core import limits
from games import engine, enqueue
from games.engine import State
from games.models import Game, GameStatus, Seat

# How long a step's task may be late before the timer's sweep sends it again (R9's blind
# trick: plays its card itself).
STEP_GRACE = timedelta(seconds=5)
# A healthy timer finds an expired turn within about a second (a task at the deadline and a
# sweep every second). A turn found later than this was not timed: the timer, its worker or
# the database was down, so the player may not have had their turn in full.
OUTAGE_GRACE = timedelta(seconds=5)
# R16 on time without a task per turn: the timer's sweep runs every second and schedules a
# task at each deadline due within this look-ahead (schedule_soon_expiring), so only turns
# that really run out cost a task. A turn that starts with less time left than this (a barred
# player's, due at once) gets its task from the change that starts it.
EXPIRY_LOOKAHEAD = timedelta(seconds=2)
EXPIRY_BATCH = 1000  # deadlines scheduled by one sweep; later ones wait for the next


def is_overdue(game: Game, now: datetime) -> bool:
    return game.status == GameStatus.ACTIVE and game.deadline is not None and game.deadline <= now


def untimed(game: Game, acting: Seat, now: datetime) -> bool:
    """The running human turn was found too late to have been timed (see OUTAGE_GRACE) and
    has not been renewed yet; a suspended player's turn never waits (it expires at once)."""
    assert game.deadline is not None
    late = now - game.deadline > OUTAGE_GRACE
    return late and not game.turn_renewed and not getattr(acting, "barred", False)


def deadline(game: Game, seats: list[Seat], state: State, turn_starts: datetime) -> datetime | None:
    """When the next decision expires (R16); at once for a suspended player, so a barred
    player never blocks the table. A paced bot or blind-trick step has its task: its deadline
    only lets the timer's sweep take over if that task is lost."""
    if state.to_act is None:
        return None
    acting = next(seat for seat in seats if seat.number == state.to_act)
    if getattr(acting, "barred", False):
        return turn_starts
    if acting.is_bot or engine.blind_trick_pending(state):
        return turn_starts + step_window()
    return turn_starts + timedelta(seconds=turn_limit(game, acting))


def step_window() -> timedelta:
    """How long after its turn began a bot or blind-trick step is overdue."""
    step_ms = settings.BOT_MOVE_DELAY_MS + settings.TRICK_PAUSE_MS
    return timedelta(milliseconds=step_ms) + STEP_GRACE


def turn_limit(game: Game, seat: Seat) -> int:
    """Seconds a seat has for a decision: the table's limit (R16), at most 5 while away (R18)."""
    if seat.away:
        return min(game.turn_seconds, limits.AWAY_TURN_SECONDS)
    return int(game.turn_seconds)


def schedule_expiry(game: Game, now: datetime) -> None:
    """After the commit: a task due at the new turn's deadline, if it falls before the sweep
    can schedule one (the sweep stays as the safety net)."""
    due = game.deadline
    if game.status != GameStatus.ACTIVE or due is None or due - now > EXPIRY_LOOKAHEAD:
        return
    from games import tasks  # tasks import the services

    enqueue.after_commit(tasks.turn_expire, (game.pk, game.seq), eta=due)


def schedule_soon_expiring(now: datetime) -> None:
    """R16 on time: a task at each running turn's deadline that falls within EXPIRY_LOOKAHEAD
    (a turn seen by two sweeps gets two tasks: the second moves nothing)."""
    from games import tasks  # tasks import the services

    soon = Game.objects.filter(
        status=GameStatus.ACTIVE, deadline__gt=now, deadline__lte=now + EXPIRY_LOOKAHEAD
    )
    for game_id, seq, due in soon.values_list("pk", "seq", "deadline")[:EXPIRY_BATCH]:
        tasks.turn_expire.apply_async((game_id, seq), eta=due)
