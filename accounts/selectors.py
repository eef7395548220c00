"""Reads for accounts: the signed-in player's own summary."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.contrib.auth.models import User

from games.models import GameStatus, Seat
from league.models import Rating
from league.ratings import PROVISIONAL_GAMES, display


class Me(TypedDict):
    """The signed-in player: rating (null before any league game) and game counts."""

    id: int
    username: str
    email: str
    date_joined: datetime
    rating: float | None
    provisional: bool
    league_games: int
    games_played: int
    games_won: int
    games_active: int


def user_summary(user: User) -> Me:
    """The player with their game counts (the league adds the rating)."""
    rating = Rating.objects.filter(user=user).first()
    seats = Seat.objects.filter(user=user)
    finished = seats.filter(game__status=GameStatus.FINISHED)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": user.email,
        "date_joined": user.date_joined,
        "rating": display(rating.ordinal) if rating else None,
        "provisional": (rating.games if rating else 0) < PROVISIONAL_GAMES,
        "league_games": rating.games if rating else 0,
        "games_played": finished.count(),
        "games_won": finished.filter(place=1).count(),
        "games_active": seats.filter(game__status=GameStatus.ACTIVE).count(),
    }
