"""R17, decided in one place: which games count for the league."""

from __future__ import annotations

from games.models import Game, GameStatus, Seat


def is_league_game(game: Game, seats: list[Seat]) -> bool:
    """R17: finished, not voided, and every seat a distinct real human (so no bot, no solo)."""
    users = [seat.user_id for seat in seats]
    return (
        game.status == GameStatus.FINISHED
        and not game.voided
        and len(seats) == game.seats
        and all(user is not None for user in users)
        and len(set(users)) == len(users)
    )
