"""Properties of whole random games (games/rules/en.md, R1–R15): every deal, every legal move, every
trick, every score, the event log and what each seat may see, over many seeded tables.

The expected values come from small models written here from games/rules/en.md, not from the engine.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    Bid,
    ChooseTrump,
    Event,
    GameNotActive,
    IllegalBid,
    IllegalCard,
    Move,
    NotYourTurn,
    Play,
    Refusal,
    State,
    apply,
    auto_move,
    deal_round,
    event_view,
    first_dealer,
    legal_moves,
    public_view,
    replay,
    rounds_for,
    seat_view,
    shuffled_deck,
    start_game,
    take_turn,
)
from tests.engine.tables import Table

# -- the cards of R1, written out independently of the engine ---------------------------------
SUIT_OF_LETTER = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}
SUIT_NAMES = ("red", "green", "blue", "yellow")
ALL_CODES = frozenset(
    [f"{letter}{number}" for letter in "RGBY" for number in range(1, 14)]
    + [f"W{i}" for i in range(1, 5)]
    + [f"J{i}" for i in range(1, 5)]
)


def suit_of(code: str) -> str | None:
    """The suit of a suit card; None for Wizards and Jesters."""
    return SUIT_OF_LETTER.get(code[0])


def is_wizard(code: str) -> bool:
    return code[0] == "W"


def lead_suit_of(cards: list[str]) -> str | None:
    """R11: the suit of the first suit card, unless a Wizard comes before any suit card."""
    for code in cards:
        if is_wizard(code):
            return None
        if suit_of(code) is not None:
            return suit_of(code)
    return None


def r13_winner(trick: list[tuple[int, str]], trump: str | None) -> int:
    """R13: first Wizard; else highest trump; else highest of the lead suit; else first Jester."""
    for seat, code in trick:
        if is_wizard(code):
            return seat
    lead = lead_suit_of([code for _, code in trick])
    for suit in (trump, lead):
        followers = [
            (int(code[1:]), seat) for seat, code in trick if suit and suit_of(code) == suit
        ]
        if followers:
            return max(followers)[1]
    return trick[0][0]  # every card a Jester


def r14_points(bid: int, won: int) -> int:
    """R14: exact → 20 + 10 per trick won; missed → −10 per trick of difference."""
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


def expected_moves(state: State) -> set[Move]:
    """R5, R7, R8, R11, R12: the moves the seat to act may make."""
    seat = state.to_act
    assert seat is not None
    if state.phase == "choosing_trump":
        return {ChooseTrump(suit) for suit in SUIT_NAMES}  # R5: never "no trump"
    if state.phase == "bidding":
        bids = set(range(state.round + 1))  # R7
        if state.hook_rule and seat == state.dealer:  # R8
            bids.discard(state.round - sum(b for b in state.bids if b is not None))
        return {Bid(b) for b in bids}
    hand = list(state.hands[seat])
    lead = lead_suit_of([code for _, code in state.trick])
    if lead is not None and any(suit_of(code) == lead for code in hand):  # R12
        hand = [code for code in hand if suit_of(code) in (lead, None)]
    return {Play(code) for code in hand}


def decision_event(seat: int, move: Move) -> Event:
    match move:
        case Bid(bid):
            return {"type": "bid", "seat": seat, "bid": bid}
        case Play(card):
            return {"type": "play", "seat": seat, "card": card}
        case ChooseTrump(suit):
            return {"type": "trump_chosen", "seat": seat, "suit": suit}
    raise AssertionError(move)


JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def card_codes(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value (dict keys included)."""
    return set(JSON_STRING.findall(json.dumps(value))) & ALL_CODES


def holds_seed(value: Any, seed: str) -> bool:
    """Whether the seed appears anywhere in a JSON value, whole or inside a longer string."""
    return json.dumps(seed)[1:-1] in json.dumps(value)


# -- random games -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Turn:
    before: State
    seat: int
    move: Move
    after: State
    events: list[Event]
    before_snapshot: dict[str, Any] | None  # a deep copy taken before take_turn ran


@dataclass(frozen=True)
class Game:
    table: Table
    opening: State
    opening_events: list[Event]
    turns: list[Turn]

    @property
    def events(self) -> list[Event]:
        return self.opening_events + [event for turn in self.turns for event in turn.events]

    @property
    def final(self) -> State:
        return self.turns[-1].after if self.turns else self.opening

    def steps(self) -> Iterator[tuple[State, list[Event]]]:
        """Every state reached, with the events that led to it from the previous one."""
        yield self.opening, self.opening_events
        for turn in self.turns:
            yield turn.after, turn.events


# A distinctive prefix, so that finding the seed in a view cannot be a coincidence.
seeds = st.text(max_size=16).map(lambda text: f"seed:{text}")
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)


def tables(hook_rule: st.SearchStrategy[bool] | None = None) -> st.SearchStrategy[Table]:
    return st.builds(
        Table,
        players=st.integers(min_value=3, max_value=6),
        seed=seeds,
        hook_rule=hook_rule if hook_rule is not None else st.booleans(),
        blind_first_round=st.booleans(),
    )


MAX_DECISIONS = 1000  # a 3-player game has 20 × 3 bids + 630 plays + a few trump choices


def play_game(table: Table, choice_seed: int, *, keep_snapshots: bool = False) -> Game:
    """A whole game; each decision is a uniformly random legal move, or now and then the R16
    auto-move, drawn from `choice_seed`."""
    rng = random.Random(choice_seed)
    state, opening_events = start_game(
        players=table.players,
        seed=table.seed,
        hook_rule=table.hook_rule,
        blind_first_round=table.blind_first_round,
    )
    opening = state
    turns: list[Turn] = []
    while not state.is_over:
        assert len(turns) < MAX_DECISIONS, "the game does not end"
        seat = state.to_act
        assert seat is not None, f"nobody may act in the unfinished game {state!r}"
        moves = legal_moves(state)
        assert moves, f"seat {seat} must act but has no legal move in {state!r}"
        move = auto_move(state) if rng.random() < 0.2 else rng.choice(moves)
        snapshot = copy.deepcopy(state.snapshot()) if keep_snapshots else None
        after, new = take_turn(state, seat, move, seed=table.seed)
        turns.append(Turn(state, seat, move, after, new, snapshot))
        state = after
    return Game(table, opening, opening_events, turns)


def split_rounds(events: list[Event]) -> list[list[Event]]:
    """The events of each round, each list starting with its deal."""
    rounds: list[list[Event]] = []
    for event in events:
        if event["type"] == "deal":
            rounds.append([])
        if rounds:
            rounds[-1].append(event)
    return rounds


def round_trump(round_events: list[Event]) -> str | None:
    """R5, R6: the trump of a round from its turned-up card or the dealer's choice."""
    for event in round_events:
        if event["type"] == "trump_chosen":
            return str(event["suit"])
    turned = next(event["card"] for event in round_events if event["type"] == "trump_turned")
    return suit_of(turned) if turned is not None else None


# -- the deal -----------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_every_round_deals_each_card_exactly_once(table: Table, choice_seed: int) -> None:
    """R2–R6: k distinct cards to each seat, the next one turned up, the rest undealt."""
    game = play_game(table, choice_seed)
    n = table.players
    rounds = split_rounds(game.events)
    assert [chunk[0]["round"] for chunk in rounds] == list(range(1, 60 // n + 1))  # R2
    assert rounds_for(n) == 60 // n
    dealer = first_dealer(table.seed, n)
    assert 0 <= dealer < n
    for chunk in rounds:
        deal, turned_event = chunk[0], chunk[1]
        k = deal["round"]
        assert deal["dealer"] == dealer  # R3
        assert turned_event["type"] == "trump_turned"
        hands, turned = deal["hands"], turned_event["card"]
        assert len(hands) == n
        assert all(len(hand) == k for hand in hands)  # R4
        dealt = [code for hand in hands for code in hand]
        assert len(set(dealt)) == len(dealt)
        assert set(dealt) <= ALL_CODES
        if k * n == 60:  # R6: the whole deck is dealt, nothing turned up
            assert turned is None
            assert set(dealt) == ALL_CODES
        else:  # R5
            assert turned in ALL_CODES
            assert turned not in dealt
        deck = shuffled_deck(table.seed, k)
        assert Counter(deck) == Counter(ALL_CODES)
        # The published deal: one card at a time from the left of the dealer, then one up.
        for i, code in enumerate(deck[: k * n]):
            assert hands[(dealer + 1 + i) % n][i // n] == code
        undealt = deck[k * n + 1 :]
        turned_up = [turned] if turned is not None else []
        assert Counter(dealt + turned_up + undealt) == Counter(ALL_CODES)
        assert deal_round(table.seed, k, n, dealer) == (hands, turned)
        dealer = (dealer + 1) % n  # R3


@settings(max_examples=60, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_turned_up_card_sets_the_trump(table: Table, choice_seed: int) -> None:
    """R5, R6: a suit card gives its suit; a Jester or nothing, no trump; a Wizard, the dealer's
    choice of a suit."""
    game = play_game(table, choice_seed)
    state = State()
    events = game.events
    for index, event in enumerate(events):
        state = apply(state, event)
        if event["type"] != "trump_turned":
            continue
        card = event["card"]
        if card is not None and is_wizard(card):
            assert state.phase == "choosing_trump"
            assert state.to_act == state.dealer
            chosen = events[index + 1]
            assert chosen["type"] == "trump_chosen"
            assert chosen["seat"] == state.dealer
            assert chosen["suit"] in SUIT_NAMES
        else:
            assert state.phase == "bidding"
            assert state.trump == (suit_of(card) if card is not None else None)
            assert state.to_act == (state.dealer + 1) % table.players  # R7


# -- legal moves ------------------------------------------------------------------------------
@settings(max_examples=30, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_legal_moves_are_exactly_the_moves_take_turn_accepts(
    table: Table, choice_seed: int
) -> None:
    """R5, R7, R8, R11, R12: the seat to act always has a legal move; each legal move is
    accepted; a card in hand that R12 forbids, a bid out of range or by the hook, and a move by
    another seat are refused and change nothing."""
    game = play_game(table, choice_seed)
    n = table.players
    for state, _ in game.steps():
        if state.is_over:
            assert legal_moves(state) == []
            with pytest.raises(GameNotActive):
                take_turn(state, 0, Bid(0), seed=table.seed)
            continue
        seat = state.to_act
        assert seat is not None
        moves = legal_moves(state)
        assert moves
        assert set(moves) == expected_moves(state)
        assert len(set(moves)) == len(moves)
        assert auto_move(state) in moves  # R16 picks among the legal moves
        if state.trick:
            assert state.lead_suit == lead_suit_of([code for _, code in state.trick])  # R11
        if table.blind_first_round and state.round == 1:
            assert state.phase != "playing"  # R9: the blind trick plays itself
        before = copy.deepcopy(state.snapshot())
        for move in moves:
            _, new = take_turn(state, seat, move, seed=table.seed)
            assert {k: v for k, v in new[0].items() if k != "auto"} == decision_event(seat, move)
        refused: list[tuple[int, Move, type[Refusal], str]] = []
        if state.phase == "playing":
            refused += [
                (seat, Play(code), IllegalCard, "illegal_card")
                for code in state.hands[seat]
                if Play(code) not in moves
            ]
            not_held = sorted(ALL_CODES - set(state.hands[seat]))
            refused.append((seat, Play(not_held[0]), IllegalCard, "illegal_card"))
        if state.phase == "bidding":
            refused += [
                (seat, Bid(b), IllegalBid, "hook_rule" if 0 <= b <= state.round else "illegal_bid")
                for b in range(-1, state.round + 2)
                if Bid(b) not in moves
            ]
        refused.append(((seat + 1) % n, moves[0], NotYourTurn, "not_your_turn"))
        for acting, move, error, code in refused:
            with pytest.raises(error) as caught:
                take_turn(state, acting, move, seed=table.seed)
            assert caught.value.code == code, (acting, move)
        assert state.snapshot() == before  # a refused (or accepted) move changes nothing


# -- tricks, bids and scores --------------------------------------------------------------------
@settings(max_examples=50, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_each_round_has_k_tricks_won_by_the_r13_winner(table: Table, choice_seed: int) -> None:
    """R9, R10, R13: k tricks of n cards each, led from left of the dealer then by the last
    winner, won as R13 says; the round's record counts them."""
    game = play_game(table, choice_seed)
    n = table.players
    final = game.final
    assert len(final.scores) == 60 // n
    for chunk in split_rounds(game.events):
        k, dealer = chunk[0]["round"], chunk[0]["dealer"]
        trump = round_trump(chunk)
        leader = (dealer + 1) % n  # R10
        trick: list[tuple[int, str]] = []
        winners: list[int] = []
        for event in chunk:
            if event["type"] == "play":
                expected_seat = (trick[-1][0] + 1) % n if trick else leader
                assert event["seat"] == expected_seat
                if table.blind_first_round and k == 1:
                    assert event.get("auto") is True  # R9: nobody plays the blind trick
                trick.append((event["seat"], event["card"]))
            elif event["type"] == "trick_won":
                assert len(trick) == n
                assert event["seat"] == r13_winner(trick, trump)
                winners.append(event["seat"])
                leader, trick = event["seat"], []
        assert trick == []
        assert len(winners) == k
        record = final.scores[k - 1]
        assert record["round"] == k
        assert record["tricks"] == [winners.count(seat) for seat in range(n)]
        assert sum(record["tricks"]) == k


@settings(max_examples=50, deadline=None)
@given(table=tables(hook_rule=st.just(True)), choice_seed=choice_seeds)
def test_bids_go_clockwise_and_never_sum_to_k_under_the_hook_rule(
    table: Table, choice_seed: int
) -> None:
    """R7, R8: left of the dealer bids first, the dealer last; the bids never add up to k."""
    game = play_game(table, choice_seed)
    n = table.players
    for chunk in split_rounds(game.events):
        k, dealer = chunk[0]["round"], chunk[0]["dealer"]
        bids = [event for event in chunk if event["type"] == "bid"]
        assert [event["seat"] for event in bids] == [(dealer + 1 + i) % n for i in range(n)]
        assert all(0 <= event["bid"] <= k for event in bids)
        assert sum(event["bid"] for event in bids) != k
    for record in game.final.scores:
        assert sum(record["bids"]) != record["round"]


@settings(max_examples=50, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_totals_are_the_r14_points_and_winners_have_the_top_total(
    table: Table, choice_seed: int
) -> None:
    """R14, R15: each round scores by R14, totals add up, and the winners are the argmax seats."""
    game = play_game(table, choice_seed)
    n = table.players
    final = game.final
    totals = [0] * n
    for chunk, record in zip(split_rounds(game.events), final.scores, strict=True):
        bids = {event["seat"]: event["bid"] for event in chunk if event["type"] == "bid"}
        won = Counter(event["seat"] for event in chunk if event["type"] == "trick_won")
        points = [r14_points(bids[seat], won[seat]) for seat in range(n)]
        totals = [total + p for total, p in zip(totals, points, strict=True)]
        assert record["bids"] == [bids[seat] for seat in range(n)]
        assert record["points"] == points
        assert record["totals"] == totals
    assert final.totals == totals
    top = max(totals)
    expected_winners = [seat for seat in range(n) if totals[seat] == top]
    assert final.winners == expected_winners
    game_over = game.events[-1]
    assert game_over["type"] == "game_over"
    assert game_over["winners"] == expected_winners
    assert game_over["totals"] == totals
    assert [event["type"] for event in game.events].count("game_over") == 1


def test_equal_top_totals_share_the_win() -> None:
    """R15: ties at the top are common enough at 6 seats to find one among a few games."""
    for game_number in range(300):
        table = Table(6, f"seed:tie-{game_number}", True, game_number % 2 == 0)
        final = play_game(table, game_number).final
        top = max(final.totals)
        if final.totals.count(top) > 1:
            assert final.winners == [seat for seat in range(6) if final.totals[seat] == top]
            assert len(final.winners) > 1
            return
    pytest.fail("no game of 300 ended in a tie")


# -- the event log --------------------------------------------------------------------------------
@settings(max_examples=12, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_replaying_every_prefix_of_events_rebuilds_the_state(
    table: Table, choice_seed: int
) -> None:
    """The state after each turn is the fold of the events so far; take_turn and apply never
    change the state they are given."""
    game = play_game(table, choice_seed, keep_snapshots=True)
    events = list(game.opening_events)
    assert replay(events) == game.opening
    folded = replay(events)
    for turn in game.turns:
        assert turn.before.snapshot() == turn.before_snapshot  # take_turn left it alone
        events += turn.events
        assert replay(events) == turn.after
        for event in turn.events:
            before = copy.deepcopy(folded.snapshot())
            next_state = apply(folded, event)
            assert folded.snapshot() == before  # apply left it alone
            folded = next_state
        assert folded == turn.after
        assert folded.seq == len(events)
    assert replay(events) == game.final


@settings(max_examples=40, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_events_survive_a_json_round_trip(table: Table, choice_seed: int) -> None:
    """Events are plain JSON: stored and loaded, they replay to the same state."""
    game = play_game(table, choice_seed)
    text = json.dumps(game.events, allow_nan=False)
    loaded = json.loads(text)
    assert loaded == game.events  # no tuples, sets or other non-JSON values inside
    assert replay(loaded) == game.final
    assert replay(loaded).snapshot() == game.final.snapshot()


@settings(max_examples=30, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_same_seed_and_decisions_give_identical_events(table: Table, choice_seed: int) -> None:
    """The seed decides every deal: replaying the same decisions gives the same game."""
    game = play_game(table, choice_seed)
    state, events = start_game(
        players=table.players,
        seed=table.seed,
        hook_rule=table.hook_rule,
        blind_first_round=table.blind_first_round,
    )
    for turn in game.turns:
        state, new = take_turn(state, turn.seat, turn.move, seed=table.seed)
        events += new
        assert state == turn.after
    assert events == game.events
    assert json.dumps(events) == json.dumps(game.events)


# -- what each seat may see ---------------------------------------------------------------------
def hidden_from(state: State, seat: int | None, undealt: set[str]) -> set[str]:
    """The cards `seat` (None: a spectator) may not see: the undealt deck, and the hands of the
    other seats; in the blind first round (R9) its own hand instead; a spectator, every hand."""
    if seat is None:
        hidden_seats = range(state.players)
    elif state.blind_first_round and state.round == 1:
        hidden_seats = range(seat, seat + 1)
    else:
        hidden_seats = [other for other in range(state.players) if other != seat]
    return undealt | {code for other in hidden_seats for code in state.hands[other]}


@settings(max_examples=15, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_no_view_shows_a_card_its_seat_may_not_see(table: Table, choice_seed: int) -> None:
    """R9 and the API's game view: no seat's view holds another seat's hand (in the blind
    round: its own), an undealt card or the seed; the public view holds no hand card at all."""
    game = play_game(table, choice_seed)
    n = table.players
    last_trick: dict[str, Any] | None = None  # the last trick won in this round
    trick: list[dict[str, Any]] = []
    undealt: set[str] = set()
    for state, new_events in game.steps():
        for event in new_events:
            if event["type"] == "deal":
                hands, turned = deal_round(table.seed, event["round"], n, event["dealer"])
                dealt = {code for hand in hands for code in hand}
                undealt = set(ALL_CODES) - dealt - {turned}
                last_trick = None  # the API contract: last_trick is part of the round
            elif event["type"] == "play":
                trick.append({"seat": event["seat"], "card": event["card"]})
            elif event["type"] == "trick_won":
                last_trick, trick = {"winner": event["seat"], "cards": trick}, []
        blind = table.blind_first_round and state.round == 1
        for seat in [*range(n), None]:
            view = seat_view(state, seat)
            assert not holds_seed(view, table.seed)
            assert view["round"]["last_trick"] == last_trick
            assert not card_codes(view) & hidden_from(state, seat, undealt), (seat, state)
            if seat is None:
                assert view["hand"] is None
                assert view["visible_hands"] == {}
            elif blind:  # R9: every hand but its own
                assert view["hand"] is None
                assert {key: sorted(cards) for key, cards in view["visible_hands"].items()} == {
                    str(other): sorted(state.hands[other]) for other in range(n) if other != seat
                }
            else:
                assert sorted(view["hand"]) == sorted(state.hands[seat])
                assert view["visible_hands"] == {}
        public = public_view(state)
        public_cards = card_codes(public)
        assert not public_cards & {code for hand in state.hands for code in hand}
        assert not public_cards & undealt


@settings(max_examples=40, deadline=None)
@given(table=tables(), choice_seed=choice_seeds)
def test_event_view_of_a_deal_shows_only_what_the_seat_may_see(
    table: Table, choice_seed: int
) -> None:
    """R9: a deal shows a seat its own hand (in the blind round the others' hands instead), a
    spectator no hand; every other event is public; no event holds the seed."""
    game = play_game(table, choice_seed)
    n = table.players
    blind_option = table.blind_first_round
    for event in game.events:
        assert not holds_seed(event, table.seed)
        for seat in [*range(n), None]:
            shown = event_view(event, seat, blind_first_round=blind_option)
            if event["type"] != "deal":
                assert shown == event
                continue
            assert "hands" not in shown
            hands = event["hands"]
            if seat is None:
                expected = set()
            elif blind_option and event["round"] == 1:
                expected = {
                    code for other, hand in enumerate(hands) if other != seat for code in hand
                }
                assert shown["hand"] is None
                assert {
                    int(key): sorted(cards) for key, cards in shown["visible_hands"].items()
                } == {other: sorted(hand) for other, hand in enumerate(hands) if other != seat}
            else:
                expected = set(hands[seat])
                assert sorted(shown["hand"]) == sorted(hands[seat])
                assert shown["visible_hands"] == {}
            assert card_codes(json.loads(json.dumps(shown))) == expected, (seat, event["round"])
            revealed = event_view(event, seat, blind_first_round=blind_option, reveal=True)
            assert revealed["hands"] == hands
