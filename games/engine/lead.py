"""The lead suit of a trick and the cards that may follow it, on card faces: the one definition
of R11 and R12 (the fast path's tables in playout.py are built from it). For the lead suit the
Dragon and a Shapeshifter declared a Wizard are Wizards, the Fairy, the Bomb and a Shapeshifter
declared a Jester are Jesters, and a named Juggler or Cloud is a card of its suit (R21–R25)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from games.engine.cards import FACES


def lead_card(codes: Iterable[str]) -> str | None:
    """The face that settles the lead suit: the first one that is not a Jester (None while only
    Jesters have been played)."""
    for code in codes:
        if code not in _JESTERS:
            return code
    return None


def lead_suit(codes: Iterable[str]) -> str | None:
    """The lead suit of a trick whose cards are `codes`, in the order played (None: none)."""
    # R11: Jesters leave it open; the first other card sets it, a Wizard to no lead suit at all.
    code = lead_card(codes)
    return _SUIT_OF[code] if code is not None else None


def playable(hand: Sequence[str], lead: str | None) -> list[str]:
    """The cards of `hand` that may be played on a trick with this lead suit, in hand order."""
    # R12: a card of the lead suit, a Wizard or a Jester if the hand holds the lead suit; else any.
    # A special card in the hand has no suit: it may always be played (R20).
    if lead is not None:
        suits = [_SUIT_OF[code] for code in hand]
        if lead in suits:
            return [code for code, suit in zip(hand, suits, strict=True) if suit in (lead, None)]
    return list(hand)


def may_play(code: str, hand: Sequence[str], lead: str | None) -> bool:
    """Whether `code`, a card of `hand`, is one of playable(hand, lead)."""
    # A Wizard, a Jester and a card of the lead suit always are; only the others need the hand.
    suit = _SUIT_OF[code]
    return suit is None or suit == lead or code in playable(hand, lead)


_SUIT_OF: Final = {code: card.suit for code, card in FACES.items()}
_JESTERS: Final = frozenset(
    code for code, card in FACES.items() if card.kind in ("jester", "fairy", "bomb")
)
