"""What one seat may see (and what a spectator may see): nothing a rule hides leaks out.

The hands of other seats, the undealt deck and the seed are never in a view; in the blind
first round (R9) a seat sees every hand but its own.
"""

from __future__ import annotations

from typing import Any

from games.engine import events as ev
from games.engine.cards import sort_hand
from games.engine.events import Event
from games.engine.rules import decision, legal_bids, legal_cards, legal_suits
from games.engine.state import State, Trick

View = dict[str, Any]


def seat_view(state: State, seat: int | None) -> View:
    """The view of `seat`, or the public view for spectators when seat is None."""
    view: View = {
        "round": _round_view(state),
        "hand": None,
        "visible_hands": {},
        "to_act": state.to_act if not state.is_over else None,
        "legal": None,
        "scores": [_copy_record(record) for record in state.scores],
        "totals": list(state.totals),
        "winners": list(state.winners) if state.winners is not None else None,
    }
    if seat is None or state.round == 0:
        return view
    if state.is_blind_round:  # R9
        view["visible_hands"] = {
            str(other): sort_hand(hand) for other, hand in enumerate(state.hands) if other != seat
        }
    else:
        view["hand"] = sort_hand(state.hands[seat])
    view["legal"] = legal_for(state, seat)
    return view


def _copy_record(record: dict[str, Any]) -> dict[str, Any]:
    # Records are shared by every later state, so a view gets its own lists.
    return {key: list(value) if isinstance(value, list) else value for key, value in record.items()}


def public_view(state: State) -> View:
    """What a spectator may see: no hand at all."""
    return seat_view(state, None)


def legal_for(state: State, seat: int) -> dict[str, list[Any]] | None:
    """The seat's legal decisions in the contract's shape, or None when it is not theirs."""
    match decision(state):
        case (acting, "trump") if acting == seat:
            return {"suits": legal_suits(state)}
        case (acting, "bid") if acting == seat:
            return {"bids": legal_bids(state)}
        case (acting, "play") if acting == seat:
            return {"cards": sort_hand(legal_cards(state))}
    return None


def _round_view(state: State) -> dict[str, Any] | None:
    if state.round == 0:
        return None
    return {
        "number": state.round,
        "cards": state.round,
        "dealer": state.dealer,
        "trump_card": state.turned_up,
        "trump": state.trump,
        "phase": state.phase,
        "bids": list(state.bids),
        "tricks_won": list(state.tricks_won),
        "trick": {
            "leader": state.leader if state.phase == "playing" else None,
            "lead_suit": state.lead_suit,
            "cards": _cards(state.trick),
        },
        "last_trick": (
            {"winner": state.last_trick[0], "cards": _cards(state.last_trick[1])}
            if state.last_trick is not None
            else None
        ),
    }


def _cards(trick: Trick) -> list[dict[str, Any]]:
    return [{"seat": seat, "card": code} for seat, code in trick]


def event_view(
    event: Event, seat: int | None, *, blind_first_round: bool, reveal: bool = False
) -> Event:
    """An event as `seat` (None: a spectator) may see it. Only a deal hides anything: it shows
    the seat's own hand, or in the blind first round (R9) the other hands; `reveal` (a finished
    game) shows every hand."""
    if event["type"] != ev.DEAL or reveal:
        return event
    hands = event["hands"]
    shown = {key: value for key, value in event.items() if key != "hands"}
    shown["hand"] = None
    shown["visible_hands"] = {}
    if seat is None:
        return shown
    if blind_first_round and event["round"] == 1:
        shown["visible_hands"] = {
            str(other): sort_hand(hand) for other, hand in enumerate(hands) if other != seat
        }
    else:
        shown["hand"] = sort_hand(hands[seat])
    return shown
