"""The fast path: rounds played on small integers, no events and no views, for search bots.

A card is its index in cards.DECK_CODES (0…59): suit = index // 13 for 0…51, then Wizards
52…55 and Jesters 56…59. Suits are 0…3 in R1 order; 4 stands for "no suit" and "no trump".
The lead of a trick is a suit, NO_SUIT (none at all) or OPEN (not set yet); the tables below
are built from the rules on card codes (cards.py, lead.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from games.engine.cards import (
    CARDS,
    DECK,
    DECK_CODES,
    JESTER_RANK,
    SUIT_LETTERS,
    SUITS,
    WIZARD_RANK,
)
from games.engine.lead import lead_card
from games.engine.lead import playable as playable_codes
from games.engine.state import bidding_order, first_leader, next_seat, turn_order

NO_SUIT: Final = 4
OPEN: Final = 5  # a trick's lead while only Jesters are in it
LEADS: Final = range(OPEN + 1)  # a suit, NO_SUIT or OPEN
WIZARD: Final = WIZARD_RANK
JESTER: Final = JESTER_RANK
CARD_INDEX: Final = {code: index for index, code in enumerate(DECK_CODES)}
SUIT_INDEX: Final = {suit: index for index, suit in enumerate(SUITS)}
SUIT: Final = tuple(SUIT_INDEX[card.suit] if card.suit is not None else NO_SUIT for card in DECK)
RANK: Final = tuple(int(card.rank) for card in DECK)  # the 60 have whole numbers


def _lead_of(codes: tuple[str, ...]) -> int:
    code = lead_card(codes)
    if code is None:
        return OPEN
    suit = CARDS[code].suit
    return SUIT_INDEX[suit] if suit is not None else NO_SUIT


def _suit_of(lead: int) -> str | None:
    return SUITS[lead] if lead < NO_SUIT else None


# A trick with each lead; only the card that settled it matters (lead.lead_card).
_TRICK_WITH_LEAD: Final[dict[int, tuple[str, ...]]] = {
    **{lead: (f"{SUIT_LETTERS[suit]}1",) for lead, suit in enumerate(SUITS)},
    NO_SUIT: ("W1",),
    OPEN: (),
}
# LEAD_AFTER[lead][card]: the trick's lead once `card` is played on it.
LEAD_AFTER: Final = tuple(
    tuple(_lead_of((*_TRICK_WITH_LEAD[lead], code)) for code in DECK_CODES) for lead in LEADS
)
# FOLLOWS[lead][card]: whether a hand holding `card` and a card of the lead suit may play it.
FOLLOWS: Final = tuple(
    tuple(
        code in playable_codes((code, *_TRICK_WITH_LEAD[lead]), _suit_of(lead))
        for code in DECK_CODES
    )
    for lead in LEADS
)


def playable(hand: list[int], lead: int) -> list[int]:
    """lead.playable on the fast path: the cards of `hand` that may be played on a trick with
    this lead, in hand order (`hand` itself when any card may)."""
    if lead < NO_SUIT:
        for card in hand:
            if SUIT[card] == lead:  # the hand holds the lead suit
                allowed = FOLLOWS[lead]
                return [other for other in hand if allowed[other]]
    return hand


def _strength(card: int, trump: int, lead: int) -> int:
    # R13 as one number: a Wizard beats all (the first one, as later ones only tie), then
    # trump, then the lead suit; any other card (and a Jester) can never take the trick.
    suit, rank = SUIT[card], RANK[card]
    if rank == WIZARD:
        return 100
    if suit == NO_SUIT:
        return 0
    if suit == trump:
        return 40 + rank
    return 20 + rank if suit == lead else 0


# STRENGTH[trump][lead][card], for every lead of a trick.
STRENGTH: Final = tuple(
    tuple(tuple(_strength(card, trump, lead) for card in range(60)) for lead in LEADS)
    for trump in range(5)
)
# POWER[trump][card]: how strong a card is before its trick is known, to rank a hand. A
# Jester (no suit) is never trump, not even in a round with no trump (R5, R13).
POWER: Final = tuple(
    tuple(
        100 if RANK[c] == WIZARD else 40 + RANK[c] if SUIT[c] == trump < NO_SUIT else RANK[c]
        for c in range(60)
    )
    for trump in range(5)
)


def round_points(bid: int, won: int) -> int:
    """R14: exact bid → 20 + 10 per trick won; missed → −10 per trick of difference."""
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


def trump_of(turned_up: int | None, choose: Callable[[], int]) -> int:
    """R5, R6: the trump suit a turned-up card gives (`choose` asks the dealer on a Wizard)."""
    if turned_up is None:
        return NO_SUIT
    if RANK[turned_up] == WIZARD:
        return choose()
    return SUIT[turned_up]  # a Jester's suit is NO_SUIT: no trump


def forbidden(round_number: int, bids_sum: int) -> int:
    """R8: the dealer's bid that would make the bids sum to k (−1 when none is)."""
    left = round_number - bids_sum
    return left if 0 <= left <= round_number else -1


def random_round(
    hands: list[list[int]],
    trump: int,
    dealer: int,
    hook_rule: bool,
    rnd: Callable[[], float],
    log: list[int],
) -> list[int]:
    """One round of uniformly random legal bids and cards; returns the points by seat (R14).

    `hands` are used up. Every bid, then every card, is appended to `log` in the order made.
    """
    players = len(hands)
    cards = len(hands[0])
    bids = [0] * players
    total = 0
    for seat in bidding_order(dealer, players):  # R7
        if seat == dealer and hook_rule and (banned := forbidden(cards, total)) >= 0:
            bid = int(rnd() * cards)  # R8: one of the k legal bids, the banned one skipped
            bid += bid >= banned
        else:
            bid = int(rnd() * (cards + 1))
        bids[seat] = bid
        total += bid
        log.append(bid)
    counts = [[0] * 5 for _ in range(players)]  # cards held by seat and suit (NO_SUIT last)
    for seat, hand in enumerate(hands):
        for card in hand:
            counts[seat][SUIT[card]] += 1
    won = [0] * players
    leader = first_leader(dealer, players)  # R10
    strengths = STRENGTH[trump]
    for _ in range(cards):
        lead = OPEN
        best = -1
        winner = leader
        for seat in turn_order(leader, players):
            hand = hands[seat]
            held = counts[seat]
            allowed = FOLLOWS[lead]
            while True:  # drawn from the hand until legal: uniform over the legal cards
                index = int(rnd() * len(hand))
                card = hand[index]
                # playable's answer, kept cheap: FOLLOWS, else no card of the lead suit held
                if allowed[card] or not held[lead]:
                    break
            hand[index] = hand[-1]
            hand.pop()
            held[SUIT[card]] -= 1
            if lead == OPEN:  # once set, a lead stays
                lead = LEAD_AFTER[OPEN][card]
            strength = strengths[lead][card]
            if strength > best:
                best, winner = strength, seat
            log.append(card)
        won[winner] += 1
        leader = winner  # R10
    return [round_points(bid, tricks) for bid, tricks in zip(bids, won, strict=True)]


def random_game(players: int, rng: random.Random) -> list[int]:
    """A whole game of random legal moves on the fast path; returns the totals by seat."""
    rnd = rng.random
    deck = list(range(60))
    totals = [0] * players
    dealer = int(rnd() * players)
    log: list[int] = []
    for cards in range(1, 60 // players + 1):  # R2, R4
        dealt = cards * players
        drawn = rng.sample(deck, dealt + 1 if dealt < 60 else dealt)
        hands = [drawn[seat * cards : (seat + 1) * cards] for seat in range(players)]
        turned_up = drawn[dealt] if dealt < 60 else None  # R6
        trump = trump_of(turned_up, lambda: int(rnd() * 4))
        points = random_round(hands, trump, dealer, True, rnd, log)
        totals = [total + p for total, p in zip(totals, points, strict=True)]
        dealer = next_seat(dealer, players)  # R3
        log.clear()
    return totals
