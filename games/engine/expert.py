"""The expert bot: it deals the cards it cannot see many times, consistently with what its seat
has seen, plays each candidate decision out on the fast path and keeps the best on average
(R14 points) — for trump choices, bids and cards alike."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Final

from games.engine.aim import assumed_bids, expected_tricks, play_out, policy_card, quick_bid
from games.engine.cards import DECK_CODES, SUITS
from games.engine.knowledge import Knowledge, read_knowledge
from games.engine.moves import Bid, ChooseTrump, Move, Play
from games.engine.playout import CARD_INDEX, SUIT, round_points
from games.engine.sampling import sample_hands
from games.engine.views import EventShown, View

DEFAULT_BUDGET_MS: Final = 150.0
BID_WINDOW: Final = 2  # bids further than this from the hand's rough worth are not searched
BID_SPREAD: Final = 1.0  # how far, in tricks, a seat's bid strays from its hand's rough worth

MIN_SAMPLES: Final = 24  # deals before the search may stop early
CHECK_EVERY: Final = 8
SETTLED_SIGMAS: Final = 4.0

Evaluate = Callable[[list[list[int]], int], float]
Question = tuple[list[int], Evaluate, int]  # candidates, their playout, the fallback


class ExpertBot:
    """Searches every decision within a wall-clock budget; sees its seat's view and the round's
    public history, nothing else. Its randomness is seeded per decision."""

    kind = "expert"
    sees_history = True

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        budget_ms: float = DEFAULT_BUDGET_MS,
        samples: int | None = None,
    ) -> None:
        self.seed = seed
        self.budget_ms = budget_ms
        self.samples = samples  # a cap on the deals sampled per decision (None: the budget's)

    def choose(self, view: View, seat: int, history: Sequence[EventShown] | None = None) -> Move:
        legal = view["legal"]
        if legal is None:
            raise ValueError("A bot is asked for a move only on its turn.")
        knowledge = read_knowledge(view, seat, history)
        search = Search(knowledge, self.rng_for(knowledge), self.budget_ms, self.samples)
        if "suits" in legal:
            return ChooseTrump(SUITS[search.trump()])
        if "bids" in legal:
            return Bid(search.bid(legal["bids"]))
        if "cards" not in legal:
            raise ValueError("At a table with special cards bots.bot_move asks special_search.")
        return Play(DECK_CODES[search.card([CARD_INDEX[code] for code in legal["cards"]])])

    def rng_for(self, knowledge: Knowledge) -> random.Random:
        """The dice of one decision, from the seed and how far the round has gone."""
        # One stream per decision, so a replayed game asks the same questions of the same dice.
        made = sum(b is not None for b in knowledge.bids)
        played = knowledge.cards * knowledge.players - sum(knowledge.sizes)
        return random.Random(f"{self.seed}:{knowledge.cards}:{made}:{played}:{knowledge.seat}")


class Search:
    """Determinized search of one decision: every candidate is played out on the same deals."""

    def __init__(
        self, knowledge: Knowledge, rng: random.Random, budget_ms: float, samples: int | None
    ) -> None:
        self.knowledge = knowledge
        self.rng = rng
        self.deadline = time.perf_counter() + budget_ms / 1000
        self.budget_ms = budget_ms
        self.samples = samples

    def trump(self) -> int:
        """R5: the suit to choose when a Wizard is turned up."""
        return self._best(*self.trump_question())

    def bid(self, legal: list[int]) -> int:
        """R7, R8: the legal bid with the most points on average."""
        return self._best(*self.bid_question(legal))

    def card(self, legal: list[int]) -> int:
        """R12: the legal card with the most points on average."""
        return self._best(*self.card_question(legal))

    def trump_question(self) -> Question:
        """The four suits, how one plays out on a deal, and the suit held most."""
        k = self.knowledge
        hand = k.hands[k.seat] or []
        fallback = max(range(4), key=lambda suit: sum(SUIT[card] == suit for card in hand))

        def evaluate(hands: list[list[int]], suit: int) -> float:
            bids = assumed_bids(hands, k.bids, k.dealer, suit, k.hook_rule, k.blind)
            won = play_out(_copy(hands), suit, bids, [0] * k.players, k.leader, [])
            return round_points(bids[k.seat], won[k.seat])

        return [0, 1, 2, 3], evaluate, fallback

    def bid_question(self, legal: list[int]) -> Question:
        """The legal bids near the hand's rough worth, how one plays out, the rough bid."""
        k = self.knowledge
        hand = k.hands[k.seat]
        worth = expected_tricks(hand, k.players, k.trump) if hand is not None else 0.5
        banned = next((b for b in range(k.cards + 1) if b not in legal), -1)
        fallback = quick_bid(worth, k.cards, banned)
        candidates = [b for b in legal if abs(b - worth) <= BID_WINDOW] or [fallback]

        def evaluate(hands: list[list[int]], bid: int) -> float:
            made = k.bids.copy()
            made[k.seat] = bid
            bids = assumed_bids(hands, made, k.dealer, k.trump, k.hook_rule, k.blind)
            won = play_out(_copy(hands), k.trump, bids, [0] * k.players, k.leader, [])
            return round_points(bid, won[k.seat])

        return candidates, evaluate, fallback

    def card_question(self, legal: list[int]) -> Question:
        """The legal cards, how one plays out on a deal, the playout policy's card."""
        k = self.knowledge
        bids = [b if b is not None else 0 for b in k.bids]
        needs = bids[k.seat] > k.won[k.seat]
        fallback = policy_card(legal, needs, k.trump, k.leader, k.trick)

        def evaluate(hands: list[list[int]], card: int) -> float:
            played = _copy(hands)
            played[k.seat].remove(card)
            won = play_out(played, k.trump, bids, k.won.copy(), k.leader, [*k.trick, card])
            return round_points(bids[k.seat], won[k.seat])

        return legal, evaluate, fallback

    def _best(self, candidates: list[int], evaluate: Evaluate, fallback: int) -> int:
        if len(candidates) == 1 or self.budget_ms <= 0:
            return candidates[0] if len(candidates) == 1 else fallback
        totals, _ = self.sample(candidates, evaluate)
        return candidates[max(range(len(candidates)), key=totals.__getitem__)]

    def means(self, candidates: list[int], evaluate: Evaluate) -> list[float]:
        """Each candidate's expected points (R14), averaged over the same sampled deals (at
        least one), weighted by how well each deal explains the bids made."""
        totals, rows = self.sample(candidates, evaluate)
        weights = sum(weight for weight, _ in rows)
        if weights > 0:
            return [total / weights for total in totals]
        return [sum(points[i] for _, points in rows) / len(rows) for i in range(len(candidates))]

    def sample(
        self, candidates: list[int], evaluate: Evaluate
    ) -> tuple[list[float], list[tuple[float, list[float]]]]:
        """Weighted point totals by candidate, and each deal's weight and points, over deals
        sampled until the budget ends or the leader is settled."""
        totals = [0.0] * len(candidates)
        rows: list[tuple[float, list[float]]] = []  # each deal's weight and points by candidate
        while not rows or (
            time.perf_counter() < self.deadline
            and (self.samples is None or len(rows) < self.samples)
            and not (len(rows) % CHECK_EVERY == 0 and settled(rows, totals))
        ):
            hands = sample_hands(self.knowledge, self.rng)
            weight = self._likelihood(hands)
            points = [evaluate(hands, candidate) for candidate in candidates]
            for index, value in enumerate(points):
                totals[index] += weight * value
            rows.append((weight, points))
        return totals, rows

    def _likelihood(self, hands: list[list[int]]) -> float:
        """How well a deal explains the bids made: a seat's bid lies near its hand's worth."""
        k = self.knowledge
        if k.blind or not k.complete:
            return 1.0
        misfit = 0.0
        for seat, bid in enumerate(k.bids):
            if bid is None or seat == k.seat:
                continue
            worth = expected_tricks(hands[seat] + k.dealt[seat], k.players, k.trump)
            misfit += (worth - bid) ** 2
        return math.exp(-misfit / (2 * BID_SPREAD**2))


def settled(rows: list[tuple[float, list[float]]], totals: list[float]) -> bool:
    """Whether the leader is ahead of the runner-up by far more than chance explains (paired
    over the same deals), or no deal tells the candidates apart: more deals would not help."""
    if len(rows) < MIN_SAMPLES:
        return False
    ranked = sorted(range(len(totals)), key=totals.__getitem__, reverse=True)
    first, second = ranked[0], ranked[1]
    weights = sum(weight for weight, _ in rows)
    if weights <= 0:
        return False
    gaps = [(weight, points[first] - points[second]) for weight, points in rows]
    mean = sum(weight * gap for weight, gap in gaps) / weights
    if all(max(points) == min(points) for _, points in rows):
        return True
    spread = math.sqrt(sum((weight * (gap - mean)) ** 2 for weight, gap in gaps)) / weights
    return mean > 0 and mean > SETTLED_SIGMAS * spread


def _copy(hands: list[list[int]]) -> list[list[int]]:
    return [hand.copy() for hand in hands]
