"""The expert bot and its fast path: it sees only its seat's view and the public history, its
sampled deals fit what it has seen, its moves are legal, and the fast path scores as the engine."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Bid,
    ChooseTrump,
    Event,
    Move,
    Play,
    State,
    View,
    bot_move,
    event_view,
    legal_moves,
    make_bot,
    replay,
    round_history,
    seat_view,
    take_turn,
)
from games.engine import events as ev
from games.engine import expert as expert_module
from games.engine.aim import blind_bid, policy_card
from games.engine.cards import CARDS, DECK_CODES
from games.engine.knowledge import read_knowledge
from games.engine.playout import CARD_INDEX, NO_SUIT, SUIT_INDEX, random_round
from games.engine.sampling import sample_hands
from games.engine.shuffle import deal_round
from games.engine.views import EventShown
from tests.engine.tables import Table, start, tables


def random_decision(table: Table, rng: random.Random, last_round: int) -> tuple[State, list[Event]]:
    """A random decision point of a random game, no later than `last_round`, and its events."""
    state, events = start(table)
    stops = rng.randrange(1, 40 * last_round)
    for _ in range(stops):
        seat = state.to_act
        assert seat is not None
        new, caused = take_turn(state, seat, rng.choice(legal_moves(state)), seed=table.seed)
        if new.is_over or new.round > last_round:
            break
        state, events = new, events + caused
    return state, events


def played_voids(state: State) -> dict[int, set[str]]:
    """R11, R12 read straight from the round's plays: who did not follow which lead suit."""
    voids: dict[int, set[str]] = {seat: set() for seat in range(state.players)}
    plays = list(state.round_plays)
    for start_index in range(0, len(plays), state.players):
        lead: str | None = None
        no_lead = False
        for seat, code in plays[start_index : start_index + state.players]:
            card = CARDS[code]
            if lead is None and not no_lead:
                if card.is_wizard:
                    no_lead = True
                elif card.suit is not None:
                    lead = card.suit
                continue
            if lead is not None and card.suit is not None and card.suit != lead:
                voids[seat].add(lead)
    return voids


def hidden_seats(state: State, seat: int) -> list[int]:
    """The hands `seat` cannot see: the others', or in the blind first round (R9) its own."""
    if state.is_blind_round:
        return [seat]
    return [other for other in range(state.players) if other != seat]


def redealt(state: State, seat: int, rng: random.Random) -> State | None:
    """The same game for `seat`'s eyes with other hidden cards: the cards it has not seen dealt
    again, hand sizes and shown voids kept (None if no such deal turned up)."""
    hidden = hidden_seats(state, seat)
    seen = {code for other, hand in enumerate(state.hands) if other not in hidden for code in hand}
    seen |= {code for _, code in state.round_plays}
    if state.turned_up is not None:
        seen.add(state.turned_up)
    pool = [code for code in DECK_CODES if code not in seen]
    voids = played_voids(state)
    for _ in range(200):
        rng.shuffle(pool)
        twin = state.copy()
        rest = pool
        for other in hidden:
            size = len(state.hands[other])
            twin.hands[other], rest = tuple(rest[:size]), rest[size:]
        if all(CARDS[c].suit not in voids[o] for o in hidden for c in twin.hands[o]):
            return twin
    return None


def strip_auto(events: Sequence[EventShown]) -> list[EventShown]:
    stripped: list[EventShown] = []
    for event in events:
        copy = dict(event)
        copy.pop("auto", None)
        stripped.append(copy)  # type: ignore[arg-type]
    return stripped


# -- the history a bot is given ---------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(table=tables, choice_seed=st.integers(0, 2**32 - 1))
def test_round_history_is_the_rounds_events_as_the_seat_sees_them(
    table: Table, choice_seed: int
) -> None:
    state, events = random_decision(table, random.Random(choice_seed), last_round=4)
    last_deal = max(i for i, event in enumerate(events) if event["type"] == "deal")
    this_round = [events[0], *events[last_deal:]]
    for seat in range(table.players):
        shown = [
            event_view(event, seat, blind_first_round=table.blind_first_round)
            for event in this_round
        ]
        assert round_history(state, seat) == strip_auto(shown)
        assert all("hands" not in event for event in round_history(state, seat))


class HistoryRecorder:
    kind = "recorder"
    sees_history = True

    def __init__(self) -> None:
        self.histories: list[list[EventShown]] = []

    def choose(self, view: View, seat: int, history: Sequence[EventShown] | None = None) -> Move:
        self.histories.append(list(history or []))
        legal = view["legal"]
        assert legal is not None and "bids" in legal
        return Bid(legal["bids"][0])


def test_bot_move_gives_a_bot_that_sees_history_the_seats_round_history() -> None:
    table = Table(players=4, seed="history", hook_rule=True, blind_first_round=False)
    state, _ = start(table)
    bot = HistoryRecorder()
    seat = state.to_act
    assert seat is not None
    bot_move(bot, state, seat)
    assert bot.histories == [round_history(state, seat)]


# -- sampled deals ----------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(table=tables, choice_seed=st.integers(0, 2**32 - 1))
def test_sampled_deals_fit_everything_the_seat_has_seen(table: Table, choice_seed: int) -> None:
    rng = random.Random(choice_seed)
    state, _ = random_decision(table, rng, last_round=60 // table.players)
    seat = state.to_act
    assert seat is not None
    knowledge = read_knowledge(seat_view(state, seat), seat, round_history(state, seat))
    hidden = hidden_seats(state, seat)
    voids = played_voids(state)
    gone = {code for _, code in state.round_plays}
    if state.turned_up is not None:
        gone.add(state.turned_up)
    for _ in range(5):
        hands = [[DECK_CODES[c] for c in hand] for hand in sample_hands(knowledge, rng)]
        dealt = [code for hand in hands for code in hand]
        assert len(dealt) == len(set(dealt))  # each card once
        for other, hand in enumerate(hands):
            assert len(hand) == len(state.hands[other])  # hand sizes
            if other not in hidden:  # its own hand, or the visible hands of R9
                assert sorted(hand) == sorted(state.hands[other])
            assert not gone & set(hand)  # neither played nor turned up
            assert not {CARDS[code].suit for code in hand} & voids[other]  # R12 voids


def test_a_seat_that_did_not_follow_is_dealt_none_of_the_lead_suit() -> None:
    table = Table(players=4, seed="voids", hook_rule=True, blind_first_round=False)
    rng = random.Random(7)
    for _ in range(300):
        state, _ = random_decision(table, rng, last_round=15)
        seat = state.to_act
        assert seat is not None
        void_seats = {o: s for o, s in played_voids(state).items() if s and o != seat}
        if not void_seats:
            continue
        knowledge = read_knowledge(seat_view(state, seat), seat, round_history(state, seat))
        for other, suits in void_seats.items():
            assert knowledge.voids[other] == sum(1 << SUIT_INDEX[suit] for suit in suits)
        return
    pytest.fail("no game showed a void")


# -- no hidden information --------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(table=tables, choice_seed=st.integers(0, 2**32 - 1))
def test_the_expert_decides_the_same_whatever_the_hidden_cards(
    table: Table, choice_seed: int
) -> None:
    rng = random.Random(choice_seed)
    state, _ = random_decision(table, rng, last_round=6)
    seat = state.to_act
    assert seat is not None
    twin = redealt(state, seat, rng)
    if twin is None:
        return
    assert seat_view(twin, seat) == seat_view(state, seat)
    assert round_history(twin, seat) == round_history(state, seat)
    real = bot_move(make_bot("expert", "hidden", budget_ms=60_000, samples=6), state, seat)
    other = bot_move(make_bot("expert", "hidden", budget_ms=60_000, samples=6), twin, seat)
    assert real == other


def test_the_expert_repeats_its_decision_with_the_same_seed() -> None:
    table = Table(players=5, seed="again", hook_rule=True, blind_first_round=True)
    rng = random.Random(3)
    for _ in range(10):
        state, _ = random_decision(table, rng, last_round=8)
        seat = state.to_act
        assert seat is not None
        moves = {
            bot_move(make_bot("expert", "same", budget_ms=60_000, samples=8), state, seat)
            for _ in range(2)
        }
        assert len(moves) == 1


# -- legal moves ------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None)
@given(table=tables)
def test_the_expert_only_makes_legal_moves(table: Table) -> None:
    """Every seat an expert for the first rounds: each move legal (R5, R7, R8, R12)."""
    bots = [make_bot("expert", f"legal-{s}", budget_ms=60_000, samples=2) for s in range(6)]
    state, _ = start(table)
    while not state.is_over and state.round <= 3:
        seat = state.to_act
        assert seat is not None
        move = bot_move(bots[seat], state, seat)
        assert move in legal_moves(state)
        state, _ = take_turn(state, seat, move, seed=table.seed)


def test_the_expert_chooses_a_trump_suit_when_a_wizard_is_turned_up() -> None:
    """R5: after a turned-up Wizard the dealer chooses one of the four suits."""
    for number in range(200):
        seed = f"wizard-{number}"
        state, _ = start(Table(4, seed, hook_rule=True, blind_first_round=False))
        if state.phase == "choosing_trump":
            move = bot_move(make_bot("expert", "trump", samples=4), state, state.dealer)
            assert isinstance(move, ChooseTrump) and move in legal_moves(state)
            return
    pytest.fail("no Wizard turned up")


def test_the_expert_plays_the_last_round_legally() -> None:
    """R6: the whole deck dealt, nothing turned up, no trump."""
    table = Table(players=6, seed="last", hook_rule=True, blind_first_round=True)
    state, _ = start(table)
    rng = random.Random(1)
    while state.round < 10:
        state, _ = take_turn(state, state.to_act or 0, rng.choice(legal_moves(state)), seed="last")
    bot = make_bot("expert", "last", budget_ms=60_000, samples=2)
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        move = bot_move(bot, state, seat)
        assert move in legal_moves(state)
        state, _ = take_turn(state, seat, move, seed="last")


def test_a_budget_of_zero_returns_a_legal_move_without_searching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_sampling(*args: object) -> list[list[int]]:
        raise AssertionError("a budget of 0 searches nothing")

    monkeypatch.setattr(expert_module, "sample_hands", no_sampling)
    table = Table(players=4, seed="zero", hook_rule=True, blind_first_round=True)
    rng = random.Random(5)
    for _ in range(30):
        state, _ = random_decision(table, rng, last_round=15)
        seat = state.to_act
        assert seat is not None
        move = bot_move(make_bot("expert", "zero", budget_ms=0), state, seat)
        assert move in legal_moves(state)


# -- the fast path ----------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=6),
    seed=st.text(max_size=8),
    data=st.data(),
    hook_rule=st.booleans(),
)
def test_the_fast_path_scores_a_round_as_the_engine(
    players: int, seed: str, data: st.DataObject, hook_rule: bool
) -> None:
    """Same deal and same moves → same points (R8, R10–R14)."""
    cards = data.draw(st.integers(min_value=1, max_value=60 // players))
    dealer = data.draw(st.integers(min_value=0, max_value=players - 1))
    hands, turned_up = deal_round(seed, cards, players, dealer)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    chosen_trump = rng.choice(("red", "green", "blue", "yellow"))
    trump = CARDS[turned_up].suit if turned_up is not None else None
    if turned_up is not None and CARDS[turned_up].is_wizard:
        trump = chosen_trump
    log: list[int] = []
    fast_points = random_round(
        [[CARD_INDEX[code] for code in hand] for hand in hands],
        SUIT_INDEX[trump] if trump is not None else 4,
        dealer,
        hook_rule,
        rng.random,
        log,
    )
    opening: list[Event] = [
        ev.game_started(
            players=players, hook_rule=hook_rule, blind_first_round=False, first_dealer=dealer
        ),
        ev.deal(round_number=cards, dealer=dealer, hands=hands),
        ev.trump_turned(card=turned_up),
    ]
    state = replay(opening)
    moves: list[Move] = []
    if state.phase == "choosing_trump":
        moves.append(ChooseTrump(chosen_trump))
    moves += [Bid(b) for b in log[:players]]
    moves += [Play(DECK_CODES[c]) for c in log[players:]]
    scored: list[Event] = []
    for move in moves:
        state, caused = take_turn(state, state.to_act or 0, move, seed=seed)
        scored += [e for e in caused if e["type"] == "round_scored"]
    assert [e["points"] for e in scored] == [fast_points]  # type: ignore[typeddict-item]


@pytest.mark.parametrize("trump", [*range(4), NO_SUIT])
def test_a_jester_is_the_playout_policys_weakest_card_whatever_the_trump(trump: int) -> None:
    """R5, R13: a Jester never takes a trick, in a round with no trump as in any other; the
    policy neither leads it for a trick nor sheds it before a losing card, nor fears it (R9)."""
    jester, thirteen, low = CARD_INDEX["J1"], CARD_INDEX["R13"], CARD_INDEX["G2"]
    assert policy_card([jester, thirteen], True, trump, 0, []) == thirteen  # leads for a trick
    assert policy_card([jester, low], False, trump, 0, []) == jester  # leads to lose it
    # Following a Wizard nothing wins: the strongest losing card goes, the Jester is kept.
    assert policy_card([jester, thirteen], False, trump, 0, [CARD_INDEX["W1"]]) == thirteen
    assert blind_bid([jester], trump) == 1  # R9: a Jester shown elsewhere takes nothing
