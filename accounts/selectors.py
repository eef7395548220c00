"""Reads for accounts: the signed-in player's own summary."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from games.models import GameStatus, Seat


def user_summary(user: User) -> dict[str, Any]:
    """The player with their game counts (the league adds the rating)."""
    seats = Seat.objects.filter(user=user)
    finished = seats.filter(game__status=GameStatus.FINISHED)
    return {
        "id": user.pk,
        "username": user.get_username(),
        "email": getattr(user, "email", ""),
        "date_joined": getattr(user, "date_joined", None),
        "rating": None,
        "games_played": finished.count(),
        "games_won": finished.filter(place=1).count(),
        "games_active": seats.filter(game__status=GameStatus.ACTIVE).count(),
    }
