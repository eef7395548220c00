"""The heuristic's judgement of cards, on plain data: how strong a face is in a trick, how many
tricks a hand may take, and the card, pass and Cloud change a seat that plays to make its bid
exactly would choose. The heuristic bot reads these from its view; the expert's playouts at a
table with special cards (special_search.py) from each sampled deal."""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.engine.cards import CARDS, DRAGON, FACES, FAIRY, SUITS
from games.engine.moves import Play, declarations
from games.engine.rules import is_bombed, trick_winner
from games.engine.state import Trick

# How strong a face is in a trick: the Dragon above all, a Wizard (or a Shapeshifter played as
# one), trumps, then suit cards by number; Jesters at 0, the Bomb and the Fairy below them.
_SPECIAL_STRENGTH = {"dragon": 200.0, "wizard": 100.0, "jester": 0.0, "bomb": -1.0, "fairy": -2.0}

# A card's chance of a trick, when bidding: the Dragon is sure unless the Fairy is still out
# (then nearly), a Shapeshifter is whichever is needed, a Juggler or Cloud a middling card of the
# suit it will name.
_SPECIAL_CHANCE = {
    "wizard": 1.0,
    "dragon": 0.85,
    "shapeshifter": 0.6,
    "cloud": 0.45,
    "juggler": 0.3,
}


def strength(shown: str, trump: str | None) -> float:
    """How strong a face is in a trick under this trump (an undeclared Shapeshifter: either)."""
    card = FACES[shown]
    if card.suit is None:
        return _SPECIAL_STRENGTH.get(card.kind, 50.0)
    return card.rank + (50 if card.suit == trump else 0)


def win_chance(code: str, trump: str | None, crowd: float) -> float:
    """A card's chance of a trick, judged when bidding; `crowd` is 4 / players."""
    card = CARDS[code]
    if card.suit is None:
        return _SPECIAL_CHANCE.get(card.kind, 0.0)
    if card.suit == trump:
        return min(1.0, (0.2 + 0.8 * (card.rank / 13) ** 2) * math.sqrt(crowd))
    high = max(0.0, (card.rank - 9) / 4)  # only 10…13 of a plain suit take tricks
    return min(1.0, 0.8 * high * math.sqrt(high) * crowd)


def hand_tricks(hand: Sequence[str], trump: str | None, players: int) -> float:
    """The tricks a hand may take: more opponents, fewer tricks for a middling card."""
    crowd = 4 / players
    sure = DRAGON in hand and FAIRY in hand  # no Fairy out to take the Dragon's trick (R21)
    chances = sum(win_chance(code, trump, crowd) for code in hand)
    return chances + (1 - _SPECIAL_CHANCE["dragon"] if sure else 0)


def strongest_suit(hand: Sequence[str]) -> str:
    """The suit with the most cards of `hand`, then the highest numbers."""

    def weight(suit: str) -> tuple[int, float]:
        cards = [CARDS[code] for code in hand if CARDS[code].suit == suit]
        return (len(cards), sum(card.rank for card in cards))

    return max(SUITS, key=weight)


def nearest(options: list[int], target: float) -> int:
    """The option closest to `target`, the lower one of two as close."""
    return min(options, key=lambda b: (abs(b - target), b))


def plays(legal: Sequence[str]) -> list[Play]:
    """Every legal card with each thing it may be declared (R24, R25)."""
    return [Play(code, declared) for code in legal for declared in declarations(code)]


def card_to_play(
    legal: Sequence[str], trick: Trick, seat: int, trump: str | None, need: int
) -> Play:
    """Leading: the strongest face while tricks are needed, the weakest otherwise. Following:
    the weakest face that takes the trick while tricks are needed, else the strongest that
    does not (a bombed trick is nobody's, R22)."""
    faces = {play.face: play for play in plays(legal)}
    by_strength = sorted(faces, key=lambda shown: strength(shown, trump))
    if not trick:
        return faces[by_strength[-1] if need > 0 else by_strength[0]]

    def takes(shown: str) -> bool:
        after = (*trick, (seat, shown))
        return trick_winner(after, trump) == seat and not is_bombed(after)

    winning = [shown for shown in by_strength if takes(shown)]
    losing = [shown for shown in by_strength if shown not in winning]
    if need > 0:
        return faces[winning[0] if winning else by_strength[0]]
    return faces[losing[-1] if losing else by_strength[0]]


def card_to_pass(hand: Sequence[str], trump: str | None, need: int) -> str:
    """R24: give away what the bid does not want: the weakest card while tricks are needed,
    else the strongest."""
    by_strength = sorted(hand, key=lambda code: strength(code, trump))
    return by_strength[0] if need > 0 else by_strength[-1]


def cloud_change(bid: int, can_win: float) -> int:
    """R24: the Cloud's change toward what the hand can still win (−1 only from a bid of 1)."""
    return -1 if can_win < bid and bid >= 1 else 1
