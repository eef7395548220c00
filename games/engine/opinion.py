"""A second opinion on a decision already made: what the expert would have chosen from that
seat's view, and how many points (R14) it expects that choice to gain over the one made, both
estimated on the same sampled deals (so the luck of a deal cancels)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.engine import special_search
from games.engine.cards import DECK_CODES, SUITS
from games.engine.expert import ExpertBot, Question, Search
from games.engine.knowledge import read_knowledge
from games.engine.moves import Bid, ChooseTrump, Move, Play
from games.engine.playout import CARD_INDEX
from games.engine.views import EventShown, View


@dataclass(frozen=True)
class Opinion:
    """The expert's choice and its expected gain in points over the choice made (≥ 0)."""

    best: Move
    gain: float


def second_opinion(
    view: View,
    seat: int,
    history: Sequence[EventShown] | None,
    chosen: Move,
    *,
    seed: int | str | None,
    budget_ms: float,
    samples: int | None = None,
) -> Opinion:
    """The expert's view of `chosen`, a legal move of `seat` on its turn, searched for about
    `budget_ms` (at least one deal, so a budget of 0 still answers)."""
    legal = view["legal"]
    if legal is None:
        raise ValueError("A decision is reviewed only at the seat's turn.")
    knowledge = read_knowledge(view, seat, history)
    search = Search(knowledge, ExpertBot(seed).rng_for(knowledge), budget_ms, samples)
    question: Question
    if "suits" in legal:
        assert isinstance(chosen, ChooseTrump)
        question, made = search.trump_question(), SUITS.index(chosen.suit)
    elif "bids" in legal:
        assert isinstance(chosen, Bid)
        question, made = search.bid_question(legal["bids"]), chosen.bid
    else:
        assert isinstance(chosen, Play) and "cards" in legal, "the 60 cards only (R20)"
        cards = [CARD_INDEX[code] for code in legal["cards"]]
        question, made = search.card_question(cards), CARD_INDEX[chosen.card]
    candidates, evaluate, _ = question
    candidates = candidates if made in candidates else [*candidates, made]
    if len(candidates) == 1:  # a forced move: nothing to compare
        return Opinion(best=chosen, gain=0.0)
    means = search.means(candidates, evaluate)
    best = max(range(len(candidates)), key=means.__getitem__)
    gain = means[best] - means[candidates.index(made)]
    return Opinion(best=_move(chosen, candidates[best]), gain=gain)


def special_opinion(
    seen: special_search.Seen,
    chosen: Move,
    *,
    seed: int | str | None,
    budget_ms: float,
    samples: int | None = None,
) -> Opinion:
    """The same at a table with special cards (R20): `chosen`, a legal move of `seen.seat`,
    against the moves special_search weighs, on the same sampled deals."""
    moves = special_search.candidates(seen)
    moves = moves if chosen in moves else [*moves, chosen]
    if len(moves) == 1:  # a forced move: nothing to compare
        return Opinion(best=chosen, gain=0.0)
    rng = special_search.rng_for(seen, seed)
    means = special_search.means(seen, moves, rng, budget_ms, samples)
    best = max(range(len(moves)), key=means.__getitem__)
    return Opinion(best=moves[best], gain=means[best] - means[moves.index(chosen)])


def _move(like: Move, index: int) -> Move:
    if isinstance(like, ChooseTrump):
        return ChooseTrump(SUITS[index])
    if isinstance(like, Bid):
        return Bid(index)
    return Play(DECK_CODES[index])
