"""The engine's event types: plain JSON-serialisable dicts, one small constructor per kind.

A game is the fold of its events (see state.apply); the persistence layer stores them as rows.
Each kind is a TypedDict, which is also its documented shape in the API schema.
"""

from __future__ import annotations

from typing import Final, Literal, NotRequired, TypedDict, TypeVar, get_args

GAME_STARTED: Final = "game_started"
DEAL: Final = "deal"
TRUMP_TURNED: Final = "trump_turned"
TRUMP_CHOSEN: Final = "trump_chosen"
BID: Final = "bid"
PLAY: Final = "play"
TRICK_WON: Final = "trick_won"
ROUND_SCORED: Final = "round_scored"
GAME_OVER: Final = "game_over"

EventKind = Literal[
    "game_started",
    "deal",
    "trump_turned",
    "trump_chosen",
    "bid",
    "play",
    "trick_won",
    "round_scored",
    "game_over",
]
EVENT_TYPES: Final = get_args(EventKind)
PLAYER_DECISIONS: Final = (TRUMP_CHOSEN, BID, PLAY)
"""The events a seat causes; every other kind follows from the rules alone."""


class _Event(TypedDict):
    # Only decisions are ever marked, but readers of any event may ask (`event.get("auto")`).
    auto: NotRequired[bool]


class GameStarted(_Event):
    type: Literal["game_started"]
    players: int
    hook_rule: bool
    blind_first_round: bool
    first_dealer: int
    rounds: NotRequired[list[int]]  # R19: the rounds the table plays (older games: all, R2)


class Deal(_Event):
    """A round's hands by seat (R4); views show only what the caller may see (DealShown)."""

    type: Literal["deal"]
    round: int
    dealer: int
    hands: list[list[str]]


class TrumpTurned(_Event):
    type: Literal["trump_turned"]
    card: str | None


class TrumpChosen(_Event):
    type: Literal["trump_chosen"]
    seat: int
    suit: str


class BidMade(_Event):
    type: Literal["bid"]
    seat: int
    bid: int


class CardPlayed(_Event):
    type: Literal["play"]
    seat: int
    card: str


class TrickWon(_Event):
    type: Literal["trick_won"]
    seat: int


class RoundScored(_Event):
    type: Literal["round_scored"]
    round: int
    points: list[int]


class GameOver(_Event):
    type: Literal["game_over"]
    winners: list[int]
    totals: list[int]


Event = (
    GameStarted
    | Deal
    | TrumpTurned
    | TrumpChosen
    | BidMade
    | CardPlayed
    | TrickWon
    | RoundScored
    | GameOver
)
_Decision = TypeVar("_Decision", TrumpChosen, BidMade, CardPlayed)


def game_started(
    *,
    players: int,
    hook_rule: bool,
    blind_first_round: bool,
    first_dealer: int,
    rounds: list[int] | None = None,
) -> GameStarted:
    """The game's start; without `rounds` the table plays every round (R2), as before R19."""
    started: GameStarted = {
        "type": GAME_STARTED,
        "players": players,
        "hook_rule": hook_rule,
        "blind_first_round": blind_first_round,
        "first_dealer": first_dealer,
    }
    if rounds is not None:
        started["rounds"] = rounds
    return started


def deal(*, round_number: int, dealer: int, hands: list[list[str]]) -> Deal:
    return {"type": DEAL, "round": round_number, "dealer": dealer, "hands": hands}


def trump_turned(*, card: str | None) -> TrumpTurned:
    """The turned-up card (R5), or None when nothing is turned up in the last round (R6)."""
    return {"type": TRUMP_TURNED, "card": card}


def trump_chosen(*, seat: int, suit: str, auto: bool = False) -> TrumpChosen:
    event: TrumpChosen = {"type": TRUMP_CHOSEN, "seat": seat, "suit": suit}
    return _decision(event, auto)


def bid(*, seat: int, bid: int, auto: bool = False) -> BidMade:
    event: BidMade = {"type": BID, "seat": seat, "bid": bid}
    return _decision(event, auto)


def play(*, seat: int, card: str, auto: bool = False) -> CardPlayed:
    event: CardPlayed = {"type": PLAY, "seat": seat, "card": card}
    return _decision(event, auto)


def trick_won(*, seat: int) -> TrickWon:
    return {"type": TRICK_WON, "seat": seat}


def round_scored(*, round_number: int, points: list[int]) -> RoundScored:
    return {"type": ROUND_SCORED, "round": round_number, "points": points}


def game_over(*, winners: list[int], totals: list[int]) -> GameOver:
    return {"type": GAME_OVER, "winners": winners, "totals": totals}


def _decision(event: _Decision, auto: bool) -> _Decision:
    # A decision made for the seat (R16 timer, R9 blind trick) is marked so history shows it.
    if auto:
        event["auto"] = True
    return event
