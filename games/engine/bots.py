"""Bots: they see a seat's view (the same one a human player is sent) and return a Move.

A new bot is one more class with `choose(view, seat)`, registered in BOTS. A bot that also
sets `sees_history` is given the round's public events too (`choose(view, seat, history)`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from games.engine.cards import CARDS, DRAGON, FACES, FAIRY, SUITS, face
from games.engine.expert import DEFAULT_BUDGET_MS, ExpertBot
from games.engine.history import round_history
from games.engine.moves import NO_TRUMP, Adjust, Bid, ChooseTrump, Move, Pass, Play, declarations
from games.engine.rules import is_bombed, trick_winner
from games.engine.state import State
from games.engine.views import EventShown, Legal, RoundView, TrickCard, View, seat_view


class Bot(Protocol):
    kind: str

    def choose(self, view: View, seat: int) -> Move:
        """The move for `seat`, whose turn it is, from what that seat may see."""
        ...


@runtime_checkable
class HistoryBot(Protocol):
    """A bot that is also given the public events of the round (history.round_history)."""

    kind: str
    sees_history: bool

    def choose(self, view: View, seat: int, history: Sequence[EventShown] | None = None) -> Move:
        """The move for `seat` from its view and the round's events as that seat saw them."""
        ...


class RandomBot:
    """Uniform over the legal moves."""

    kind = "random"

    def __init__(self, seed: int | str | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View, seat: int) -> Move:
        legal = _legal(view)
        if "bids" in legal:
            return Bid(self._rng.choice(legal["bids"]))
        if "cards" in legal:
            code = self._rng.choice(legal["cards"])
            return Play(code, self._rng.choice(declarations(code)))
        if "passes" in legal:
            return Pass(self._rng.choice(legal["passes"]))
        if "adjust" in legal:
            return Adjust(self._rng.choice(legal["adjust"]))
        return ChooseTrump(self._rng.choice(legal["suits"]))


class HeuristicBot:
    """Bids from hand strength and trump; plays to make its bid exactly: takes tricks while it
    still needs them, sheds its cards once it has enough."""

    kind = "heuristic"

    def __init__(self, seed: int | str | None = None) -> None:
        del seed  # deterministic: nothing to seed

    def choose(self, view: View, seat: int) -> Move:
        legal = _legal(view)
        if "suits" in legal:
            hand = view["hand"] or []
            suited = sum(CARDS[code].suit is not None for code in hand)
            if NO_TRUMP in legal["suits"] and suited < len(hand) / 2:
                return ChooseTrump(NO_TRUMP)  # R23: few suit cards, so no suit helps them
            return ChooseTrump(_strongest_suit(hand))
        if "bids" in legal:
            return Bid(_nearest(legal["bids"], self._expected_tricks(view, seat)))
        if "passes" in legal:  # R24: give away what the bid does not want
            trump = _round(view)["trump"]
            by_strength = sorted(legal["passes"], key=lambda code: _strength(code, trump))
            return Pass(by_strength[0] if self._need(view, seat) > 0 else by_strength[-1])
        if "adjust" in legal:  # R24: toward what the hand can still win
            round_view = _round(view)
            bid = round_view["bids"][seat] or 0
            can = round_view["tricks_won"][seat] + self._hand_tricks(view, view["hand"] or [])
            return Adjust(-1 if can < bid and -1 in legal["adjust"] else 1)
        return self._card(view, seat, legal["cards"])

    def _need(self, view: View, seat: int) -> int:
        round_view = _round(view)
        return (round_view["bids"][seat] or 0) - round_view["tricks_won"][seat]

    def _hand_tricks(self, view: View, hand: list[str]) -> float:
        round_view = _round(view)
        crowd = 4 / len(round_view["bids"])  # more opponents, fewer tricks for a middling card
        sure = DRAGON in hand and FAIRY in hand  # no Fairy out to take the Dragon's trick (R21)
        chances = (_win_chance(code, round_view["trump"], crowd) for code in hand)
        return sum(chances) + (1 - _SPECIAL_CHANCE["dragon"] if sure else 0)

    def _expected_tricks(self, view: View, seat: int) -> float:
        trump = _round(view)["trump"]
        hand = view["hand"]
        if hand is None:  # R9 blind round: judge by how weak the visible cards are
            others = [code for cards in view["visible_hands"].values() for code in cards]
            best_other = max((_strength(code, trump) for code in others), default=0)
            return 1.0 if best_other < 9 else 0.0
        return self._hand_tricks(view, hand)

    def _card(self, view: View, seat: int, legal: list[str]) -> Play:
        """Every legal card with each thing it may be declared (R24, R25), judged as a face."""
        round_view = _round(view)
        trump = round_view["trump"]
        need = self._need(view, seat)
        trick = tuple((c["seat"], _face(c)) for c in round_view["trick"]["cards"])
        faces = {play.face: play for play in _plays(legal)}
        by_strength = sorted(faces, key=lambda shown: _strength(shown, trump))
        if not trick:  # leading: strongest card when tricks are needed, weakest otherwise
            return faces[by_strength[-1] if need > 0 else by_strength[0]]

        def takes(shown: str) -> bool:  # a bombed trick is nobody's (R22)
            after = (*trick, (seat, shown))
            return trick_winner(after, trump) == seat and not is_bombed(after)

        winning = [shown for shown in by_strength if takes(shown)]
        losing = [shown for shown in by_strength if shown not in winning]
        if need > 0:
            return faces[winning[0] if winning else by_strength[0]]
        return faces[losing[-1] if losing else by_strength[0]]


class NoviceBot(HeuristicBot):
    """The easy bot: the heuristic's judgement with a beginner's slips, seeded. A bid is now and
    then one off its hand's worth (more often too high, hoping); a card is now and then the next
    one up or down from the right one (a trick taken too high, a card kept that should go)."""

    kind = "novice"
    BID_SLIP = 0.4  # chance a bid is one off
    CARD_SLIP = 0.3  # chance a card is its neighbour in strength

    def __init__(self, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self._rng = random.Random(seed)

    def choose(self, view: View, seat: int) -> Move:
        move = super().choose(view, seat)
        legal = _legal(view)
        if isinstance(move, Bid) and "bids" in legal and self._rng.random() < self.BID_SLIP:
            slipped = move.bid + (1 if self._rng.random() < 0.6 else -1)
            return Bid(slipped) if slipped in legal["bids"] else move
        if isinstance(move, Play) and "cards" in legal and self._rng.random() < self.CARD_SLIP:
            trump = _round(view)["trump"]
            faces = {play.face: play for play in _plays(legal["cards"])}
            ranked = sorted(faces, key=lambda shown: (_strength(shown, trump), shown))
            at = ranked.index(move.face)
            neighbours = [ranked[i] for i in (at - 1, at + 1) if 0 <= i < len(ranked)]
            return faces[self._rng.choice(neighbours)] if neighbours else move
        return move


def _legal(view: View) -> Legal:
    legal = view["legal"]
    if legal is None:
        raise ValueError("A bot is asked for a move only on its turn.")
    return legal


def _round(view: View) -> RoundView:
    round_view = view["round"]
    if round_view is None:
        raise ValueError("A bot is asked for a move only once a round is dealt.")
    return round_view


def _plays(legal: list[str]) -> list[Play]:
    return [Play(code, declared) for code in legal for declared in declarations(code)]


def _face(card: TrickCard) -> str:
    return face(card["card"], card.get("suit") or card.get("as"))


# How strong a face is in a trick: the Dragon above all, a Wizard (or a Shapeshifter played as
# one), trumps, then suit cards by number; Jesters at 0, the Bomb and the Fairy below them.
_SPECIAL_STRENGTH = {"dragon": 200.0, "wizard": 100.0, "jester": 0.0, "bomb": -1.0, "fairy": -2.0}


def _strength(shown: str, trump: str | None) -> float:
    card = FACES[shown]
    if card.suit is None:
        return _SPECIAL_STRENGTH.get(card.kind, 50.0)  # an undeclared Shapeshifter: either
    return card.rank + (50 if card.suit == trump else 0)


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


def _win_chance(code: str, trump: str | None, crowd: float) -> float:
    card = CARDS[code]
    if card.suit is None:
        return _SPECIAL_CHANCE.get(card.kind, 0.0)
    if card.suit == trump:
        return min(1.0, (0.2 + 0.8 * (card.rank / 13) ** 2) * math.sqrt(crowd))
    high = max(0.0, (card.rank - 9) / 4)  # only 10…13 of a plain suit take tricks
    return min(1.0, 0.8 * high * math.sqrt(high) * crowd)


def _strongest_suit(hand: list[str]) -> str:
    def weight(suit: str) -> tuple[int, float]:
        cards = [CARDS[code] for code in hand if CARDS[code].suit == suit]
        return (len(cards), sum(card.rank for card in cards))

    return max(SUITS, key=weight)


def _nearest(options: list[int], target: float) -> int:
    return min(options, key=lambda b: (abs(b - target), b))


BOTS: dict[str, type[RandomBot] | type[HeuristicBot] | type[ExpertBot]] = {
    RandomBot.kind: RandomBot,
    NoviceBot.kind: NoviceBot,
    HeuristicBot.kind: HeuristicBot,
    ExpertBot.kind: ExpertBot,
}


def make_bot(
    kind: str,
    seed: int | str | None = None,
    *,
    budget_ms: float | None = None,
    samples: int | None = None,
) -> Bot:
    """A bot of a registered kind (`random`, `novice`, `heuristic`, `expert`); `budget_ms`
    (wall clock per decision, default 150) and `samples` (a cap on deals) matter to a search."""
    bot_class = BOTS[kind]
    if bot_class is ExpertBot:
        budget = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
        return ExpertBot(seed, budget_ms=budget, samples=samples)
    return bot_class(seed)


def bot_move(bot: Bot | HistoryBot, state: State, seat: int) -> Move:
    """Ask `bot` for seat's move from that seat's view only (and, for a bot that sees history,
    the round's events as that seat saw them). The search knows the 60 cards only: at a table
    with special cards (R20) the heuristic decides for it."""
    if state.special_cards and isinstance(bot, ExpertBot):
        bot = HeuristicBot()
    view = seat_view(state, seat)
    if isinstance(bot, HistoryBot) and bot.sees_history:
        return bot.choose(view, seat, round_history(state, seat))
    return bot.choose(view, seat)


__all__: list[str] = [
    "BOTS",
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "HistoryBot",
    "NoviceBot",
    "RandomBot",
    "bot_move",
    "make_bot",
]
