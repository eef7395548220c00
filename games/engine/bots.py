"""Bots: they see a seat's view (the same one a human player is sent) and return a Move.

A new bot is one more class with `choose(view, seat)`, registered in BOTS. A bot that also
sets `sees_history` is given the round's public events too (`choose(view, seat, history)`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from games.engine import special_search
from games.engine.cards import CARDS, face
from games.engine.expert import DEFAULT_BUDGET_MS, ExpertBot
from games.engine.history import round_history
from games.engine.judgement import (
    card_to_pass,
    card_to_play,
    cloud_change,
    hand_tricks,
    nearest,
    plays,
    strength,
    strongest_suit,
)
from games.engine.moves import NO_TRUMP, Adjust, Bid, ChooseTrump, Move, Pass, Play, declarations
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
    still needs them, sheds its cards once it has enough (judgement.py)."""

    kind = "heuristic"

    def __init__(self, seed: int | str | None = None) -> None:
        del seed  # deterministic: nothing to seed

    def choose(self, view: View, seat: int) -> Move:
        legal = _legal(view)
        round_view = _round(view)
        trump = round_view["trump"]
        if "suits" in legal:
            hand = view["hand"] or []
            suited = sum(CARDS[code].suit is not None for code in hand)
            if NO_TRUMP in legal["suits"] and suited < len(hand) / 2:
                return ChooseTrump(NO_TRUMP)  # R23: few suit cards, so no suit helps them
            return ChooseTrump(strongest_suit(hand))
        if "bids" in legal:
            return Bid(nearest(legal["bids"], self._expected_tricks(view)))
        need = (round_view["bids"][seat] or 0) - round_view["tricks_won"][seat]
        if "passes" in legal:
            return Pass(card_to_pass(legal["passes"], trump, need))
        if "adjust" in legal:
            players = len(round_view["bids"])
            can = round_view["tricks_won"][seat] + hand_tricks(view["hand"] or [], trump, players)
            return Adjust(cloud_change(round_view["bids"][seat] or 0, can))
        trick = tuple((c["seat"], _face(c)) for c in round_view["trick"]["cards"])
        return card_to_play(legal["cards"], trick, seat, trump, need)

    def _expected_tricks(self, view: View) -> float:
        round_view = _round(view)
        trump = round_view["trump"]
        hand = view["hand"]
        if hand is None:  # R9 blind round: judge by how weak the visible cards are
            others = [code for cards in view["visible_hands"].values() for code in cards]
            best_other = max((strength(code, trump) for code in others), default=0)
            return 1.0 if best_other < 9 else 0.0
        return hand_tricks(hand, trump, len(round_view["bids"]))


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
            faces = {play.face: play for play in plays(legal["cards"])}
            ranked = sorted(faces, key=lambda shown: (strength(shown, trump), shown))
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


def _face(card: TrickCard) -> str:
    return face(card["card"], card.get("suit") or card.get("as"))


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
    the round's events as that seat saw them). At a table with special cards (R20) the expert
    searches from what its seat has seen, read through special_search.read_seen."""
    if state.special_cards and isinstance(bot, ExpertBot):  # R20: the search on the engine
        seen = special_search.read_seen(state, seat)
        return special_search.search(
            seen, seed=bot.seed, budget_ms=bot.budget_ms, samples=bot.samples
        )
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
