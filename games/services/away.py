"""Away and resigning (R18): a player sits out or says they are back, or gives up their seat
for the game. While away, the medium bot decides for them (games.services.moves).

Each runs in one transaction with the game row locked, like every move.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import GameNotActive, NotAPlayer
from games.dispatch import dispatch
from games.locks import Table, lock_table
from games.models import GameStatus, Seat
from games.outcome import Outcome
from games.services.clock import timer_due, turn_limit
from games.services.moves import apply_overdue
from games.services.tables import abort_locked


def _locked_seat(game_id: int, user: User) -> tuple[Table, Seat, Outcome | None]:
    """The locked table and the caller's seat; expired turns are auto-moved first (R16)."""
    table = lock_table(game_id)
    mine = table.seat_of(user.pk)
    if mine is None:
        raise NotAPlayer("You do not sit at this table.")
    overdue, _ = apply_overdue(table)
    if table.game.status != GameStatus.ACTIVE:
        raise GameNotActive("The game is not running.")
    return table, mine, overdue


def seat_back(*, game_id: int, user: User) -> tuple[Outcome, bool]:
    """R18: the caller is back; a decision of theirs now pending gets the table's full limit.
    Refused (game_not_active) for a seat that resigned. Returns the game as it now stands and
    whether the seat was away (if not, nothing changed but what the timer did)."""
    with transaction.atomic(durable=True):
        table, mine, overdue = _locked_seat(game_id, user)
        if mine.resigned:
            raise GameNotActive("You resigned this game: your seat stays away to the end (R18).")
        was_away, changed = mine.away, mine.away or mine.expiries
        if changed:
            mine.away, mine.expiries = False, 0
            mine.save(update_fields=["away", "expiries"])
        outcome = _restart_turn(table, mine, pushed=was_away)
        outcome = overdue.then(outcome) if overdue is not None else outcome
    dispatch(outcome)
    return outcome, was_away


def seat_sit_out(*, game_id: int, user: User) -> tuple[Outcome, bool]:
    """R18: the caller is away at once; a decision of theirs now pending is made by the medium
    bot within the away limit. Returns the game as it now stands and whether the seat was
    present (if not, nothing changed but what the timer did)."""
    with transaction.atomic(durable=True):
        table, mine, overdue = _locked_seat(game_id, user)
        was_present = not mine.away
        outcome = away_locked(table, mine)
        outcome = overdue.then(outcome) if overdue is not None else outcome
    dispatch(outcome)
    return outcome, was_present


def away_locked(table: Table, mine: Seat) -> Outcome:
    """Under the game's lock, at a running game: `mine` is away from now on (R18)."""
    was_present = not mine.away
    if was_present:
        mine.away = True
        mine.save(update_fields=["away"])
    return _restart_turn(table, mine, pushed=was_present)


def seat_resign(*, game_id: int, user: User) -> Outcome:
    """Give up: a game with one human seat is aborted; at a human table the seat is away for
    the rest of the game (R18), still that player's for the league (R17)."""
    with transaction.atomic(durable=True):
        table, mine, overdue = _locked_seat(game_id, user)
        outcome = resign_locked(table, mine)
        outcome = overdue.then(outcome) if overdue is not None else outcome
    dispatch(outcome)
    return outcome


def resign_locked(table: Table, mine: Seat) -> Outcome:
    """Under the game's lock, at a running game: `mine` gives up (see seat_resign)."""
    if sum(not seat.is_bot for seat in table.seats) == 1:
        return abort_locked(table)
    resigned = not mine.resigned
    if resigned:
        mine.away = mine.resigned = True
        mine.save(update_fields=["away", "resigned"])
    return _restart_turn(table, mine, pushed=resigned)


def _restart_turn(table: Table, seat: Seat, *, pushed: bool) -> Outcome:
    """The caller's pending decision, if any, runs from now on their new limit (R16, R18); an
    away seat never gets more time than it had. `pushed`: the seat's standing changed."""
    game, now = table.game, timezone.now()
    outcome = Outcome(game, table.seats, game.engine_state(), changed=pushed)
    if not pushed or game.to_act != seat.number or game.deadline is None:
        return outcome
    deadline = now + timedelta(seconds=turn_limit(game, seat))
    game.deadline = min(game.deadline, deadline) if seat.away else deadline
    game.save(update_fields=["deadline"])
    return replace(outcome, timer_due=timer_due(game, now))
