"""The playout policy of the search: every seat plays to make its bid exactly, on the fast path.

Also the quick bid every seat is assumed to make from its hand, for seats yet to bid (R7, R8).
"""

from __future__ import annotations

import math
from functools import cache
from typing import Final

from games.engine.playout import (
    LEAD_AFTER,
    NO_SUIT,
    OPEN,
    POWER,
    RANK,
    STRENGTH,
    SUIT,
    WIZARD,
    forbidden,
    playable,
)
from games.engine.state import bidding_order, turn_order

WEAK_BLIND_CARD: Final = 9  # R9: below this, a card another seat shows rarely takes the trick
Strengths = tuple[tuple[int, ...], ...]  # STRENGTH[trump]: by lead, then card


def play_out(
    hands: list[list[int]],
    trump: int,
    bids: list[int],
    won: list[int],
    leader: int,
    played: list[int],
) -> list[int]:
    """Finish the round from a trick that `leader` began with `played`; every seat plays to
    make its bid: takes tricks with its weakest winning card while it needs them, else sheds
    its strongest losing card. Uses up `hands`; returns `won`, updated (R10–R13)."""
    players = len(hands)
    strengths = STRENGTH[trump]
    power = POWER[trump]
    lead, best, winner = OPEN, -1, leader
    order = turn_order(leader, players)
    for seat, card in zip(order, played, strict=False):
        lead, best, winner = _add(card, seat, strengths, lead, best, winner)
    start = len(played)
    while True:
        for offset in range(start, players):
            seat = order[offset]
            hand = hands[seat]
            legal = playable(hand, lead)
            if len(legal) == 1:
                card = legal[0]
            elif offset == 0:  # leading: strongest card if tricks are needed, else weakest
                pick = max if bids[seat] > won[seat] else min
                card = pick(legal, key=power.__getitem__)
            else:
                card = _follow(legal, bids[seat] > won[seat], power, strengths, lead, best)
            hand.remove(card)
            lead, best, winner = _add(card, seat, strengths, lead, best, winner)
        won[winner] += 1
        if not hands[winner]:
            return won
        order = turn_order(winner, players)  # R10: the winner leads the next trick
        start, lead, best = 0, OPEN, -1


def _add(
    card: int, seat: int, strengths: Strengths, lead: int, best: int, winner: int
) -> tuple[int, int, int]:
    lead = LEAD_AFTER[lead][card]
    strength = strengths[lead][card]
    if strength > best:
        return lead, strength, seat
    return lead, best, winner


def _follow(
    legal: list[int],
    needs: bool,
    power: tuple[int, ...],
    strengths: Strengths,
    lead: int,
    best: int,
) -> int:
    chosen, chosen_power = -1, 999 if needs else -1
    lowest, lowest_power = -1, 999
    after = LEAD_AFTER[lead]
    for card in legal:
        strength = strengths[after[card]][card]
        card_power = power[card]
        if card_power < lowest_power:
            lowest, lowest_power = card, card_power
        if needs:
            if strength > best and card_power < chosen_power:
                chosen, chosen_power = card, card_power
        elif strength <= best and card_power > chosen_power:
            chosen, chosen_power = card, card_power
    return chosen if chosen >= 0 else lowest


@cache
def win_chances(players: int, trump: int) -> tuple[float, ...]:
    """How likely each card is to take a trick, by card (a rough rule of thumb)."""
    crowd = 4 / players  # more opponents, fewer tricks for a middling card
    chances = []
    for card in range(60):
        suit, rank = SUIT[card], RANK[card]
        if suit == NO_SUIT:
            chances.append(1.0 if rank == WIZARD else 0.0)
        elif suit == trump:
            chances.append(min(1.0, (0.2 + 0.8 * (rank / 13) ** 2) * math.sqrt(crowd)))
        else:
            high = max(0.0, (rank - 9) / 4)  # only 10…13 of a plain suit take tricks
            chances.append(min(1.0, 0.8 * high * math.sqrt(high) * crowd))
    return tuple(chances)


def expected_tricks(hand: list[int], players: int, trump: int) -> float:
    """The tricks a hand should take, by the rule of thumb of win_chances."""
    chances = win_chances(players, trump)
    return sum(chances[card] for card in hand)


def blind_bid(seen: list[int], trump: int) -> int:
    """R9: a seat that cannot see its own card bids 1 when every card it sees is weak."""
    return int(all(POWER[trump][card] < WEAK_BLIND_CARD for card in seen))


def quick_bid(expected: float, cards: int, banned: int) -> int:
    """The bid nearest to `expected`, never the one the hook rule bans (R8; −1: none is)."""
    options = [b for b in range(cards + 1) if b != banned]
    return min(options, key=lambda b: (abs(b - expected), b))


def assumed_bids(
    hands: list[list[int]],
    bids: list[int | None],
    dealer: int,
    trump: int,
    hook_rule: bool,
    blind: bool,
) -> list[int]:
    """Every seat's bid: the ones made, then a quick bid for each seat yet to bid (R7, R8)."""
    players = len(hands)
    cards = len(hands[0])
    made = list(bids)
    for seat in bidding_order(dealer, players):  # R7
        if made[seat] is not None:
            continue
        if blind:
            seen = [card for other, hand in enumerate(hands) if other != seat for card in hand]
            target: float = blind_bid(seen, trump)
        else:
            target = expected_tricks(hands[seat], players, trump)
        banned = -1
        if seat == dealer and hook_rule:
            banned = forbidden(cards, sum(b for b in made if b is not None))
        bid = quick_bid(target, cards, banned)
        made[seat] = bid
    return [b if b is not None else 0 for b in made]


def policy_card(legal: list[int], needs: bool, trump: int, leader: int, trick: list[int]) -> int:
    """The card play_out's policy picks among `legal` for the seat next in `trick`."""
    power = POWER[trump]
    if len(legal) == 1:
        return legal[0]
    if not trick:
        return (max if needs else min)(legal, key=power.__getitem__)
    strengths = STRENGTH[trump]
    lead, best, winner = OPEN, -1, leader
    for offset, card in enumerate(trick):
        lead, best, winner = _add(card, offset, strengths, lead, best, winner)
    return _follow(legal, needs, power, strengths, lead, best)
