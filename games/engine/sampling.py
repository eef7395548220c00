"""Deals of the hidden cards consistent with what a seat knows: the right hand sizes, no card
it has seen, and no card of a suit a seat has shown it does not hold (R12)."""

from __future__ import annotations

import random

from games.engine.knowledge import Knowledge
from games.engine.playout import SUIT


def sample_hands(knowledge: Knowledge, rng: random.Random) -> list[list[int]]:
    """Every seat's hand: the ones the seat sees, the others drawn from its unseen cards."""
    hidden = [s for s, hand in enumerate(knowledge.hands) if hand is None]
    # The most constrained seats draw first, so a greedy draw rarely paints itself in a corner.
    hidden.sort(key=lambda s: -knowledge.voids[s].bit_count())
    pool = knowledge.unseen.copy()
    rng.shuffle(pool)
    drawn = _greedy(knowledge, hidden, pool)
    if drawn is None:
        drawn = _matched(knowledge, hidden, pool)
    hands = [hand.copy() if hand is not None else [] for hand in knowledge.hands]
    for seat, cards in drawn.items():
        hands[seat] = cards
    return hands


def _greedy(
    knowledge: Knowledge, hidden: list[int], pool: list[int]
) -> dict[int, list[int]] | None:
    drawn: dict[int, list[int]] = {}
    for seat in hidden:
        size, voids = knowledge.sizes[seat], knowledge.voids[seat]
        taken: list[int] = []
        rest: list[int] = []
        for card in pool:
            if len(taken) < size and not voids >> SUIT[card] & 1:
                taken.append(card)
            else:
                rest.append(card)
        if len(taken) < size:
            return None
        drawn[seat] = taken
        pool = rest
    return drawn


def _matched(knowledge: Knowledge, hidden: list[int], pool: list[int]) -> dict[int, list[int]]:
    """Kuhn's augmenting paths from hand places to cards: a full deal whenever one exists."""
    places = [seat for seat in hidden for _ in range(knowledge.sizes[seat])]
    holder: dict[int, int] = {}  # card → index of the place holding it

    def fits(place: int, card: int) -> bool:
        return not knowledge.voids[places[place]] >> SUIT[card] & 1

    def assign(place: int, tried: set[int]) -> bool:
        for card in pool:
            if card in tried or not fits(place, card):
                continue
            tried.add(card)
            if card not in holder or assign(holder[card], tried):
                holder[card] = place
                return True
        return False

    for place in range(len(places)):
        if not assign(place, set()):
            raise ValueError("No deal of the unseen cards fits what this seat has seen.")
    drawn: dict[int, list[int]] = {seat: [] for seat in hidden}
    for card, place in holder.items():
        drawn[places[place]].append(card)
    return drawn
