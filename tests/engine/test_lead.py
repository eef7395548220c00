"""R11, R12 on both card representations: the lead suit and the legal cards of the rules (card
codes) and of the fast path the search bots play on (integers) agree; so do the rules' list of
legal cards and their check of one card."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import State, legal_cards, legal_moves, take_turn
from games.engine.cards import DECK_CODES, SUITS
from games.engine.lead import lead_suit, may_play, playable
from games.engine.playout import CARD_INDEX, LEAD_AFTER, NO_SUIT, OPEN
from games.engine.playout import playable as fast_playable
from tests.engine.tables import Table, start, tables


def fast_lead(trick: list[str]) -> int:
    """The fast path's lead of a trick, folded card by card as its playouts do."""
    lead = OPEN
    for code in trick:
        lead = LEAD_AFTER[lead][CARD_INDEX[code]]
    return lead


def as_suit(lead: int) -> str | None:
    return SUITS[lead] if lead < NO_SUIT else None


def fast_legal(hand: tuple[str, ...] | list[str], lead: int) -> set[str]:
    return {DECK_CODES[card] for card in fast_playable([CARD_INDEX[c] for c in hand], lead)}


def assert_agree(state: State) -> None:
    """The fast path's lead and legal cards, from the trick in play, are the rules' ones."""
    trick = [code for _, code in state.trick]
    lead = fast_lead(trick)
    assert as_suit(lead) == state.lead_suit == lead_suit(trick)
    assert (lead == OPEN) == all(code.startswith("J") for code in trick)  # only Jesters so far
    for hand in state.hands:
        legal = playable(hand, state.lead_suit)
        assert fast_legal(hand, lead) == set(legal)
        assert [code for code in hand if may_play(code, hand, state.lead_suit)] == legal
    if state.to_act is not None:
        assert fast_legal(state.hands[state.to_act], lead) == set(legal_cards(state))


@settings(max_examples=40, deadline=None)
@given(table=tables, choice_seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_fast_path_and_rules_agree_on_lead_suit_and_legal_cards_in_random_games(
    table: Table, choice_seed: int
) -> None:
    """Random deals played out with random legal moves: at every step of every trick."""
    rng = random.Random(choice_seed)
    state, _ = start(table)
    plays = 0
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        if state.phase == "playing":
            assert_agree(state)
            plays += 1
        state, _ = take_turn(state, seat, rng.choice(legal_moves(state)), seed=table.seed)
    assert plays > 0


# Every kind of card a trick can hold: Jesters, Wizards, and a card of each suit.
KINDS = ("J1", "J2", "J3", "W1", "W2", "R3", "R11", "G4", "B5", "Y13")
HANDS = (
    ("R1", "R12", "W3", "J4", "G2"),
    ("G1", "B2", "Y3"),
    ("W4", "J4"),
    ("B1", "B9", "Y1"),
    (),
)


def test_fast_path_lead_and_legal_cards_match_the_rules_on_every_short_trick() -> None:
    """Every trick of up to four cards of these kinds: Jester leads, Wizards first or after
    Jesters, suit cards after either."""
    for length in range(5):
        for trick in itertools.product(KINDS, repeat=length):
            lead = fast_lead(list(trick))
            suit = lead_suit(trick)
            assert as_suit(lead) == suit, trick
            for hand in HANDS:
                assert fast_legal(hand, lead) == set(playable(hand, suit)), (trick, hand)
