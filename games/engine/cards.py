"""Card codes of R1: parsing, printing and the orderings the rules need."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from games.engine.errors import IllegalCard, Invalid

SUITS: Final = ("red", "green", "blue", "yellow")  # also the tie-break order of R16
SUIT_LETTERS: Final = {"red": "R", "green": "G", "blue": "B", "yellow": "Y"}
LETTER_SUITS: Final = {letter: suit for suit, letter in SUIT_LETTERS.items()}
WIZARD_RANK: Final = 14  # above 13 (R13, R16)
JESTER_RANK: Final = 0  # below 1 (R13, R16)


@dataclass(frozen=True, slots=True)
class Card:
    """One of the 60 cards of R1; `suit` is None for Wizards and Jesters."""

    code: str
    suit: str | None
    rank: int

    @property
    def is_wizard(self) -> bool:
        return self.rank == WIZARD_RANK

    @property
    def is_jester(self) -> bool:
        return self.rank == JESTER_RANK

    def __str__(self) -> str:
        return self.code


def _build_deck() -> tuple[Card, ...]:
    deck = [
        Card(f"{SUIT_LETTERS[suit]}{number}", suit, number)
        for suit in SUITS
        for number in range(1, 14)
    ]
    deck += [Card(f"W{i}", None, WIZARD_RANK) for i in range(1, 5)]
    deck += [Card(f"J{i}", None, JESTER_RANK) for i in range(1, 5)]
    return tuple(deck)


DECK: Final[tuple[Card, ...]] = _build_deck()
"""The 60 cards in canonical order: R1…R13, G1…G13, B1…B13, Y1…Y13, W1…W4, J1…J4."""
DECK_CODES: Final[tuple[str, ...]] = tuple(card.code for card in DECK)
CARDS: Final[dict[str, Card]] = {card.code: card for card in DECK}


def parse_card(code: object) -> Card:
    """The card for a code such as `R13`, `W2` or `J4`; raises IllegalCard otherwise."""
    card = CARDS.get(code) if isinstance(code, str) else None
    if card is None:
        raise IllegalCard(f"{code!r} is not a card code (R1).")
    return card


def format_card(card: Card) -> str:
    """The code of a card, the inverse of parse_card."""
    return card.code


def parse_suit(name: object) -> str:
    """A suit name (`red`, `green`, `blue`, `yellow`); raises Invalid otherwise."""
    if name not in SUITS:
        raise Invalid(f"{name!r} is not a suit; choose one of {', '.join(SUITS)} (R5).")
    return str(name)


def auto_play_key(code: str, trump: str | None) -> tuple[int, int, int, str]:
    """R16 order for the auto-move: lowest number first, non-trump before trump at equal number,
    then suit order red, green, blue, yellow; among Jesters or Wizards the lowest code."""
    card = CARDS[code]
    if card.suit is None:
        return (card.rank, 0, 0, code)
    return (card.rank, int(card.suit == trump), SUITS.index(card.suit), code)


_DISPLAY_GROUP: Final = {"red": 1, "green": 2, "blue": 3, "yellow": 4}


def display_key(code: str) -> tuple[int, int, str]:
    """Order in which a hand is shown: Jesters, then suits in R1 order by number, then Wizards."""
    card = CARDS[code]
    if card.suit is None:
        return (0 if card.is_jester else 5, 0, code)
    return (_DISPLAY_GROUP[card.suit], card.rank, code)


def sort_hand(codes: list[str] | tuple[str, ...]) -> list[str]:
    """A hand in display order."""
    return sorted(codes, key=display_key)
