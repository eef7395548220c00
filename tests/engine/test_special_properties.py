"""Properties of whole random games with special cards (R20–R26), for 3–6 players and every
subset of them: the moves offered are exactly the moves accepted, tricks add up, replays agree,
no view shows a hidden card, and R26's auto-moves are legal."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.auto import auto_move
from games.engine.cards import CARDS, DECK_CODES, SPECIAL_OPTIONS, SUITS, special_cards
from games.engine.errors import Refusal
from games.engine.events import Event
from games.engine.moves import Adjust, Bid, ChooseTrump, Move, Pass, Play
from games.engine.rules import legal_moves, start_game, take_turn
from games.engine.shuffle import deal_round
from games.engine.state import State, replay
from games.engine.views import event_view, public_view, seat_view

CODE = re.compile(r'"([A-Z]{1,2}\d{0,2})[:"]')


@dataclass(frozen=True)
class Table:
    players: int
    seed: str
    blind_first_round: bool
    specials: tuple[str, ...]
    rounds: int


tables = st.builds(
    Table,
    players=st.integers(min_value=3, max_value=6),
    seed=st.text(max_size=8).map(lambda text: f"seed:{text}"),
    blind_first_round=st.booleans(),
    specials=st.sets(st.sampled_from(sorted(SPECIAL_OPTIONS)), min_size=1).map(
        lambda names: special_cards(sorted(names))
    ),
    rounds=st.integers(min_value=1, max_value=10),
)
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)


def candidates(state: State) -> list[Move]:
    """Moves a client might send now: every one the rules allow and many they do not."""
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    other = [code for code in CARDS if code not in hand][:3]
    return [
        *(Play(code, declared) for code in (*hand, *other) for declared in (None, "red", "jester")),
        *(Play(code, suit) for code in hand for suit in SUITS),
        Play("SH", "wizard"),
        *(Bid(b) for b in range(-1, state.round + 2)),
        *(ChooseTrump(suit) for suit in (*SUITS, "none")),
        *(Pass(code) for code in (*hand, *other)),
        Adjust(1),
        Adjust(-1),
    ]


def accepted(state: State, move: Move, seed: str) -> bool:
    assert state.to_act is not None
    try:
        take_turn(state, state.to_act, move, seed=seed)
    except Refusal:
        return False
    return True


def hidden_from(state: State, seat: int | None, undealt: set[str]) -> set[str]:
    """What `seat` may not see: the undealt cards, other seats' hands (its own in the blind
    round) and cards chosen to pass by others (R24)."""
    if seat is None:
        hidden_seats: list[int] = list(range(state.players))
    elif state.blind_first_round and state.round == 1:
        hidden_seats = [seat]
    else:
        hidden_seats = [other for other in range(state.players) if other != seat]
    hidden = {code for other in hidden_seats for code in state.hands[other]}
    passing = {code for giver, code in enumerate(state.passes) if code and giver != seat}
    return undealt | hidden | passing


def codes_in(value: object) -> set[str]:
    return set(CODE.findall(json.dumps(value))) & set(CARDS)


@settings(max_examples=40, deadline=None)
@given(table=tables, choice_seed=choice_seeds)
def test_random_games_with_special_cards_keep_every_rule(table: Table, choice_seed: int) -> None:
    rng = random.Random(choice_seed)
    rounds = min(table.rounds, 60 // table.players)
    state, events = start_game(
        players=table.players,
        seed=table.seed,
        blind_first_round=table.blind_first_round,
        special_cards=table.specials,
        rounds=rounds,
    )
    undealt: set[str] = set()
    bombed = 0
    decisions = 0
    while not state.is_over:
        for event in events[-20:]:
            if event["type"] == "deal":
                hands, turned = deal_round(
                    table.seed, event["round"], table.players, event["dealer"], table.specials
                )
                dealt = {code for hand in hands for code in hand}
                undealt = {*DECK_CODES, *table.specials} - dealt - {turned}
        legal = legal_moves(state)
        assert legal and auto_move(state) in legal  # R26: auto-moves are legal
        if decisions % 7 == 0:  # exactly the offered moves are accepted
            offered = set(legal)
            for move in candidates(state):
                assert accepted(state, move, table.seed) == (move in offered), move
        for seat in [*range(table.players), None]:
            view = seat_view(state, seat)
            assert not codes_in(view) & hidden_from(state, seat, undealt), (seat, view)
        assert not codes_in(public_view(state)) & {c for hand in state.hands for c in hand}
        move = auto_move(state) if rng.random() < 0.2 else rng.choice(legal)
        assert state.to_act is not None
        state, new = take_turn(state, state.to_act, move, seed=table.seed)
        bombed += sum(e["type"] == "trick_won" and e["seat"] is None for e in new)
        events = events + new
        decisions += 1
    # Tricks won add up to the cards dealt, less the bombed tricks (R22).
    assert sum(sum(record["tricks"]) for record in state.scores) == (
        sum(state.round_numbers) - bombed
    )
    assert replay(events) == state
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state
    _passes_are_private(events, table.players)


def _passes_are_private(events: list[Event], players: int) -> None:
    """A chosen card shows to its giver only; the cards passed to giver and receiver only."""
    for event in events:
        if event["type"] == "pass":
            for seat in [*range(players), None]:
                shown = event_view(event, seat, blind_first_round=False)
                assert (shown["card"] is not None) == (seat == event["seat"])
        elif event["type"] == "cards_passed":
            for seat in [*range(players), None]:
                shown = event_view(event, seat, blind_first_round=False)
                visible = [giver for giver, code in enumerate(shown["cards"]) if code]
                expected = [] if seat is None else sorted({seat, (seat - 1) % players})
                assert visible == expected
