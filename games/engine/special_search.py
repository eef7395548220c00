"""The expert at a table with special cards (R20–R26). The same search as the expert's, on the
engine itself: it deals the cards its seat cannot see many times, consistently with what the
seat has seen; plays each legal move out to the round's end by the rules (take_turn_in_place),
every seat following the heuristic's judgement; and keeps the move with the most points on
average (R14). It searches every decision: trump (no trump too, R23), bids, a card with what it
declares (R24, R25), the card to pass and the Cloud's change."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games.engine.cards import CARDS, DECK_CODES, JUGGLER, split_face
from games.engine.expert import CHECK_EVERY, settled
from games.engine.judgement import (
    card_to_pass,
    card_to_play,
    cloud_change,
    hand_tricks,
    nearest,
    strongest_suit,
)
from games.engine.lead import lead_suit
from games.engine.moves import NO_TRUMP, Adjust, Bid, ChooseTrump, Move, Pass
from games.engine.rules import (
    blind_step,
    decision,
    legal_bids,
    legal_cards,
    legal_moves,
    legal_suits,
    take_turn_in_place,
)
from games.engine.state import State

BID_WINDOW = 2  # bids further than this from the hand's rough worth are not searched
PLAYOUT_SEED = "playout"  # a playout ends with its round; the next deal is never looked at
DRAWS = 20  # tries to deal the hidden cards around the known voids before ignoring them


@dataclass(frozen=True, slots=True)
class Seen:
    """What one seat knows of the round in play: the public record, the hands it may see (its
    own, or the others' in the blind round, R9), its own card to pass, nothing else."""

    seat: int
    table: State  # the state with every card the seat cannot see taken out
    hidden: tuple[int, ...]  # by seat, how many cards to draw for its hand (0: a hand seen)
    passing: tuple[int, ...]  # seats whose card to pass lies face down (R24)
    pool: tuple[str, ...]  # the cards the seat has not seen: hidden hands and the undealt deck
    voids: tuple[frozenset[str], ...]  # by seat, the suits it has shown it holds none of (R12)
    holds: tuple[tuple[str, ...], ...]  # by seat, cards known in its hidden hand (R23's card)


def read_seen(state: State, seat: int) -> Seen:
    """What `seat` knows, taken from the state through the rules' screen (views.py hides the
    same): the other hands, the others' cards to pass and the undealt deck are left out."""
    players = state.players
    seen_hands = [s != seat if state.is_blind_round else s == seat for s in range(players)]
    table = state.copy()
    table.hands = [hand if seen else () for hand, seen in zip(state.hands, seen_hands, strict=True)]
    passing = tuple(s for s, card in enumerate(state.passes) if card is not None and s != seat)
    for s in passing:
        table.passes[s] = None
    played = [split_face(shown)[0] for _, shown in state.round_plays]
    known = {card for hand in table.hands for card in hand} | set(played)
    known |= {card for card in (state.turned_up, *table.passes) if card is not None}
    holds: list[tuple[str, ...]] = [() for _ in range(players)]
    taker, taken = state.werewolf, state.swapped
    # R23: the card taken was shown; it stays in the hand until played or maybe passed on.
    # In the blind round (R9) the holder does not see it among their own cards.
    if (
        taker is not None
        and taken
        and taker != seat
        and not seen_hands[taker]
        and {taken, JUGGLER}.isdisjoint(played)
    ):
        holds[taker] = (taken,)
        known.add(taken)
    deck = (*DECK_CODES, *state.special_cards)
    return Seen(
        seat=seat,
        table=table,
        hidden=tuple(
            0 if seen else len(hand) for hand, seen in zip(state.hands, seen_hands, strict=True)
        ),
        passing=passing,
        pool=tuple(card for card in deck if card not in known),
        voids=_voids(state),
        holds=tuple(holds),
    )


def _voids(state: State) -> tuple[frozenset[str], ...]:
    """A seat that played a suit card other than the lead suit holds none of it (R12); only
    the tricks after the Juggler's pass count (a card received may be of any suit)."""
    voids: list[set[str]] = [set() for _ in range(state.players)]
    plays = state.round_plays
    tricks = [plays[i : i + state.players] for i in range(0, len(plays), state.players)]
    passed = [i for i, trick in enumerate(tricks) if any(s.startswith(JUGGLER) for _, s in trick)]
    for trick in tricks[passed[-1] + 1 if passed else 0 :]:
        for at, (player, shown) in enumerate(trick):
            lead = lead_suit(face for _, face in trick[:at])
            suit = CARDS[split_face(shown)[0]].suit
            if lead is not None and suit is not None and suit != lead:
                voids[player].add(lead)
    return tuple(frozenset(suits) for suits in voids)


def sample(seen: Seen, rng: random.Random) -> State:
    """One deal of the cards `seen.seat` cannot see that fits what it has seen."""
    pool = list(seen.pool)
    drawn = None
    for attempt in range(DRAWS + 1):
        rng.shuffle(pool)
        drawn = _draw(seen, pool, mind_voids=attempt < DRAWS)
        if drawn is not None:
            break
    assert drawn is not None, "without the voids every draw fits"
    hands, rest = drawn
    state = seen.table.copy()
    for s, cards in hands.items():
        state.hands[s] = (*seen.holds[s], *cards)
    for s in seen.passing:
        state.passes[s] = rest.pop()
    return state


def _draw(
    seen: Seen, pool: list[str], *, mind_voids: bool
) -> tuple[dict[int, list[str]], list[str]] | None:
    """Each hidden hand from the front of `pool`, the seats with most voids first, and the
    cards left; None when a seat's voids leave it short."""
    order = sorted(
        (s for s, size in enumerate(seen.hidden) if size), key=lambda s: -len(seen.voids[s])
    )
    rest = pool.copy()
    hands: dict[int, list[str]] = {}
    for s in order:
        size = seen.hidden[s] - len(seen.holds[s])
        voids = seen.voids[s] if mind_voids else frozenset()
        fits = [card for card in rest if CARDS[card].suit not in voids][:size]
        if len(fits) < size:
            return None
        hands[s] = fits
        taken = set(fits)
        rest = [card for card in rest if card not in taken]
    return hands, rest


def policy_move(state: State, seat: int) -> Move:
    """The heuristic's move for `seat` in a playout, where every hand is known."""
    hand, trump = state.hands[seat], state.trump
    need = (state.bids[seat] or 0) - state.tricks_won[seat] if state.bids else 0
    match decision(state):
        case (_, "trump"):
            suited = sum(CARDS[code].suit is not None for code in hand)
            if NO_TRUMP in legal_suits(state) and suited < len(hand) / 2:
                return ChooseTrump(NO_TRUMP)
            return ChooseTrump(strongest_suit(hand))
        case (_, "bid"):
            return Bid(nearest(legal_bids(state), hand_tricks(hand, trump, state.players)))
        case (_, "pass"):
            return Pass(card_to_pass(hand, trump, need))
        case (_, "adjust"):
            can = state.tricks_won[seat] + hand_tricks(hand, trump, state.players)
            return Adjust(cloud_change(state.bids[seat] or 0, can))
    return card_to_play(legal_cards(state), state.trick, seat, trump, need)


def play_out(state: State, seat: int, first: Move | None = None) -> int:
    """Play `first` for `seat`, if given, then the round on to its score, every seat by
    policy_move; `seat`'s points in the round (R14). Changes `state`."""
    scored = len(state.scores)  # the round is scored when this grows (the game may end too)
    if first is not None:
        take_turn_in_place(state, seat, first, seed=PLAYOUT_SEED)
    while len(state.scores) == scored:
        turn = decision(state)
        if turn is None:
            state = blind_step(state, seed=PLAYOUT_SEED)[0]  # R9, paced: a card at a time
            continue
        take_turn_in_place(state, turn[0], policy_move(state, turn[0]), seed=PLAYOUT_SEED)
    return state.scores[scored]["points"][seat]


def candidates(seen: Seen) -> list[Move]:
    """The moves worth searching: every legal one, bids near the hand's rough worth only."""
    table = seen.table
    if table.to_act != seen.seat:
        raise ValueError("A bot is asked for a move only on its turn.")
    moves = legal_moves(table)
    if not moves or not isinstance(moves[0], Bid):
        return moves
    hand = table.hands[seen.seat]
    worth = hand_tricks(hand, table.trump, table.players) if hand else 0.5
    near: list[Move] = [m for m in moves if isinstance(m, Bid) and abs(m.bid - worth) <= BID_WINDOW]
    return near or moves


def means(
    seen: Seen, moves: list[Move], rng: random.Random, budget_ms: float, samples: int | None
) -> list[float]:
    """Each move's average points over the same sampled deals: at least one deal, then until
    the budget or `samples` ends, or the leader is settled."""
    deadline = time.perf_counter() + budget_ms / 1000
    totals = [0.0] * len(moves)
    rows: list[list[float]] = []
    while not rows or (
        time.perf_counter() < deadline
        and (samples is None or len(rows) < samples)
        and not (len(rows) % CHECK_EVERY == 0 and settled([(1.0, row) for row in rows], totals))
    ):
        world = sample(seen, rng)
        points = [float(play_out(world.copy(), seen.seat, move)) for move in moves]
        totals = [total + value for total, value in zip(totals, points, strict=True)]
        rows.append(points)
    return [total / len(rows) for total in totals]


def search(
    seen: Seen, *, seed: int | str | None, budget_ms: float, samples: int | None = None
) -> Move:
    """The expert's move from what its seat has seen; the same dice for the same question."""
    moves = candidates(seen)
    rng = rng_for(seen, seed)
    if len(moves) == 1 or budget_ms <= 0:
        return moves[0] if len(moves) == 1 else policy_move(sample(seen, rng), seen.seat)
    found = means(seen, moves, rng, budget_ms, samples)
    return moves[max(range(len(moves)), key=found.__getitem__)]


def rng_for(seen: Seen, seed: int | str | None) -> random.Random:
    """The dice of one decision: one stream per decision, so a replayed game asks the same
    questions of the same dice."""
    return random.Random(f"{seed}:{seen.table.round}:{seen.table.seq}:{seen.seat}")


__all__ = ["Seen", "candidates", "means", "play_out", "read_seen", "rng_for", "sample", "search"]
