"""The seeded scenarios of the browser tests: each seed's table options, and the one way the
human seat decides (the page's controls in the browser, the API in tests/games), so the same
seed deals the same game each run. tests/games/test_e2e_scenarios.py checks through the API
that each seed still deals what its browser test needs; a change of the engine, the bots or
the deal that breaks a scenario fails there first, in seconds.

The human creating the table sits in seat 0; the bots are the default "heuristic" (medium),
which is deterministic."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

DECLARABLE: Final = ("JU", "CL", "SH")  # R24, R25: playing one names what it plays as
SPECIAL_CARDS: Final = ["dragon_fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter"]


def scripted_move(view: dict[str, Any]) -> dict[str, Any]:
    """The human seat's decision for a view in which it is to act, as an API move body:

    - a bid: the lowest offered; a trump: no trump when offered (R23), else the first suit;
    - a card to pass (R24): the first that is not a card to declare, else the first;
    - a Cloud's change (R24): the first offered;
    - a card: a Juggler, Cloud or Shapeshifter whenever one may be played (a Juggler or Cloud
      named as the trump, else the suit led, else red; a Shapeshifter as a Wizard), else the
      first legal card."""
    legal = view["legal"]
    if "bids" in legal:
        return {"type": "bid", "bid": legal["bids"][0]}
    if "suits" in legal:
        suits = legal["suits"]
        return {"type": "trump", "suit": "none" if "none" in suits else suits[0]}
    if "passes" in legal:
        plain = [code for code in legal["passes"] if code not in DECLARABLE]
        return {"type": "pass", "card": (plain or legal["passes"])[0]}
    if "adjust" in legal:
        return {"type": "adjust", "delta": legal["adjust"][0]}
    cards = legal["cards"]
    declarable = [code for code in cards if code in DECLARABLE]
    if not declarable:
        return {"type": "play", "card": cards[0]}
    card = declarable[0]
    if card == "SH":
        return {"type": "play", "card": card, "as": "wizard"}
    round_ = view["round"]
    suit = round_["trump"] or round_["trick"]["lead_suit"] or "red"
    return {"type": "play", "card": card, "suit": suit}


# -- the seeds, each with what it deals ------------------------------------------------------
# A decision the human meets (or a thing the table shows) in a special-cards game:
SUIT_PICKER = "suit-picker"  # their own Juggler or Cloud, played: which suit it is (R24)
SHAPE_CHOICE = "shape-choice"  # their own Shapeshifter, played: Wizard or Jester (R25)
PASS = "pass"  # a Juggler's trick with cards left: a card to pass on, then one received (R24)
CLOUD_ADJUST = "cloud-adjust"  # they won the Cloud's trick: their bid goes up or down (R24)
NO_TRUMP = "no-trump"  # they hold the Werewolf: trump may be none (R23)
BOMB = "bomb"  # a trick is won by nobody (R22)
WEREWOLF = "werewolf"  # someone swaps the Werewolf for the turned-up card (R23), round 2 or later


@dataclass(frozen=True)
class SpecialGame:
    """A solo table of four (three bots) with every special card, `rounds` rounds (R19), no
    blind first round, dealt from `seed`: the human, deciding by scripted_move, meets `meets`."""

    seed: str
    rounds: int
    meets: frozenset[str]


SPECIAL_GAMES: Final = (
    # Rounds 1-3: the human plays a Juggler or Cloud and a Shapeshifter, passes a card on after
    # a Juggler's trick, and sees tricks bombed.
    SpecialGame("special-167", 3, frozenset({SUIT_PICKER, SHAPE_CHOICE, PASS, BOMB})),
    # Rounds 1-2: the human holds the Werewolf (no trump offered), plays a Juggler or Cloud,
    # wins the Cloud's trick and changes their bid; a trick is bombed.
    SpecialGame("special-186", 2, frozenset({SUIT_PICKER, CLOUD_ADJUST, NO_TRUMP, BOMB, WEREWOLF})),
)

# The lobby's "Play against bots" table (4 seats, 3 medium bots, the blind first round): seat 3
# deals first, so the human bids first, and a bot (seat 2) wins the blind trick.
QUICK_BOTS_SEED: Final = "table-1"
# A table of three (two bots), no blind first round: seat 2 deals first, so the human's bid is
# the game's first decision and their turn limit runs from the start.
TIMER_SEED: Final = "timer-2"
# Games whose human decides through the page at random from a seeded random.Random: any deal
# will do, the seed makes it the same each run.
SOLO_SEED: Final = "solo-0"
PHONE_SEED: Final = "phone-0"
SHORT_SEED: Final = "short-0"
TWENTY_SEED: Final = "twenty-0"
