"""Seeded, deterministic dealing (R3, R4) that anyone can re-derive from the revealed seed.

Every random choice of a game comes from SHA-256 of the seed, so the same seed gives the same
first dealer and the same shuffles in any language:

- a stream for a label is the concatenation of SHA-256(f"{seed}:{label}:{i}") for i = 0, 1, …,
  read as consecutive 8-byte big-endian unsigned integers;
- `draw(bound)` takes the next integer x and rejects it while x ≥ 2**64 − (2**64 mod bound),
  then returns x mod bound (no modulo bias);
- the first dealer is draw(players) on the stream labelled "dealer";
- round k's deck is the canonical order of cards.DECK, followed by the table's special cards
  (R20) in the order DR FA BO WW JU CL SH, shuffled by Fisher–Yates on the stream labelled
  "round-k": for i from the deck's size − 1 (59 without special cards) down to 1, swap
  positions i and draw(i + 1);
- the shuffled deck is dealt one card at a time, starting left of the dealer and going
  clockwise, k rounds; the next card is turned up (R5) unless the deck is empty (R6; with
  special cards it never is, R20).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence

from games.engine.cards import DECK_CODES
from games.engine.state import bidding_order

_TWO_64 = 1 << 64
_FOUR_WORDS = struct.Struct(">4Q")  # one digest = four 8-byte big-endian integers


def new_seed() -> str:
    """A fresh secret seed for a game (256 bits from the OS)."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The public SHA-256 commitment of a seed: hex digest of its UTF-8 bytes."""
    return hashlib.sha256(seed.encode()).hexdigest()


class _Stream:
    """The integers of one labelled SHA-256 stream, and unbiased draws from them."""

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = f"{seed}:{label}:"
        self._counter = 0
        self._values: list[int] = []
        self._next = 0

    def draw(self, bound: int) -> int:
        limit = _TWO_64 - (_TWO_64 % bound)
        while True:
            if self._next == len(self._values):
                digest = hashlib.sha256(f"{self._prefix}{self._counter}".encode()).digest()
                self._counter += 1
                self._values.extend(_FOUR_WORDS.unpack(digest))
            value = self._values[self._next]
            self._next += 1
            if value < limit:
                return value % bound


def first_dealer(seed: str, players: int) -> int:
    """The seat of the first dealer (R3)."""
    return _Stream(seed, "dealer").draw(players)


def shuffled_deck(seed: str, round_number: int, special_cards: Sequence[str] = ()) -> list[str]:
    """Round k's deck, in the order it is dealt (R4); `special_cards` in R20's order."""
    deck = [*DECK_CODES, *special_cards]
    stream = _Stream(seed, f"round-{round_number}")
    for i in range(len(deck) - 1, 0, -1):
        j = stream.draw(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_round(
    seed: str, round_number: int, players: int, dealer: int, special_cards: Sequence[str] = ()
) -> tuple[list[list[str]], str | None]:
    """The hands of round k by seat, and the turned-up card (None when the deck is used up)."""
    deck = shuffled_deck(seed, round_number, special_cards)
    used = round_number * players
    hands: list[list[str]] = [[] for _ in range(players)]
    for position, seat in enumerate(bidding_order(dealer, players)):  # one card at a time
        hands[seat] = deck[position:used:players]
    turned_up = deck[used] if used < len(deck) else None
    return hands, turned_up
