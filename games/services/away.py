"""Away and resigning (R18): a player says they are back, or gives up their seat for the game.

Each runs in one transaction with the game row locked, like every move.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from core.errors import GameNotActive, NotAPlayer
from games import push, selectors
from games.enqueue import game_transaction
from games.locks import lock_game
from games.models import Game, GameStatus, Seat
from games.services.clock import schedule_expiry, turn_limit
from games.services.moves import apply_overdue
from games.services.tables import abort_locked


def _locked_seat(game_id: int, user: User) -> tuple[Game, list[Seat], Seat]:
    """The locked game, its seats and the caller's; expired turns are auto-moved first (R16)."""
    game = lock_game(game_id)
    seats = selectors.table_seats(game)
    mine = next((seat for seat in seats if seat.user_id == user.pk), None)
    if mine is None:
        raise NotAPlayer("You do not sit at this table.")
    apply_overdue(game, seats)
    if game.status != GameStatus.ACTIVE:
        raise GameNotActive("The game is not running.")
    return game, seats, mine


def seat_back(*, game_id: int, user: User) -> tuple[Game, bool]:
    """R18: the caller is back; a decision of theirs now pending gets the table's full limit.
    Refused (game_not_active) for a seat that resigned. Returns the game and whether the seat
    was away (if not, nothing changed and nothing is pushed)."""
    with game_transaction():
        game, seats, mine = _locked_seat(game_id, user)
        if mine.resigned:
            raise GameNotActive("You resigned this game: your seat stays away to the end (R18).")
        if not (mine.away or mine.expiries):
            return game, False
        was_away = mine.away
        mine.away, mine.expiries = False, 0
        mine.save(update_fields=["away", "expiries"])
        if was_away:
            _restart_turn(game, mine)
            push.publish_on_commit(game, seats)
    return game, was_away


def seat_resign(*, game_id: int, user: User) -> Game:
    """Give up: a game with one human seat is aborted; at a human table the seat is away for
    the rest of the game (R18), still that player's for the league (R17)."""
    with game_transaction():
        game, seats, mine = _locked_seat(game_id, user)
        if sum(not seat.is_bot for seat in seats) == 1:
            abort_locked(game)
            return game
        if mine.resigned:
            return game
        mine.away = mine.resigned = True
        mine.save(update_fields=["away", "resigned"])
        _restart_turn(game, mine)
        push.publish_on_commit(game, seats)
    return game


def _restart_turn(game: Game, seat: Seat) -> None:
    """The caller's pending decision, if any, runs from now on their new limit (R16, R18); an
    away seat never gets more time than it had."""
    if game.to_act != seat.number or game.deadline is None:
        return
    now = timezone.now()
    deadline = now + timedelta(seconds=turn_limit(game, seat))
    game.deadline = min(game.deadline, deadline) if seat.away else deadline
    game.save(update_fields=["deadline"])
    schedule_expiry(game, now)
