"""Reads of Play now (R28): a seek as the API shows it, and how many wait for each speed."""

from __future__ import annotations

from typing import Literal, TypedDict

from django.db.models import Count
from django.utils import timezone

from apikit.schema import DateTime
from games.selectors import iso
from seeks.models import SPEEDS, Deck, Seek


class SeekView(TypedDict):
    """A player's seek: what they asked for, how many seeks of its speed and deck wait (theirs
    included), and the table it was seated at (null while it waits)."""

    id: int
    turn_seconds: int
    sizes: list[int]
    deck: Literal["classic", "anniversary"]
    bots_after: int | None
    created_at: DateTime
    waiting: int
    game: int | None


class SeekCount(TypedDict):
    """How many seeks wait at one speed and deck."""

    turn_seconds: int
    deck: Literal["classic", "anniversary"]
    waiting: int


def seek_of(user_id: int) -> Seek | None:
    """The player's seek, waiting or seated not long ago; None when they have none."""
    seek = Seek.objects.filter(user_id=user_id).first()
    return None if seek is None or seek.gone(timezone.now()) else seek


def seek_view(seek: Seek) -> SeekView:
    waiting = Seek.objects.filter(
        seated_at=None, turn_seconds=seek.turn_seconds, deck=seek.deck
    ).count()
    return {
        "id": seek.pk,
        "turn_seconds": seek.turn_seconds,
        "sizes": list(seek.sizes),
        "deck": Deck(seek.deck).value,  # type: ignore[typeddict-item]
        "bots_after": seek.bots_after,
        "created_at": iso(seek.created_at),
        "waiting": waiting,
        "game": seek.game_id if seek.seated_at is not None else None,
    }


def seek_counts() -> list[SeekCount]:
    """Every speed and deck, with the seeks waiting there (zero included)."""
    rows = Seek.objects.filter(seated_at=None).values("turn_seconds", "deck")
    found = {(r["turn_seconds"], r["deck"]): r["n"] for r in rows.annotate(n=Count("pk"))}
    return [
        {"turn_seconds": speed, "deck": deck.value, "waiting": found.get((speed, deck.value), 0)}  # type: ignore[typeddict-item]
        for speed in SPEEDS
        for deck in Deck
    ]
