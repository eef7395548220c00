"""One focused test per rule of games/rules/en.md (R1–R16), built from hand-written deals.

States are folded from hand-written events with `replay`, then driven with `take_turn`.
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from typing import Any

import pytest

from games import engine
from games.engine import events as ev
from games.engine import rules
from games.engine.auto import auto_move
from games.engine.cards import DECK, DECK_CODES, SUITS, format_card, parse_card
from games.engine.errors import Refusal
from games.engine.events import Event
from games.engine.moves import Bid, ChooseTrump, Move, Play, parse_move
from games.engine.shuffle import commitment, deal_round, first_dealer
from games.engine.state import BIDDING, CHOOSING_TRUMP, DONE, PLAYING, State, replay, rounds_for
from games.engine.views import seat_view

SEED = "rules-test-seed"


# -- builders ---------------------------------------------------------------------------------
def dealt(
    hands: list[list[str]],
    *,
    turned: str | None,
    dealer: int = 0,
    bids: tuple[int, ...] = (),
    hook_rule: bool = True,
    blind_first_round: bool = False,
) -> State:
    """A table of len(hands) seats in round k = len(hands[0]), after the deal and the turned-up
    card; `bids` are replayed in bidding order, starting left of the dealer."""
    players = len(hands)
    history: list[Event] = [
        ev.game_started(
            players=players,
            hook_rule=hook_rule,
            blind_first_round=blind_first_round,
            first_dealer=dealer,
        ),
        ev.deal(round_number=len(hands[0]), dealer=dealer, hands=hands),
        ev.trump_turned(card=turned),
    ]
    seat = (dealer + 1) % players
    for value in bids:
        history.append(ev.bid(seat=seat, bid=value))
        seat = (seat + 1) % players
    return replay(history)


def with_fillers(hand: list[str], *, seat: int, players: int, exclude: tuple[str, ...]) -> list:
    """Hands for every seat: `hand` at `seat`, the others filled with unused cards."""
    spare = iter(code for code in DECK_CODES if code not in hand and code not in exclude)
    return [
        list(hand) if other == seat else [next(spare) for _ in hand] for other in range(players)
    ]


def act(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    return rules.take_turn(state, seat, move, seed=SEED)


def plays(state: State, *moves: tuple[int, str]) -> tuple[State, list[Event]]:
    """Play (seat, card) pairs in order; returns the last state and all events caused."""
    caused: list[Event] = []
    for seat, code in moves:
        state, new = act(state, seat, Play(code))
        caused += new
    return state, caused


def frozen(state: State) -> dict[str, Any]:
    """A deep copy of every field, so an in-place change to a list would still show up."""
    return copy.deepcopy(state.snapshot())


def refused(state: State, seat: int, move: Move) -> str:
    """The error code of a refused move, after checking that the state is unchanged."""
    before = frozen(state)
    with pytest.raises(Refusal) as caught:
        act(state, seat, move)
    assert frozen(state) == before
    return caught.value.code


def play_game(players: int, seed: str, **options: Any) -> tuple[State, list[Event]]:
    """A whole game from `start_game`, every decision made by the R16 auto-move."""
    state, history = rules.start_game(players=players, seed=seed, **options)
    for _ in range(10_000):
        if state.is_over:
            return state, history
        turn = rules.decision(state)
        assert turn is not None, f"nobody can act in a running game: {state!r}"
        state, new = rules.take_turn(state, turn[0], auto_move(state), seed=seed, auto=True)
        history += new
    raise AssertionError("the game did not end")


def of_type(history: list[Event], kind: str) -> list[Event]:
    return [event for event in history if event["type"] == kind]


@pytest.fixture(scope="module")
def three_player_game() -> tuple[State, list[Event]]:
    return play_game(3, SEED)


# -- R1 deck and card codes -------------------------------------------------------------------
def test_r1_every_card_code_round_trips() -> None:
    for code in DECK_CODES:
        card = parse_card(code)
        assert card.code == code
        assert format_card(card) == code


def test_r1_deck_has_sixty_unique_cards_four_wizards_four_jesters() -> None:
    assert len(DECK) == 60
    assert len(set(DECK_CODES)) == 60
    assert sorted(c.code for c in DECK if c.is_wizard) == ["W1", "W2", "W3", "W4"]
    assert sorted(c.code for c in DECK if c.is_jester) == ["J1", "J2", "J3", "J4"]
    per_suit = Counter(c.suit for c in DECK if c.suit is not None)
    assert per_suit == {suit: 13 for suit in ("red", "green", "blue", "yellow")}
    for letter in "RGBY":
        assert {f"{letter}{n}" for n in range(1, 14)} <= set(DECK_CODES)
    assert parse_card("G13").suit == "green"
    assert parse_card("G13").rank == 13
    assert parse_card("W1").suit is None
    assert parse_card("J1").suit is None


@pytest.mark.parametrize("code", ["R0", "R14", "W5", "J0", "X1", "r5", "W", "", " R5", None, 5])
def test_r1_unknown_card_code_is_illegal_card(code: object) -> None:
    with pytest.raises(Refusal) as caught:
        parse_card(code)
    assert caught.value.code == "illegal_card"


# -- R2 rounds --------------------------------------------------------------------------------
@pytest.mark.parametrize(("players", "rounds"), [(3, 20), (4, 15), (5, 12), (6, 10)])
def test_r2_rounds_per_player_count(players: int, rounds: int) -> None:
    assert rounds_for(players) == rounds
    state, _ = rules.start_game(players=players, seed=SEED)
    assert state.round_numbers == tuple(range(1, rounds + 1))


@pytest.mark.parametrize("players", [2, 7])
def test_r2_three_to_six_players(players: int) -> None:
    with pytest.raises(Refusal) as caught:
        rules.start_game(players=players, seed=SEED)
    assert caught.value.code == "invalid"


def test_r2_a_game_plays_exactly_its_rounds(three_player_game: tuple[State, list[Event]]) -> None:
    state, history = three_player_game
    assert [deal["round"] for deal in of_type(history, ev.DEAL)] == list(range(1, 21))
    assert len(state.scores) == 20
    assert history[-1]["type"] == ev.GAME_OVER


# -- R3 dealer --------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r3_first_dealer_from_seed_is_deterministic_and_in_range(players: int) -> None:
    seeds = [f"seed-{i}" for i in range(40)]
    dealers = [first_dealer(seed, players) for seed in seeds]
    assert dealers == [first_dealer(seed, players) for seed in seeds]
    assert all(0 <= dealer < players for dealer in dealers)
    assert len(set(dealers)) > 1, "the seed must actually choose the dealer"
    state, opening = rules.start_game(players=players, seed=seeds[0])
    assert opening[0]["first_dealer"] == dealers[0]
    assert state.dealer == dealers[0]
    assert of_type(opening, ev.DEAL)[0]["dealer"] == dealers[0]


def test_r3_dealer_moves_left_each_round(three_player_game: tuple[State, list[Event]]) -> None:
    _, history = three_player_game
    first = history[0]["first_dealer"]
    assert [deal["dealer"] for deal in of_type(history, ev.DEAL)] == [
        (first + k) % 3 for k in range(20)
    ]


# -- R4 dealing -------------------------------------------------------------------------------
def test_r4_round_k_deals_k_cards_to_each(three_player_game: tuple[State, list[Event]]) -> None:
    _, history = three_player_game
    for index, event in enumerate(history):
        if event["type"] != ev.DEAL:
            continue
        k = event["round"]
        assert [len(hand) for hand in event["hands"]] == [k, k, k]
        dealt_cards = [code for hand in event["hands"] for code in hand]
        assert len(set(dealt_cards)) == len(dealt_cards)
        assert set(dealt_cards) <= set(DECK_CODES)
        turned = history[index + 1]
        assert turned["type"] == ev.TRUMP_TURNED
        assert turned["card"] not in dealt_cards


def test_r4_same_seed_gives_identical_game_and_other_seed_differs() -> None:
    state_a, history_a = play_game(6, "same-seed")
    state_b, history_b = play_game(6, "same-seed")
    _, history_c = play_game(6, "other-seed")
    assert history_a == history_b
    assert state_a == state_b
    assert of_type(history_a, ev.DEAL) != of_type(history_c, ev.DEAL)


# -- R5 trump ---------------------------------------------------------------------------------
HANDS_2 = [["R5", "J1"], ["W1", "G3"], ["B2", "R9"]]


def test_r5_suit_card_turned_sets_trump() -> None:
    state = dealt(HANDS_2, turned="G7", dealer=1)
    assert state.trump == "green"
    assert state.phase == BIDDING
    assert state.to_act == 2


def test_r5_jester_turned_means_no_trump() -> None:
    state = dealt(HANDS_2, turned="J2", dealer=1)
    assert state.trump is None
    assert state.phase == BIDDING
    assert state.to_act == 2


def test_r5_wizard_turned_dealer_chooses_trump() -> None:
    state = dealt(HANDS_2, turned="W2", dealer=1)
    assert state.phase == CHOOSING_TRUMP
    assert state.to_act == 1
    assert state.trump is None
    assert rules.legal_suits(state) == ["red", "green", "blue", "yellow"]
    assert rules.legal_moves(state) == [ChooseTrump(s) for s in ("red", "green", "blue", "yellow")]
    assert seat_view(state, 1)["legal"] == {"suits": ["red", "green", "blue", "yellow"]}
    assert seat_view(state, 2)["legal"] is None

    after, caused = act(state, 1, ChooseTrump("blue"))
    assert caused == [ev.trump_chosen(seat=1, suit="blue")]
    assert after.trump == "blue"
    assert after.phase == BIDDING
    assert after.to_act == 2  # R7: left of the dealer


def test_r5_only_the_dealer_chooses_trump() -> None:
    state = dealt(HANDS_2, turned="W2", dealer=1)
    assert refused(state, 2, ChooseTrump("red")) == "not_your_turn"
    assert refused(state, 0, ChooseTrump("red")) == "not_your_turn"
    assert refused(state, 2, Bid(0)) == "not_your_turn"


@pytest.mark.parametrize("suit", ["purple", "Red", "", "none"])
def test_r5_choosing_a_suit_that_does_not_exist_is_invalid(suit: str) -> None:
    state = dealt(HANDS_2, turned="W2", dealer=1)
    assert refused(state, 1, ChooseTrump(suit)) == "invalid"


def test_r5_choosing_trump_without_a_wizard_turned_is_refused() -> None:
    state = dealt(HANDS_2, turned="G7", dealer=1)
    assert refused(state, 2, ChooseTrump("red")) == "invalid"


# -- R6 last round ----------------------------------------------------------------------------
def test_r6_last_round_deals_whole_deck_and_has_no_trump(
    three_player_game: tuple[State, list[Event]],
) -> None:
    _, history = three_player_game
    last_deal = next(i for i, e in enumerate(history) if e["type"] == ev.DEAL and e["round"] == 20)
    hands = history[last_deal]["hands"]
    assert sorted(code for hand in hands for code in hand) == sorted(DECK_CODES)
    assert history[last_deal + 1] == ev.trump_turned(card=None)
    assert deal_round(SEED, 20, 3, history[last_deal]["dealer"])[1] is None

    state = replay(history[: last_deal + 2])
    assert state.round == 20
    assert state.trump is None
    assert state.turned_up is None
    assert state.phase == BIDDING
    assert state.to_act == (state.dealer + 1) % 3


# -- R7 bidding -------------------------------------------------------------------------------
HANDS_4x3 = [
    ["R1", "R2", "R3"],
    ["G1", "G2", "G3"],
    ["B1", "B2", "B3"],
    ["Y1", "Y2", "Y3"],
]


def test_r7_bidding_starts_left_of_dealer_and_dealer_bids_last() -> None:
    state = dealt(HANDS_4x3, turned="R9", dealer=1)
    order = []
    for value in (1, 0, 1, 2):
        order.append(state.to_act)
        assert state.phase == BIDDING
        state, caused = act(state, state.to_act, Bid(value))
        assert caused == [ev.bid(seat=order[-1], bid=value)]
    assert order == [2, 3, 0, 1]
    assert state.bids == [1, 2, 1, 0]
    assert state.phase == PLAYING


@pytest.mark.parametrize("value", [-1, 4, 60])
def test_r7_bid_outside_zero_to_k_is_illegal_bid(value: int) -> None:
    state = dealt(HANDS_4x3, turned="R9", dealer=1)
    assert rules.legal_bids(state) == [0, 1, 2, 3]
    assert refused(state, 2, Bid(value)) == "illegal_bid"


def test_r7_bid_out_of_turn_is_not_your_turn() -> None:
    state = dealt(HANDS_4x3, turned="R9", dealer=1)
    for seat in (0, 1, 3):
        assert refused(state, seat, Bid(0)) == "not_your_turn"
    state, _ = act(state, 2, Bid(0))
    assert refused(state, 2, Bid(0)) == "not_your_turn"


# -- R8 hook rule -----------------------------------------------------------------------------
HANDS_3x3 = [["R1", "R2", "R3"], ["G1", "G2", "G3"], ["B1", "B2", "B3"]]


def test_r8_hook_forbids_exactly_the_dealer_bid_that_makes_the_sum_k() -> None:
    state = dealt(HANDS_3x3, turned="Y1", dealer=0, bids=(1, 1))
    assert state.to_act == 0
    assert rules.forbidden_bid(state) == 1
    assert rules.legal_bids(state) == [0, 2, 3]
    assert refused(state, 0, Bid(1)) == "hook_rule"
    for value in (0, 2, 3):
        after, _ = act(state, 0, Bid(value))
        assert after.bids == [value, 1, 1]


def test_r8_no_forbidden_bid_when_it_would_lie_outside_zero_to_k() -> None:
    state = dealt(HANDS_2, turned="Y1", dealer=0, bids=(2, 1))  # others bid 3 > k = 2
    assert rules.forbidden_bid(state) is None
    assert rules.legal_bids(state) == [0, 1, 2]
    for value in (0, 1, 2):
        after, _ = act(state, 0, Bid(value))
        assert after.phase == PLAYING


def test_r8_non_dealers_are_not_constrained_by_the_hook() -> None:
    state = dealt(HANDS_2, turned="Y1", dealer=0)
    assert rules.legal_bids(state) == [0, 1, 2]
    state, _ = act(state, 1, Bid(1))
    assert rules.forbidden_bid(state) is None
    assert rules.legal_bids(state) == [0, 1, 2]
    state, _ = act(state, 2, Bid(1))  # the sum already equals k before the dealer bids
    assert state.bids == [None, 1, 1]
    # The dealer may not bid 0 now: 1 + 1 + 0 = 2 = k.
    assert rules.legal_bids(state) == [1, 2]


def test_r8_with_the_option_off_the_dealer_may_bid_anything() -> None:
    state = dealt(HANDS_3x3, turned="Y1", dealer=0, bids=(1, 1), hook_rule=False)
    assert rules.forbidden_bid(state) is None
    assert rules.legal_bids(state) == [0, 1, 2, 3]
    after, _ = act(state, 0, Bid(1))
    assert after.bids == [1, 1, 1]
    assert after.phase == PLAYING


# -- R9 blind first round ---------------------------------------------------------------------
BLIND_HANDS = [["R5"], ["G3"], ["B2"]]


def test_r9_blind_round_hides_own_card_and_shows_the_others() -> None:
    state = dealt(BLIND_HANDS, turned="B7", dealer=0, blind_first_round=True)
    view = seat_view(state, 1)
    assert view["hand"] is None
    assert view["visible_hands"] == {"0": ["R5"], "2": ["B2"]}
    assert view["legal"] == {"bids": [0, 1]}
    view = seat_view(state, 0)
    assert view["hand"] is None
    assert view["visible_hands"] == {"1": ["G3"], "2": ["B2"]}


def test_r9_after_the_last_bid_the_blind_trick_plays_itself() -> None:
    state = dealt(BLIND_HANDS, turned="B7", dealer=0, bids=(0, 0), blind_first_round=True)
    state, caused = act(state, 0, Bid(0))
    assert [e["type"] for e in caused] == [
        ev.BID,
        ev.PLAY,
        ev.PLAY,
        ev.PLAY,
        ev.TRICK_WON,
        ev.ROUND_SCORED,
        ev.DEAL,
        ev.TRUMP_TURNED,
    ]
    assert caused[1:4] == [
        ev.play(seat=1, card="G3", auto=True),
        ev.play(seat=2, card="B2", auto=True),
        ev.play(seat=0, card="R5", auto=True),
    ]
    assert caused[4] == ev.trick_won(seat=2)  # blue is trump
    assert caused[5] == ev.round_scored(round_number=1, points=[20, 20, -10])
    hands, turned = deal_round(SEED, 2, 3, 1)
    assert caused[6] == ev.deal(round_number=2, dealer=1, hands=hands)
    assert caused[7] == ev.trump_turned(card=turned)
    assert state.round == 2
    assert state.dealer == 1
    assert [len(hand) for hand in state.hands] == [2, 2, 2]
    assert seat_view(state, 0)["hand"] is not None


def test_r9_with_the_option_off_round_one_is_played_normally() -> None:
    state = dealt(BLIND_HANDS, turned="B7", dealer=0, bids=(0, 0), blind_first_round=False)
    view = seat_view(state, 0)
    assert view["hand"] == ["R5"]
    assert view["visible_hands"] == {}
    state, caused = act(state, 0, Bid(0))
    assert caused == [ev.bid(seat=0, bid=0)]
    assert state.phase == PLAYING
    assert state.to_act == 1
    assert seat_view(state, 1)["legal"] == {"cards": ["G3"]}


# -- R10 leading ------------------------------------------------------------------------------
def test_r10_left_of_dealer_leads_first_trick_and_winner_leads_next() -> None:
    hands = [["R5", "G9"], ["R11", "B2"], ["R3", "Y4"]]
    state = dealt(hands, turned="B7", dealer=2, bids=(0, 1, 0))
    assert state.phase == PLAYING
    assert state.to_act == 0
    assert state.leader == 0
    state, caused = plays(state, (0, "R5"), (1, "R11"), (2, "R3"))
    assert caused[-1] == ev.trick_won(seat=1)
    assert state.leader == 1
    assert state.to_act == 1
    assert refused(state, 2, Play("Y4")) == "not_your_turn"
    assert refused(state, 0, Play("G9")) == "not_your_turn"


# -- R11 lead suit ----------------------------------------------------------------------------
def test_r11_jester_lead_then_suit_card_sets_lead_suit() -> None:
    hands = [["G2", "R9"], ["J1", "R1"], ["G5", "R2"]]
    state = dealt(hands, turned="Y7", dealer=0, bids=(0, 0, 0))
    state, _ = act(state, 1, Play("J1"))
    assert state.lead_suit is None
    assert sorted(rules.legal_cards(state)) == ["G5", "R2"]
    state, _ = act(state, 2, Play("G5"))
    assert state.lead_suit == "green"
    assert rules.legal_cards(state) == ["G2"]
    assert refused(state, 0, Play("R9")) == "illegal_card"
    state, caused = act(state, 0, Play("G2"))
    assert caused[-1] == ev.trick_won(seat=2)


def test_r11_jester_then_wizard_leaves_no_lead_suit() -> None:
    hands = [["J1", "B1"], ["W1", "B2"], ["R9", "B3"], ["R2", "G4"]]
    state = dealt(hands, turned="Y7", dealer=3, bids=(0, 0, 0, 0))
    state, _ = plays(state, (0, "J1"), (1, "W1"), (2, "R9"))
    # R9 came after the Wizard: it does not set a lead suit, so seat 3 may play anything.
    assert state.lead_suit is None
    assert sorted(rules.legal_cards(state)) == ["G4", "R2"]
    state, caused = act(state, 3, Play("G4"))
    assert caused[-1] == ev.trick_won(seat=1)


def test_r11_wizard_lead_leaves_no_lead_suit() -> None:
    hands = [["R2", "G4"], ["W1", "B1"], ["R9", "B3"]]
    state = dealt(hands, turned="Y7", dealer=0, bids=(0, 0, 0))
    state, _ = plays(state, (1, "W1"), (2, "R9"))
    assert state.lead_suit is None
    assert sorted(rules.legal_cards(state)) == ["G4", "R2"]
    state, caused = act(state, 0, Play("G4"))
    assert caused[-1] == ev.trick_won(seat=1)


# -- R12 following suit -----------------------------------------------------------------------
def test_r12_must_follow_suit_when_holding_it() -> None:
    hands = [["Y1", "Y2"], ["R7", "G1"], ["R2", "G2"]]
    state = dealt(hands, turned="B9", dealer=0, bids=(0, 0, 0))
    state, _ = act(state, 1, Play("R7"))
    assert state.lead_suit == "red"
    assert rules.legal_cards(state) == ["R2"]
    assert refused(state, 2, Play("G2")) == "illegal_card"
    after, _ = act(state, 2, Play("R2"))
    assert after.trick == ((1, "R7"), (2, "R2"))


def test_r12_wizard_and_jester_may_always_be_played() -> None:
    hands = [["Y1", "Y2", "Y3", "Y4"], ["R7", "G1", "B1", "B4"], ["R2", "G2", "W1", "J1"]]
    state = dealt(hands, turned="B9", dealer=0, bids=(0, 0, 0))
    state, _ = act(state, 1, Play("R7"))
    assert sorted(rules.legal_cards(state)) == ["J1", "R2", "W1"]
    assert refused(state, 2, Play("G2")) == "illegal_card"
    for code in ("W1", "J1"):
        after, _ = act(state, 2, Play(code))
        assert after.trick[-1] == (2, code)


def test_r12_without_the_lead_suit_any_card_may_be_played() -> None:
    hands = [["Y1", "Y2", "Y3"], ["R7", "G1", "B1"], ["G2", "B5", "Y9"]]
    state = dealt(hands, turned="J4", dealer=0, bids=(0, 0, 0))
    state, _ = act(state, 1, Play("R7"))
    assert sorted(rules.legal_cards(state)) == ["B5", "G2", "Y9"]
    after, _ = act(state, 2, Play("B5"))
    assert after.trick[-1] == (2, "B5")


# -- R13 trick winner -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("trick", "trump", "winner"),
    [
        pytest.param(((0, "R5"), (1, "W3"), (2, "W1")), "red", 1, id="first-of-two-wizards"),
        pytest.param(((2, "W4"), (0, "W1"), (1, "R13")), None, 2, id="wizard-led"),
        pytest.param(((0, "R13"), (1, "G2"), (2, "R12")), "green", 1, id="trump-beats-lead"),
        pytest.param(((0, "R13"), (1, "Y1")), "yellow", 1, id="low-trump-beats-high-lead"),
        pytest.param(((0, "G3"), (1, "G9"), (2, "G12")), "green", 2, id="highest-trump"),
        pytest.param(((0, "R5"), (1, "R11"), (2, "R7")), "blue", 1, id="highest-lead-suit"),
        pytest.param(((0, "R2"), (1, "G13"), (2, "B13")), "yellow", 0, id="off-suit-loses"),
        pytest.param(((0, "R2"), (1, "G13"), (2, "B13")), None, 0, id="off-suit-no-trump"),
        pytest.param(((1, "J3"), (2, "J1"), (0, "J2")), "red", 1, id="all-jesters-first"),
        pytest.param(((0, "J1"), (1, "B3"), (2, "B9")), None, 2, id="jester-led-then-suit"),
        pytest.param(((0, "J1"), (1, "B3"), (2, "R13")), None, 1, id="jester-led-suit-set"),
        pytest.param(((0, "J1"), (1, "W4"), (2, "R13")), "red", 1, id="jester-then-wizard"),
        pytest.param(((0, "R1"), (1, "J2"), (2, "J3")), None, 0, id="jesters-lose"),
    ],
)
def test_r13_trick_winner(
    trick: tuple[tuple[int, str], ...], trump: str | None, winner: int
) -> None:
    assert rules.trick_winner(trick, trump) == winner


def test_r13_trump_wins_the_trick_in_play() -> None:
    hands = [["Y3", "G3"], ["R13", "G1"], ["R2", "G2"]]
    state = dealt(hands, turned="Y9", dealer=0, bids=(0, 0, 0))
    state, caused = plays(state, (1, "R13"), (2, "R2"), (0, "Y3"))
    assert caused[-1] == ev.trick_won(seat=0)
    assert state.tricks_won == [1, 0, 0]
    assert state.last_trick == (0, ((1, "R13"), (2, "R2"), (0, "Y3")))
    assert state.trick == ()
    assert state.to_act == 0


# -- R14 scoring ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [(0, 0, 20), (2, 2, 40), (1, 3, -20), (3, 1, -20), (0, 1, -10), (5, 5, 70), (0, 4, -40)],
)
def test_r14_round_points(bid: int, won: int, points: int) -> None:
    assert rules.round_points(bid, won) == points


def test_r14_a_played_round_is_scored() -> None:
    state = dealt(BLIND_HANDS, turned="B7", dealer=0, bids=(1, 1, 0))
    state, caused = plays(state, (1, "G3"), (2, "B2"), (0, "R5"))
    assert caused[3] == ev.trick_won(seat=2)
    assert caused[4] == ev.round_scored(round_number=1, points=[20, -10, 30])
    assert state.totals == [20, -10, 30]
    assert state.scores == [
        {
            "round": 1,
            "bids": [0, 1, 1],
            "tricks": [0, 0, 1],
            "points": [20, -10, 30],
            "totals": [20, -10, 30],
        }
    ]
    assert state.round == 2  # the next round is dealt at once


# -- R15 winners and places -------------------------------------------------------------------
def test_r15_winners_and_shared_places() -> None:
    assert rules.winners([10, 30, 30]) == [1, 2]
    assert rules.winners([5, -10, 0]) == [0]
    assert rules.winners([-20, -20, -20]) == [0, 1, 2]
    assert rules.places([30, 30, 10]) == [1, 1, 3]
    assert rules.places([10, 20, 20, 5]) == [3, 1, 1, 4]
    assert rules.places([-5, 0, 40]) == [3, 2, 1]


def finished_tie_game() -> tuple[State, list[Event]]:
    """The last round of a 3-player game where seat 0 takes all 20 tricks: its suit cards are
    10-13 and every Wizard, the others only hold 1-9 and Jesters. All bid 0 →
    points [-200, 20, 20], so seats 1 and 2 share the win."""
    strong = [f"{s}{n}" for s in "RGBY" for n in range(10, 14)] + ["W1", "W2", "W3", "W4"]
    weak_1 = [f"{s}{n}" for s in "RG" for n in range(1, 10)] + ["J1", "J2"]
    weak_2 = [f"{s}{n}" for s in "BY" for n in range(1, 10)] + ["J3", "J4"]
    state = replay(
        [
            ev.game_started(players=3, hook_rule=True, blind_first_round=True, first_dealer=2),
            ev.deal(round_number=20, dealer=2, hands=[strong, weak_1, weak_2]),
            ev.trump_turned(card=None),
        ]
    )
    history: list[Event] = []
    while not state.is_over:
        turn = rules.decision(state)
        assert turn is not None
        state, caused = act(state, turn[0], auto_move(state))
        history += caused
        assert len(history) < 200
    return state, history


def test_r15_game_over_with_a_tie_names_every_top_seat() -> None:
    state, history = finished_tie_game()
    assert of_type(history, ev.ROUND_SCORED) == [
        ev.round_scored(round_number=20, points=[-200, 20, 20])
    ]
    assert history[-1] == ev.game_over(winners=[1, 2], totals=[-200, 20, 20])
    assert of_type(history, ev.DEAL) == []  # no round 21
    assert state.winners == [1, 2]
    assert state.totals == [-200, 20, 20]
    assert rules.places(state.totals) == [3, 1, 1]
    assert seat_view(state, 0)["winners"] == [1, 2]
    assert seat_view(state, 0)["to_act"] is None


# -- R16 auto-move ----------------------------------------------------------------------------
def test_r16_auto_bid_is_zero() -> None:
    state = dealt(HANDS_2, turned="Y1", dealer=0)
    assert auto_move(state) == Bid(0)
    state = dealt(HANDS_2, turned="Y1", dealer=0, bids=(1, 0))  # dealer: 1 + 0 + 1 is forbidden
    assert auto_move(state) == Bid(0)


def test_r16_auto_bid_is_lowest_legal_when_hook_forbids_zero() -> None:
    state = dealt(HANDS_3x3, turned="Y1", dealer=0, bids=(2, 1))
    assert rules.forbidden_bid(state) == 0
    assert auto_move(state) == Bid(1)
    after, caused = rules.take_turn(state, 0, auto_move(state), seed=SEED, auto=True)
    assert caused == [ev.bid(seat=0, bid=1, auto=True)]
    assert after.bids == [1, 2, 1]


@pytest.mark.parametrize(
    ("hand", "turned", "expected"),
    [
        pytest.param(["W1", "R1", "J2"], "G7", "J2", id="jester-lowest"),
        pytest.param(["W1", "G13", "R12"], "B7", "R12", id="numbers-below-wizard"),
        pytest.param(["G13", "W2"], "B7", "G13", id="thirteen-below-wizard"),
        pytest.param(["W3", "W1", "W2"], "B7", "W1", id="lowest-wizard-code"),
        pytest.param(["J4", "J2", "J3", "W1"], "B7", "J2", id="lowest-jester-code"),
        pytest.param(["R3", "B3", "G3", "Y5"], "R7", "G3", id="non-trump-first-then-red-green"),
        pytest.param(["G3", "B3", "Y3"], "G7", "B3", id="non-trump-first-then-blue"),
        pytest.param(["Y3", "B3", "G3"], "J1", "G3", id="no-trump-suit-order"),
        pytest.param(["Y3", "B3", "R3"], "J1", "R3", id="red-first"),
        pytest.param(["R3", "Y2"], "Y9", "Y2", id="number-before-trump-preference"),
    ],
)
def test_r16_auto_card_is_lowest_legal_card(hand: list[str], turned: str, expected: str) -> None:
    hands = with_fillers(hand, seat=1, players=3, exclude=(turned,))
    state = dealt(hands, turned=turned, dealer=0, bids=(0, 0, 0))
    assert state.to_act == 1
    assert auto_move(state) == Play(expected)


def test_r16_auto_card_follows_suit() -> None:
    hands = [["Y1", "Y2", "Y3"], ["G5", "B1", "B2"], ["R1", "G12", "G9"]]
    state = dealt(hands, turned="B13", dealer=0, bids=(0, 0, 0))
    state, _ = act(state, 1, Play("G5"))
    assert auto_move(state) == Play("G9")  # R1 is lower but green must be followed (R12)


@pytest.mark.parametrize(
    ("dealer_hand", "suit"),
    [
        pytest.param(["Y1", "Y2", "R3", "W2"], "yellow", id="most-held"),
        pytest.param(["B1", "B2", "G3", "G4"], "green", id="tie-green-before-blue"),
        pytest.param(["Y1", "B2", "W1", "J1"], "blue", id="tie-blue-before-yellow"),
        pytest.param(["J1", "W1"], "red", id="no-suit-cards-red"),
    ],
)
def test_r16_auto_trump_is_most_held_suit(dealer_hand: list[str], suit: str) -> None:
    hands = with_fillers(dealer_hand, seat=2, players=3, exclude=("W4",))
    state = dealt(hands, turned="W4", dealer=2)
    assert state.phase == CHOOSING_TRUMP
    assert auto_move(state) == ChooseTrump(suit)
    after, _ = rules.take_turn(state, 2, auto_move(state), seed=SEED, auto=True)
    assert after.trump == suit


def test_r16_auto_trump_in_the_blind_round_counts_no_card_of_the_dealers_own() -> None:
    # R9: the dealer cannot see their own card, so it must not steer (or betray) the choice.
    for number in range(500):
        seed = f"blind-trump-{number}"
        state, _ = engine.start_game(players=3, seed=seed, blind_first_round=True)
        dealer_card = state.hands[state.dealer][0]
        if state.phase == CHOOSING_TRUMP and dealer_card[0] in "GBY":
            break
    else:
        pytest.fail("no seed turns up a Wizard with a non-red card in the dealer's hand")
    assert auto_move(state) == ChooseTrump("red")
    # Outside the blind round the same hand would decide it (the suit held most).
    seen = engine.State.from_json({**state.to_json(), "blind_first_round": False})
    assert auto_move(seen) != ChooseTrump("red")


def test_r16_no_auto_move_after_the_game() -> None:
    state, _ = finished_tie_game()
    with pytest.raises(Refusal) as caught:
        auto_move(state)
    assert caught.value.code == "game_not_active"


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize("move", [Bid(0), Play("R5"), ChooseTrump("red")])
def test_acting_after_the_game_ended_is_game_not_active(move: Move) -> None:
    state, _ = finished_tie_game()
    assert state.phase == DONE
    for seat in range(3):
        assert refused(state, seat, move) == "game_not_active"


def test_acting_before_the_first_deal_is_game_not_active() -> None:
    state = replay(
        [ev.game_started(players=3, hook_rule=True, blind_first_round=True, first_dealer=0)]
    )
    assert refused(state, 0, Bid(0)) == "game_not_active"


def test_card_not_in_hand_is_illegal_card() -> None:
    state = dealt(HANDS_2, turned="Y1", dealer=0, bids=(0, 0, 1))
    assert state.to_act == 1
    assert refused(state, 1, Play("R5")) == "illegal_card"  # seat 0 holds it
    assert refused(state, 1, Play("Y13")) == "illegal_card"  # nobody holds it
    assert refused(state, 1, Play("Z9")) == "illegal_card"  # not a card at all


def test_move_of_the_wrong_kind_for_the_phase_is_refused() -> None:
    bidding = dealt(HANDS_2, turned="Y1", dealer=0)
    assert refused(bidding, 1, Play("W1")) == "illegal_card"
    playing = dealt(HANDS_2, turned="Y1", dealer=0, bids=(0, 0, 1))
    assert refused(playing, 1, Bid(0)) == "illegal_bid"


# -- parse_move -------------------------------------------------------------------------------
def test_parse_move_reads_the_three_move_bodies() -> None:
    assert parse_move({"type": "bid", "bid": 2}) == Bid(2)
    assert parse_move({"type": "play", "card": "R13"}) == Play("R13")
    assert parse_move({"type": "trump", "suit": "green"}) == ChooseTrump("green")


@pytest.mark.parametrize(
    "body",
    [
        None,
        "bid 2",
        ["bid", 2],
        {},
        {"type": "pass"},
        {"type": "bid"},
        {"type": "bid", "bid": "2"},
        {"type": "bid", "bid": True},
        {"type": "bid", "bid": 1.0},
        {"type": "play", "card": 5},
        {"type": "play"},
        {"type": "trump", "suit": "purple"},
        {"type": "trump", "suit": None},
    ],
)
def test_parse_move_malformed_body_is_invalid(body: object) -> None:
    with pytest.raises(Refusal) as caught:
        parse_move(body)
    assert caught.value.code == "invalid"


@pytest.mark.parametrize(
    ("body", "unknown"),
    [
        ({"type": "bid", "bid": 1, "card": "R1"}, ["card"]),
        ({"type": "play", "card": "R1", "bid": 0}, ["bid"]),
        ({"type": "trump", "suit": "red", "card": "R1", "as": "wizard"}, ["as", "card"]),
        ({"type": "pass", "card": "R1", "delta": 1}, ["delta"]),
        ({"type": "adjust", "delta": 1, "seq": 3}, ["seq"]),  # the door takes `seq` out
    ],
)
def test_parse_move_refuses_a_field_its_move_does_not_have(
    body: dict[str, object], unknown: list[str]
) -> None:
    with pytest.raises(Refusal) as caught:
        parse_move(body)
    assert caught.value.code == "invalid"
    assert caught.value.fields == {name: ["unknown field"] for name in unknown}


@pytest.mark.parametrize("code", ["R14", "W5", "X1", "r5"])
def test_parse_move_unknown_card_code_is_illegal_card(code: str) -> None:
    with pytest.raises(Refusal) as caught:
        parse_move({"type": "play", "card": code})
    assert caught.value.code == "illegal_card"


# -- shuffle ----------------------------------------------------------------------------------
def test_commitment_is_sha256_hex_of_the_seed() -> None:
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert commitment("ünïcode") == hashlib.sha256("ünïcode".encode()).hexdigest()
    assert commitment(SEED) != commitment(SEED + " ")


def test_deal_round_re_derives_every_deal_of_a_played_game(
    three_player_game: tuple[State, list[Event]],
) -> None:
    _, history = three_player_game
    deals = [(i, e) for i, e in enumerate(history) if e["type"] == ev.DEAL]
    assert len(deals) == 20
    for index, deal in deals:
        hands, turned = deal_round(SEED, deal["round"], 3, deal["dealer"])
        assert deal["hands"] == hands
        assert history[index + 1] == ev.trump_turned(card=turned)
    assert deal_round("another-seed", 5, 3, 0) != deal_round(SEED, 5, 3, 0)


def test_suits_are_in_rule_order() -> None:
    """R1 and R16 rely on the order red, green, blue, yellow."""
    assert SUITS == ("red", "green", "blue", "yellow")


# -- R9, paced: the blind trick card by card ------------------------------------------------
def test_r9_paced_blind_trick_waits_after_the_last_bid_and_plays_itself_card_by_card() -> None:
    seed = "paced-blind"
    state, _ = engine.start_game(players=3, seed=seed, blind_first_round=True)
    while state.phase == "bidding":
        assert state.to_act is not None
        state, events = engine.take_turn(
            state, state.to_act, engine.Bid(0), seed=seed, auto_blind=False
        )
    # Nobody decides while the trick plays itself: no legal move, no view's `legal`.
    assert engine.blind_trick_pending(state)
    assert engine.decision(state) is None and engine.legal_moves(state) == []
    assert all(engine.seat_view(state, seat)["legal"] is None for seat in range(3))
    leader = state.to_act
    assert leader is not None
    with pytest.raises(engine.NotYourTurn):
        engine.take_turn(state, leader, engine.Play(state.hands[leader][0]), seed=seed)

    plays = []
    while engine.blind_trick_pending(state):
        state, events = engine.blind_step(state, seed=seed)
        plays.append(events[0])
    assert [(p["type"], p["auto"]) for p in plays] == [("play", True)] * 3
    # After the third card the trick is won, the round scored and round 2 dealt (R9, R14).
    assert [e["type"] for e in events][1:4] == ["trick_won", "round_scored", "deal"]
    assert state.round == 2

    # The same decisions without pacing give the same game.
    unpaced, _ = engine.start_game(players=3, seed=seed, blind_first_round=True)
    while unpaced.round == 1:
        assert unpaced.to_act is not None
        unpaced, _ = engine.take_turn(unpaced, unpaced.to_act, engine.Bid(0), seed=seed)
    assert unpaced.to_json() == state.to_json()
