"""The Wizard rules engine (games/rules/en.md, R1–R16): pure Python, no Django, no I/O.

A game is a list of plain events; `replay(events)` folds them into a State. `start_game` and
`take_turn` check decisions and return the events they cause; views say what a seat may see.
"""

from games.engine.auto import auto_move
from games.engine.bots import (
    BOTS,
    Bot,
    ExpertBot,
    HeuristicBot,
    HistoryBot,
    NoviceBot,
    RandomBot,
    bot_move,
    make_bot,
)
from games.engine.cards import CARDS, DECK, SUITS, Card, format_card, parse_card, sort_hand
from games.engine.errors import (
    GameNotActive,
    HookRule,
    IllegalBid,
    IllegalCard,
    Invalid,
    NotYourTurn,
    Refusal,
)
from games.engine.events import EVENT_TYPES, PLAYER_DECISIONS, Event
from games.engine.history import round_history
from games.engine.moves import Bid, ChooseTrump, Move, Play, parse_move
from games.engine.rules import (
    blind_step,
    blind_trick_pending,
    decision,
    forbidden_bid,
    legal_bids,
    legal_cards,
    legal_moves,
    legal_suits,
    places,
    round_points,
    start_game,
    take_turn,
    trick_winner,
    winners,
)
from games.engine.shuffle import commitment, deal_round, first_dealer, new_seed, shuffled_deck
from games.engine.state import State, apply, replay, rounds_for, seat_to_act
from games.engine.views import View, event_view, legal_for, public_view, seat_view, seat_views

__all__ = [
    "BOTS",
    "CARDS",
    "DECK",
    "EVENT_TYPES",
    "PLAYER_DECISIONS",
    "SUITS",
    "Bid",
    "Bot",
    "Card",
    "ChooseTrump",
    "Event",
    "ExpertBot",
    "GameNotActive",
    "HeuristicBot",
    "HistoryBot",
    "HookRule",
    "IllegalBid",
    "IllegalCard",
    "Invalid",
    "Move",
    "NotYourTurn",
    "NoviceBot",
    "Play",
    "RandomBot",
    "Refusal",
    "State",
    "View",
    "apply",
    "auto_move",
    "blind_step",
    "blind_trick_pending",
    "bot_move",
    "commitment",
    "deal_round",
    "decision",
    "event_view",
    "first_dealer",
    "forbidden_bid",
    "format_card",
    "legal_bids",
    "legal_cards",
    "legal_for",
    "legal_moves",
    "legal_suits",
    "make_bot",
    "new_seed",
    "parse_card",
    "parse_move",
    "places",
    "public_view",
    "replay",
    "round_history",
    "round_points",
    "rounds_for",
    "seat_to_act",
    "seat_view",
    "seat_views",
    "shuffled_deck",
    "sort_hand",
    "start_game",
    "take_turn",
    "trick_winner",
    "winners",
]
