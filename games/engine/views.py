"""What one seat may see (and what a spectator may see): nothing a rule hides leaks out.

The hands of other seats, the undealt deck and the seed are never in a view; in the blind
first round (R9) a seat sees every hand but its own. A card chosen to pass (R24) is seen by its
giver alone until the cards change hands, then by its giver and its receiver.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NotRequired, TypedDict, final

from games.engine import events as ev
from games.engine.cards import declaration_key, sort_hand, split_face
from games.engine.events import Event
from games.engine.rules import decision, legal_adjustments, legal_bids, legal_cards, legal_suits
from games.engine.state import Phase, ScoreRecord, State, Trick

# "as" is a keyword, hence the call syntax: a named Juggler or Cloud shows its `suit` (R24),
# a Shapeshifter what it was played `as` (R25).
TrickCard = TypedDict(
    "TrickCard",
    {"seat": int, "card": str, "suit": NotRequired[str], "as": NotRequired[str]},
)


class TrickView(TypedDict):
    leader: int | None
    lead_suit: str | None
    cards: list[TrickCard]


class LastTrick(TypedDict):
    winner: int | None  # None: a trick holding the Bomb (R22)
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
    werewolf: int | None  # R23: the seat that swapped the Werewolf, or None


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


@final
class LegalPasses(TypedDict):
    passes: list[str]


@final
class LegalAdjustments(TypedDict):
    adjust: list[int]


Legal = LegalBids | LegalCards | LegalSuits | LegalPasses | LegalAdjustments


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
        case (acting, "pass") if acting == seat:
            return {"passes": sort_hand(state.hands[seat])}
        case (acting, "adjust") if acting == seat:
            return {"adjust": legal_adjustments(state)}
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
        "werewolf": state.werewolf,
    }


def _cards(trick: Trick) -> list[TrickCard]:
    return [trick_card(seat, shown) for seat, shown in trick]


def trick_card(seat: int, shown: str) -> TrickCard:
    """A card of a trick as the contract shows it: with its named `suit` or its `as`."""
    code, declared = split_face(shown)
    card: TrickCard = {"seat": seat, "card": code}
    if declared is not None:
        card[declaration_key(code)] = declared
    return card


def event_view(
    event: Event, seat: int | None, *, blind_first_round: bool, reveal: bool = False
) -> EventShown:
    """An event as `seat` (None: a spectator) may see it. A deal shows the seat's own hand, or
    in the blind first round (R9) the other hands; a pass (R24) shows its card to its giver,
    and the cards passed to giver and receiver; `reveal` (a finished game) shows everything."""
    if reveal:
        return event
    if event["type"] == ev.PASS:
        if event["seat"] == seat:
            return event
        return {"type": event["type"], "seat": event["seat"], "card": None}
    if event["type"] == ev.CARDS_PASSED:
        given = event["cards"]
        return {
            "type": event["type"],
            "cards": [
                code if seat is not None and giver in (seat, (seat - 1) % len(given)) else None
                for giver, code in enumerate(given)
            ],
        }
    if event["type"] != ev.DEAL:
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
