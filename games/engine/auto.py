"""R16: the move the server makes for a seat whose turn limit expired."""

from __future__ import annotations

from games.engine.cards import CARDS, SUITS, auto_play_key
from games.engine.errors import GameNotActive
from games.engine.moves import Bid, ChooseTrump, Move, Play
from games.engine.rules import decision, legal_bids, legal_cards
from games.engine.state import State


def auto_move(state: State) -> Move:
    """R16: bid 0 (else the lowest legal bid); play the lowest legal card; choose the suit held
    most among the cards the dealer may see."""
    match decision(state):
        case (seat, "trump"):
            # Only the cards the dealer may see count: none of their own in the blind round (R9).
            seen = () if state.is_blind_round else state.hands[seat]
            held = [sum(CARDS[code].suit == suit for code in seen) for suit in SUITS]
            # max() keeps the first of equal counts: ties go in suit order red, green, blue, yellow.
            return ChooseTrump(SUITS[max(range(len(SUITS)), key=lambda i: held[i])])
        case (_, "bid"):
            return Bid(min(legal_bids(state)))  # 0 unless the hook rule forbids it
        case (_, "play"):
            return Play(min(legal_cards(state), key=lambda code: auto_play_key(code, state.trump)))
    raise GameNotActive("Nobody has a decision to make.")
