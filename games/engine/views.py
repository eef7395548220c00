"""What one seat may see (and what a spectator may see): nothing a rule hides leaks out.

The hands of other seats, the undealt deck and the seed are never in a view; in the blind
first round (R9) a seat sees every hand but its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, TypedDict, final

from games.engine import events as ev
from games.engine.cards import sort_hand
from games.engine.events import Event
from games.engine.rules import decision, legal_bids, legal_cards, legal_suits
from games.engine.state import Phase, ScoreRecord, State, Trick


class TrickCard(TypedDict):
    seat: int
    card: str


class TrickView(TypedDict):
    leader: int | None
    lead_suit: str | None
    cards: list[TrickCard]


class LastTrick(TypedDict):
    winner: int
    cards: list[TrickCard]


class RoundView(TypedDict):
    number: int
    cards: int
    dealer: int
    trump_card: str | None
    trump: str | None
    phase: Phase
    bids: list[int | None]
    tricks_won: list[int]
    trick: TrickView
    last_trick: LastTrick | None


# Final, so that `"bids" in legal` tells mypy which one it is.
@final
class LegalBids(TypedDict):
    bids: list[int]


@final
class LegalCards(TypedDict):
    cards: list[str]


@final
class LegalSuits(TypedDict):
    suits: list[str]


Legal = LegalBids | LegalCards | LegalSuits


class View(TypedDict):
    """What the rules let one seat (or a spectator) see of the game."""

    round: RoundView | None
    hand: list[str] | None
    visible_hands: dict[str, list[str]]
    to_act: int | None
    legal: Legal | None
    scores: list[ScoreRecord]
    totals: list[int]
    winners: list[int] | None


class DealShown(TypedDict):
    """A deal as one caller may see it: their own hand, or in the blind first round (R9) the
    others' hands."""

    type: Literal["deal"]
    round: int
    dealer: int
    hand: list[str] | None
    visible_hands: dict[str, list[str]]


EventShown = Event | DealShown


def seat_view(state: State, seat: int | None) -> View:
    """The view of `seat`, or the public view for spectators when seat is None."""
    (view,) = seat_views(state, [seat])
    return view


def seat_views(state: State, seats: Sequence[int | None]) -> list[View]:
    """The views of these seats (None: the public one), in order. What every seat sees alike
    (the round, the scores) is built once and shared by the views: none may be changed."""
    shared: View = {
        "round": _round_view(state),
        "hand": None,
        "visible_hands": {},
        "to_act": state.to_act if not state.is_over else None,
        "legal": None,
        "scores": [_copy_record(record) for record in state.scores],
        "totals": list(state.totals),
        "winners": list(state.winners) if state.winners is not None else None,
    }
    return [_own_view(state, seat, shared) for seat in seats]


def _own_view(state: State, seat: int | None, shared: View) -> View:
    view = shared.copy()
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


def _copy_record(record: ScoreRecord) -> ScoreRecord:
    # Records are shared by every later state, so a view gets its own lists.
    return {
        "round": record["round"],
        "bids": list(record["bids"]),
        "tricks": list(record["tricks"]),
        "points": list(record["points"]),
        "totals": list(record["totals"]),
    }


def public_view(state: State) -> View:
    """What a spectator may see: no hand at all."""
    return seat_view(state, None)


def legal_for(state: State, seat: int) -> Legal | None:
    """The seat's legal decisions in the contract's shape, or None when it is not theirs."""
    match decision(state):
        case (acting, "trump") if acting == seat:
            return {"suits": legal_suits(state)}
        case (acting, "bid") if acting == seat:
            return {"bids": legal_bids(state)}
        case (acting, "play") if acting == seat:
            return {"cards": sort_hand(legal_cards(state))}
    return None


def _round_view(state: State) -> RoundView | None:
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


def _cards(trick: Trick) -> list[TrickCard]:
    return [{"seat": seat, "card": code} for seat, code in trick]


def event_view(
    event: Event, seat: int | None, *, blind_first_round: bool, reveal: bool = False
) -> EventShown:
    """An event as `seat` (None: a spectator) may see it. Only a deal hides anything: it shows
    the seat's own hand, or in the blind first round (R9) the other hands; `reveal` (a finished
    game) shows every hand."""
    if event["type"] != ev.DEAL or reveal:
        return event
    shown: DealShown = {
        "type": event["type"],
        "round": event["round"],
        "dealer": event["dealer"],
        "hand": None,
        "visible_hands": {},
    }
    if seat is None:
        return shown
    hands = event["hands"]
    if blind_first_round and event["round"] == 1:
        shown["visible_hands"] = {
            str(other): sort_hand(hand) for other, hand in enumerate(hands) if other != seat
        }
    else:
        shown["hand"] = sort_hand(hands[seat])
    return shown
