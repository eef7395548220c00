"""The engine's event types: plain JSON-serialisable dicts, one small constructor per kind.

A game is the fold of its events (see state.apply); the persistence layer stores them as rows.
"""

from __future__ import annotations

from typing import Any, Final

Event = dict[str, Any]

GAME_STARTED: Final = "game_started"
DEAL: Final = "deal"
TRUMP_TURNED: Final = "trump_turned"
TRUMP_CHOSEN: Final = "trump_chosen"
BID: Final = "bid"
PLAY: Final = "play"
TRICK_WON: Final = "trick_won"
ROUND_SCORED: Final = "round_scored"
GAME_OVER: Final = "game_over"

EVENT_TYPES: Final = (
    GAME_STARTED,
    DEAL,
    TRUMP_TURNED,
    TRUMP_CHOSEN,
    BID,
    PLAY,
    TRICK_WON,
    ROUND_SCORED,
    GAME_OVER,
)
PLAYER_DECISIONS: Final = (TRUMP_CHOSEN, BID, PLAY)
"""The events a seat causes; every other kind follows from the rules alone."""


def game_started(
    *, players: int, hook_rule: bool, blind_first_round: bool, first_dealer: int
) -> Event:
    return {
        "type": GAME_STARTED,
        "players": players,
        "hook_rule": hook_rule,
        "blind_first_round": blind_first_round,
        "first_dealer": first_dealer,
    }


def deal(*, round_number: int, dealer: int, hands: list[list[str]]) -> Event:
    return {"type": DEAL, "round": round_number, "dealer": dealer, "hands": hands}


def trump_turned(*, card: str | None) -> Event:
    """The turned-up card (R5), or None when nothing is turned up in the last round (R6)."""
    return {"type": TRUMP_TURNED, "card": card}


def trump_chosen(*, seat: int, suit: str, auto: bool = False) -> Event:
    return _decision({"type": TRUMP_CHOSEN, "seat": seat, "suit": suit}, auto)


def bid(*, seat: int, bid: int, auto: bool = False) -> Event:
    return _decision({"type": BID, "seat": seat, "bid": bid}, auto)


def play(*, seat: int, card: str, auto: bool = False) -> Event:
    return _decision({"type": PLAY, "seat": seat, "card": card}, auto)


def trick_won(*, seat: int) -> Event:
    return {"type": TRICK_WON, "seat": seat}


def round_scored(*, round_number: int, points: list[int]) -> Event:
    return {"type": ROUND_SCORED, "round": round_number, "points": points}


def game_over(*, winners: list[int], totals: list[int]) -> Event:
    return {"type": GAME_OVER, "winners": winners, "totals": totals}


def _decision(event: Event, auto: bool) -> Event:
    # A decision made for the seat (R16 timer, R9 blind trick) is marked so history shows it.
    if auto:
        event["auto"] = True
    return event
