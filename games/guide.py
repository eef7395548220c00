"""The hint of a guided game: what the player to act may do and why, and what the hard bot
would do in their place, from that player's own view only (the page words it)."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from django.contrib.auth.models import User

from core.errors import NotAPlayer, NotFound
from games import engine, selectors
from games.difficulty import make_seat_bot
from games.engine.cards import CARDS
from games.models import Game

HINT_BOT = "expert"  # the hard bot

Reason = Literal[
    "wait",  # not your decision now
    "bid",  # any bid from 0 to the round's cards
    "bid_hook",  # the dealer, bidding last: one bid is forbidden (R8)
    "trump",  # a Wizard was turned up: the dealer chooses trump (R5)
    "lead",  # you lead: any card (R12)
    "follow",  # you hold the lead suit: follow it, or a Wizard or a Jester (R12)
    "cannot_follow",  # none of the lead suit: any card (R12)
    "wizard_first",  # a Wizard came first: no suit to follow, it wins (R11, R13)
    "jesters_first",  # only Jesters so far: no suit to follow yet (R11)
]


class Hint(TypedDict):
    reason: Reason
    cards: int | None  # the round's number of cards
    forbidden: int | None  # the bid the hook rule forbids
    lead_suit: str | None
    suggestion: dict[str, Any] | None  # the move the hard bot would make, as a move body


def hint(game: Game, user: User) -> Hint:
    """The hint for `user` at their guided game; NotFound at any other game."""
    if not game.guided:
        raise NotFound("Hints are given at guided games only.")
    seats = selectors.seats_of(game)
    seat = selectors.seat_of(seats, user)
    if seat is None:
        raise NotAPlayer("Hints are for the table's player.")
    state = game.engine_state()
    view = selectors.seat_view(game, seats, state, seat)
    nothing: Hint = {
        "reason": "wait",
        "cards": None,
        "forbidden": None,
        "lead_suit": None,
        "suggestion": None,
    }
    if state is None or view["to_act"] != seat or view["legal"] is None or view["round"] is None:
        return nothing
    round_view = view["round"]
    cards = round_view["cards"]
    bot = make_seat_bot(HINT_BOT, seed=f"{game.seed}:hint:{state.seq}")
    move = engine.bot_move(bot, state, seat).to_json()
    found: Hint = {**nothing, "cards": cards, "suggestion": move}
    legal = view["legal"]
    if "bids" in legal:
        missing = [bid for bid in range(cards + 1) if bid not in legal["bids"]]
        reason: Reason = "bid_hook" if missing else "bid"
        return {**found, "reason": reason, "forbidden": next(iter(missing), None)}
    if "suits" in legal:
        return {**found, "reason": "trump"}
    trick = round_view["trick"]["cards"]
    lead_suit = round_view["trick"]["lead_suit"]
    if not trick:
        return {**found, "reason": "lead"}
    if lead_suit is None:
        first_wizard = any(played["card"].startswith("W") for played in trick)
        return {**found, "reason": "wizard_first" if first_wizard else "jesters_first"}
    hand = view["hand"] or []
    holds = any(CARDS[code].suit == lead_suit for code in hand)
    return {**found, "reason": "follow" if holds else "cannot_follow", "lead_suit": lead_suit}
