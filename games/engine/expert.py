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

Evaluate = Callable[[list[list[int]], int], float]


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
        self._seed = seed
        self.budget_ms = budget_ms
        self.samples = samples  # a cap on the deals sampled per decision (None: the budget's)

    def choose(self, view: View, seat: int, history: Sequence[EventShown] | None = None) -> Move:
        legal = view["legal"]
        if legal is None:
            raise ValueError("A bot is asked for a move only on its turn.")
        knowledge = read_knowledge(view, seat, history)
        search = _Search(knowledge, self._rng(knowledge), self.budget_ms, self.samples)
        if "suits" in legal:
            return ChooseTrump(SUITS[search.trump()])
        if "bids" in legal:
            return Bid(search.bid(legal["bids"]))
        return Play(DECK_CODES[search.card([CARD_INDEX[code] for code in legal["cards"]])])

    def _rng(self, knowledge: Knowledge) -> random.Random:
        # One stream per decision, so a replayed game asks the same questions of the same dice.
        made = sum(b is not None for b in knowledge.bids)
        played = knowledge.cards * knowledge.players - sum(knowledge.sizes)
        return random.Random(f"{self._seed}:{knowledge.cards}:{made}:{played}:{knowledge.seat}")


class _Search:
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
        k = self.knowledge
        hand = k.hands[k.seat] or []
        fallback = max(range(4), key=lambda suit: sum(SUIT[card] == suit for card in hand))

        def evaluate(hands: list[list[int]], suit: int) -> float:
            bids = assumed_bids(hands, k.bids, k.dealer, suit, k.hook_rule, k.blind)
            won = play_out(_copy(hands), suit, bids, [0] * k.players, _first_leader(k), [])
            return round_points(bids[k.seat], won[k.seat])

        return self._best([0, 1, 2, 3], evaluate, fallback)

    def bid(self, legal: list[int]) -> int:
        """R7, R8: the legal bid with the most points on average."""
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
            won = play_out(_copy(hands), k.trump, bids, [0] * k.players, _first_leader(k), [])
            return round_points(bid, won[k.seat])

        return self._best(candidates, evaluate, fallback)

    def card(self, legal: list[int]) -> int:
        """R12: the legal card with the most points on average."""
        k = self.knowledge
        bids = [b if b is not None else 0 for b in k.bids]
        needs = bids[k.seat] > k.won[k.seat]
        fallback = policy_card(legal, needs, k.trump, k.leader, k.trick)

        def evaluate(hands: list[list[int]], card: int) -> float:
            played = _copy(hands)
            played[k.seat].remove(card)
            won = play_out(played, k.trump, bids, k.won.copy(), k.leader, [*k.trick, card])
            return round_points(bids[k.seat], won[k.seat])

        return self._best(legal, evaluate, fallback)

    def _best(self, candidates: list[int], evaluate: Evaluate, fallback: int) -> int:
        if len(candidates) == 1 or self.budget_ms <= 0:
            return candidates[0] if len(candidates) == 1 else fallback
        totals = [0.0] * len(candidates)
        sampled = 0
        while sampled == 0 or (
            time.perf_counter() < self.deadline and (self.samples is None or sampled < self.samples)
        ):
            hands = sample_hands(self.knowledge, self.rng)
            weight = self._likelihood(hands)
            for index, candidate in enumerate(candidates):
                totals[index] += weight * evaluate(hands, candidate)
            sampled += 1
        return candidates[max(range(len(candidates)), key=totals.__getitem__)]

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


def _copy(hands: list[list[int]]) -> list[list[int]]:
    return [hand.copy() for hand in hands]


def _first_leader(knowledge: Knowledge) -> int:
    return (knowledge.dealer + 1) % knowledge.players  # R10
