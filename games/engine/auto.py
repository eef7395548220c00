"""R16 and R26: the move the server makes for a seat whose turn limit expired."""

from __future__ import annotations

from games.engine.cards import auto_play_key
from games.engine.errors import GameNotActive
from games.engine.moves import Adjust, Bid, ChooseTrump, Move, Pass, Play
from games.engine.rules import (
    decision,
    declaration_for,
    legal_bids,
    legal_cards,
    most_held_suit,
)
from games.engine.state import State


def auto_move(state: State) -> Move:
    """R16: bid 0 (else the lowest legal bid); play the lowest legal card; choose the suit held
    most among the cards the dealer (or the Werewolf's holder) may see. R26: pass the highest
    card; change a Cloud's bid toward the tricks won; declare by declaration_for."""
    match decision(state):
        case (seat, "trump"):
            # Only the cards the chooser may see count: none of their own in the blind round (R9).
            return ChooseTrump(most_held_suit(() if state.is_blind_round else state.hands[seat]))
        case (_, "bid"):
            return Bid(min(legal_bids(state)))  # 0 unless the hook rule forbids it
        case (seat, "play"):
            code = min(legal_cards(state), key=lambda code: auto_play_key(code, state.trump))
            return Play(code, declaration_for(state, seat, code))
        case (seat, "pass"):
            return Pass(max(state.hands[seat], key=lambda code: auto_play_key(code, state.trump)))
        case (seat, "adjust"):
            bid = state.bids[seat] or 0
            return Adjust(-1 if bid > state.tricks_won[seat] and bid >= 1 else 1)
    raise GameNotActive("Nobody has a decision to make.")
