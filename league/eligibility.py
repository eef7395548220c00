"""R17, decided in one place: which games count for the league."""

from __future__ import annotations

from typing import Literal

from games.models import Game, GameStatus, Seat

# Why a game does not count (R17), as its page and the player's profile say it.
NotCounted = Literal["unfinished", "voided", "bots", "seated_twice"]


def not_counted(game: Game, seats: list[Seat]) -> NotCounted | None:
    """R17: why the game does not count for the league; None if it does (finished, not voided,
    and every seat a distinct real human, so no bot and no solo)."""
    users = [seat.user_id for seat in seats]
    if game.status != GameStatus.FINISHED:
        return "unfinished"
    if game.voided:
        return "voided"
    if len(seats) != game.seats or any(user is None for user in users):
        return "bots"
    if len(set(users)) != len(users):
        return "seated_twice"
    return None


def is_league_game(game: Game, seats: list[Seat]) -> bool:
    """R17: see not_counted."""
    return not_counted(game, seats) is None
