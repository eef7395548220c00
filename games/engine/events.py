"""The engine's event types: plain JSON-serialisable dicts, one small constructor per kind.

A game is the fold of its events (see state.apply); the persistence layer stores them as rows.
Each kind is a TypedDict, which is also its documented shape in the API schema.
"""

from __future__ import annotations

from typing import Final, Literal, NotRequired, TypedDict, TypeVar, get_args

from games.engine.cards import declaration_key

GAME_STARTED: Final = "game_started"
DEAL: Final = "deal"
TRUMP_TURNED: Final = "trump_turned"
TRUMP_CHOSEN: Final = "trump_chosen"
BID: Final = "bid"
PLAY: Final = "play"
TRICK_WON: Final = "trick_won"
ROUND_SCORED: Final = "round_scored"
GAME_OVER: Final = "game_over"
WEREWOLF: Final = "werewolf"
PASS: Final = "pass"
CARDS_PASSED: Final = "cards_passed"
ADJUST: Final = "adjust"

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
    "werewolf",
    "pass",
    "cards_passed",
    "adjust",
]
EVENT_TYPES: Final = get_args(EventKind)
PLAYER_DECISIONS: Final = (TRUMP_CHOSEN, BID, PLAY, PASS, ADJUST)
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
    special_cards: NotRequired[list[str]]  # R20: their codes in R20's order (absent: none)


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
    suit: str  # or "none", the Werewolf's holder's choice of no trump (R23)


class WerewolfSwapped(_Event):
    """R23: the Werewolf's holder lays it face up and takes the turned-up card (public)."""

    type: Literal["werewolf"]
    seat: int
    card: str


class BidMade(_Event):
    type: Literal["bid"]
    seat: int
    bid: int


# "as" is a keyword, hence the call syntax; `suit` names a Juggler's or Cloud's suit (R24),
# `as` a Shapeshifter's shape (R25).
CardPlayed = TypedDict(
    "CardPlayed",
    {
        "type": Literal["play"],
        "seat": int,
        "card": str,
        "suit": NotRequired[str],
        "as": NotRequired[str],
        "auto": NotRequired[bool],
    },
)


class TrickWon(_Event):
    """The trick's winner, or None for a trick holding the Bomb (R22), whose would-be winner
    `leads` the next trick."""

    type: Literal["trick_won"]
    seat: int | None
    winner: NotRequired[int | None]  # the same as `seat` (events before R22 lack it)
    leads: NotRequired[int]


class CardChosen(_Event):
    """R24: a card chosen to pass to the left; only its giver sees which until all have chosen
    (the others see null)."""

    type: Literal["pass"]
    seat: int
    card: str | None


class CardsPassed(_Event):
    """R24: every chosen card goes to the player on the left; `cards` are by giving seat (each
    seat sees only the card it gave and the one it received, the others as null)."""

    type: Literal["cards_passed"]
    cards: list[str | None]


class BidAdjusted(_Event):
    """R24: the Cloud's winner changes their bid by `delta`."""

    type: Literal["adjust"]
    seat: int
    delta: int


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
    | WerewolfSwapped
    | CardChosen
    | CardsPassed
    | BidAdjusted
)
_Decision = TypeVar("_Decision", TrumpChosen, BidMade, CardPlayed, CardChosen, BidAdjusted)


def game_started(
    *,
    players: int,
    hook_rule: bool,
    blind_first_round: bool,
    first_dealer: int,
    rounds: list[int] | None = None,
    special_cards: list[str] | None = None,
) -> GameStarted:
    """The game's start; without `rounds` the table plays every round (R2), as before R19;
    without `special_cards`, none (R20)."""
    started: GameStarted = {
        "type": GAME_STARTED,
        "players": players,
        "hook_rule": hook_rule,
        "blind_first_round": blind_first_round,
        "first_dealer": first_dealer,
    }
    if rounds is not None:
        started["rounds"] = rounds
    if special_cards:
        started["special_cards"] = special_cards
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


def play(*, seat: int, card: str, declared: str | None = None, auto: bool = False) -> CardPlayed:
    """A card played; `declared`: a Juggler's or Cloud's suit (R24), a Shapeshifter's shape
    (R25)."""
    event: CardPlayed = {"type": PLAY, "seat": seat, "card": card}
    if declared is not None:
        event[declaration_key(card)] = declared
    return _decision(event, auto)


def declared(event: CardPlayed) -> str | None:
    """What was declared on playing the card (None for a card that takes nothing)."""
    return event.get("suit") or event.get("as")


def trick_won(*, seat: int | None, leads: int | None = None) -> TrickWon:
    """The trick's winner; for a bombed trick (R22) None, and the seat that `leads` next."""
    if seat is None and leads is not None:
        return {"type": TRICK_WON, "seat": None, "winner": None, "leads": leads}
    return {"type": TRICK_WON, "seat": seat, "winner": seat}


def werewolf(*, seat: int, card: str) -> WerewolfSwapped:
    return {"type": WEREWOLF, "seat": seat, "card": card}


def card_chosen(*, seat: int, card: str, auto: bool = False) -> CardChosen:
    event: CardChosen = {"type": PASS, "seat": seat, "card": card}
    return _decision(event, auto)


def cards_passed(*, cards: list[str | None]) -> CardsPassed:
    return {"type": CARDS_PASSED, "cards": cards}


def bid_adjusted(*, seat: int, delta: int, auto: bool = False) -> BidAdjusted:
    event: BidAdjusted = {"type": ADJUST, "seat": seat, "delta": delta}
    return _decision(event, auto)


def round_scored(*, round_number: int, points: list[int]) -> RoundScored:
    return {"type": ROUND_SCORED, "round": round_number, "points": points}


def game_over(*, winners: list[int], totals: list[int]) -> GameOver:
    return {"type": GAME_OVER, "winners": winners, "totals": totals}


def _decision(event: _Decision, auto: bool) -> _Decision:
    # A decision made for the seat (R16 timer, R9 blind trick) is marked so history shows it.
    if auto:
        event["auto"] = True
    return event
