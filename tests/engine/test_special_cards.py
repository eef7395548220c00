"""R20–R26, the special cards, one or more tests per card and per interaction, built from
hand-written deals like tests/engine/test_rules.py."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import events as ev
from games.engine import rules
from games.engine.auto import auto_move
from games.engine.cards import DECK_CODES, SPECIAL_CODES, special_cards, special_options
from games.engine.errors import Invalid, Refusal
from games.engine.events import Event
from games.engine.moves import Adjust, Bid, ChooseTrump, Move, Pass, Play, parse_move
from games.engine.shuffle import _Stream, deal_round, shuffled_deck
from games.engine.state import (
    ADJUSTING,
    BIDDING,
    CHOOSING_TRUMP,
    PASSING,
    PLAYING,
    State,
    replay,
)
from games.engine.views import event_view, seat_view
from tests.engine.test_rules import frozen

SEED = "special-cards-seed"
ALL = tuple(SPECIAL_CODES)


def table(
    hands: list[list[str]],
    *,
    turned: str,
    dealer: int = 0,
    bids: tuple[int, ...] = (),
    specials: tuple[str, ...] = ALL,
    blind_first_round: bool = False,
    trump: str | None = None,
) -> State:
    """A table of len(hands) seats in round k = len(hands[0]) with these special cards, after
    the deal, the turned-up card (and a Werewolf's swap, R23, and `trump` chosen if a choice is
    due); `bids` in bidding order, from the left of the dealer."""
    players = len(hands)
    history: list[Event] = [
        ev.game_started(
            players=players,
            hook_rule=False,
            blind_first_round=blind_first_round,
            first_dealer=dealer,
            special_cards=list(specials),
        ),
        ev.deal(round_number=len(hands[0]), dealer=dealer, hands=hands),
        ev.trump_turned(card=turned),
    ]
    holder = next((seat for seat, hand in enumerate(hands) if "WW" in hand), None)
    if holder is not None:
        history.append(ev.werewolf(seat=holder, card=turned))
    state = replay(history)
    if state.phase == CHOOSING_TRUMP and trump is not None:
        assert state.to_act is not None
        state, _ = act(state, state.to_act, ChooseTrump(trump))
    for value in bids:
        assert state.to_act is not None
        state, _ = act(state, state.to_act, Bid(value))
    return state


def act(state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
    return rules.take_turn(state, seat, move, seed=SEED)


def plays(state: State, *moves: tuple[int, Move]) -> tuple[State, list[Event]]:
    caused: list[Event] = []
    for seat, move in moves:
        state, new = act(state, seat, move)
        caused += new
    return state, caused


def refused(state: State, seat: int, move: Move) -> str:
    before = frozen(state)
    with pytest.raises(Refusal) as caught:
        act(state, seat, move)
    assert frozen(state) == before
    return caught.value.code


def won(events: list[Event]) -> list[Any]:
    return [event for event in events if event["type"] == "trick_won"]


# Three seats, dealer 0: seat 1 bids first and leads the first trick (R7, R10).
def three(hands: list[list[str]], turned: str = "R1", **options: Any) -> State:
    bids = options.pop("bids", (1, 1, 1))
    return table(hands, turned=turned, bids=bids, **options)


# -- R20 ----------------------------------------------------------------------------------------
def test_r20_api_names_choose_cards_in_r20_order_and_dragon_comes_with_fairy() -> None:
    assert special_cards(["shapeshifter", "dragon_fairy", "bomb"]) == ("DR", "FA", "BO", "SH")
    assert special_options(("DR", "FA", "CL")) == ["dragon_fairy", "cloud"]
    for bad in (["dragon"], ["bomb", "bomb"], "bomb", [1]):
        with pytest.raises(Invalid):
            special_cards(bad)


def test_r20_the_canonical_deck_appends_the_chosen_special_cards_in_r20_order() -> None:
    chosen = ("DR", "FA", "JU")
    deck = [*DECK_CODES, *chosen]  # the README's recipe, written out again here
    stream = _Stream(SEED, "round-3")
    for i in range(len(deck) - 1, 0, -1):
        j = stream.draw(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    assert shuffled_deck(SEED, 3, chosen) == deck
    assert sorted(deck) == sorted([*DECK_CODES, *chosen])


def test_r20_with_special_cards_the_last_round_turns_up_a_card() -> None:
    hands, turned = deal_round(SEED, 20, 3, 0, ("BO",))
    assert sum(map(len, hands)) == 60 and turned is not None
    assert deal_round(SEED, 20, 3, 0)[1] is None  # R6 without them


@pytest.mark.parametrize("code", ["FA", "BO", "JU", "CL", "SH"])
def test_r20_a_special_card_turned_up_means_no_trump(code: str) -> None:
    state = table([["R1"], ["G1"], ["B1"]], turned=code)
    assert state.phase == BIDDING and state.trump is None


def test_r20_a_dragon_turned_up_lets_the_dealer_choose_like_a_wizard() -> None:
    state = table([["R1"], ["G1"], ["B1"]], turned="DR", dealer=2)
    assert state.phase == CHOOSING_TRUMP and state.to_act == 2
    assert rules.legal_suits(state) == ["red", "green", "blue", "yellow"]  # never none (R5)
    assert refused(state, 2, ChooseTrump("none")) == "invalid"


def test_r20_special_cards_may_always_be_played() -> None:
    state = three([["R5", "BO"], ["R2", "G3"], ["R9", "FA"]], bids=(0, 0, 0))
    state, _ = act(state, 1, Play("R2"))
    assert sorted(rules.legal_cards(state)) == ["FA", "R9"]
    state, _ = act(state, 2, Play("FA"))
    assert sorted(rules.legal_cards(state)) == ["BO", "R5"]


# -- R21 ----------------------------------------------------------------------------------------
def test_r21_the_dragon_beats_every_card_wizards_included() -> None:
    state = three([["W1"], ["DR"], ["W2"]])
    _, events = plays(state, (1, Play("DR")), (2, Play("W2")), (0, Play("W1")))
    assert won(events)[0]["seat"] == 1


def test_r21_a_trick_with_the_dragon_and_the_fairy_goes_to_the_fairy() -> None:
    state = three([["FA"], ["DR"], ["W2"]])
    _, events = plays(state, (1, Play("DR")), (2, Play("W2")), (0, Play("FA")))
    assert won(events)[0]["seat"] == 0


def test_r21_the_fairy_loses_to_every_card_jesters_included() -> None:
    state = three([["J2"], ["FA"], ["J1"]])
    _, events = plays(state, (1, Play("FA")), (2, Play("J1")), (0, Play("J2")))
    assert won(events)[0]["seat"] == 2  # the first Jester, not the Fairy


def test_r21_for_the_lead_suit_the_dragon_is_a_wizard_and_the_fairy_a_jester() -> None:
    state = three([["R5", "G2"], ["DR", "R3"], ["G9", "R8"]], bids=(0, 0, 0))
    state, _ = act(state, 1, Play("DR"))
    assert state.lead_suit is None and sorted(rules.legal_cards(state)) == ["G9", "R8"]
    state = three([["R5", "G2"], ["FA", "R3"], ["G9", "R8"]], bids=(0, 0, 0))
    state, _ = plays(state, (1, Play("FA")), (2, Play("G9")))
    assert state.lead_suit == "green" and rules.legal_cards(state) == ["G2"]


# -- R22 ----------------------------------------------------------------------------------------
def test_r22_a_bombed_trick_is_won_by_nobody_and_its_would_be_winner_leads() -> None:
    state = three([["R9", "G1"], ["R3", "G2"], ["BO", "G3"]])
    state, events = plays(state, (1, Play("R3")), (2, Play("BO")), (0, Play("R9")))
    assert won(events) == [{"type": "trick_won", "seat": None, "winner": None, "leads": 0}]
    assert state.tricks_won == [0, 0, 0] and state.to_act == 0
    view = seat_view(state, 1)
    assert view["round"] is not None and view["round"]["last_trick"] is not None
    assert view["round"]["last_trick"]["winner"] is None


def test_r22_a_bomb_led_is_a_jester_for_the_lead_suit() -> None:
    state = three([["R9", "G1"], ["BO", "G2"], ["R3", "G3"]])
    state, _ = plays(state, (1, Play("BO")), (2, Play("R3")))
    assert state.lead_suit == "red" and rules.legal_cards(state) == ["R9"]
    state, events = act(state, 0, Play("R9"))
    assert won(events)[0]["seat"] is None and state.to_act == 0


def test_r22_a_round_with_a_bomb_has_one_trick_fewer_to_score() -> None:
    state = three([["R9"], ["R3"], ["BO"]], bids=(0, 0, 1))
    state, events = plays(state, (1, Play("R3")), (2, Play("BO")), (0, Play("R9")))
    scored = next(event for event in events if event["type"] == "round_scored")
    assert sum(state.scores[-1]["tricks"]) == 0
    assert scored["points"] == [-10, 20, 20]  # seat 0, the dealer, bid 1


# -- R23 ----------------------------------------------------------------------------------------
def test_r23_the_werewolf_swaps_with_the_turned_up_card_and_its_holder_chooses_trump() -> None:
    state = table([["R1", "R2"], ["WW", "G5"], ["B1", "B2"]], turned="Y7", dealer=0)
    assert state.turned_up == "WW" and sorted(state.hands[1]) == ["G5", "Y7"]
    assert state.phase == CHOOSING_TRUMP and state.to_act == 1 and state.werewolf == 1
    assert rules.legal_suits(state) == ["red", "green", "blue", "yellow", "none"]
    assert seat_view(state, 0)["round"]["werewolf"] == 1  # type: ignore[index]
    state, _ = act(state, 1, ChooseTrump("none"))
    assert state.trump is None and state.phase == BIDDING


def test_r23_the_werewolf_replaces_the_dealers_choice_after_a_wizard() -> None:
    state = table([["R1"], ["G5"], ["WW"]], turned="W3", dealer=0)
    assert state.to_act == 2 and state.hands[2] == ("W3",)
    assert refused(state, 0, ChooseTrump("red")) == "not_your_turn"
    state, _ = act(state, 2, ChooseTrump("blue"))
    assert state.trump == "blue"


def test_r23_in_the_blind_round_the_card_taken_stays_hidden_from_its_holder() -> None:
    state = table([["R1"], ["WW"], ["B1"]], turned="Y7", blind_first_round=True)
    assert state.hands[1] == ("Y7",)
    mine, theirs = seat_view(state, 1), seat_view(state, 0)
    assert mine["hand"] is None and "1" not in mine["visible_hands"]
    assert theirs["visible_hands"]["1"] == ["Y7"]
    assert auto_move(state) == ChooseTrump("red")  # R26: sees none of their cards


# -- R24: the Juggler ---------------------------------------------------------------------
def test_r24_a_juggler_names_its_suit_and_counts_as_seven_and_a_half() -> None:
    state = three([["R8", "G1"], ["JU", "G2"], ["R7", "G3"]])
    state, events = plays(state, (1, Play("JU", "red")), (2, Play("R7")), (0, Play("R8")))
    assert won(events)[0]["seat"] == 0
    state = three([["R8", "G1"], ["JU", "G2"], ["R7", "G3"]])
    state, events = plays(state, (1, Play("JU", "red")), (2, Play("R7")))
    assert state.lead_suit == "red"
    assert seat_view(state, 0)["round"]["trick"]["cards"][0] == {  # type: ignore[index]
        "seat": 1,
        "card": "JU",
        "suit": "red",
    }


def test_r24_a_juggler_named_trump_is_trump() -> None:
    state = three([["R13", "G1"], ["R2", "G2"], ["JU", "G3"]], turned="B5")
    _, events = plays(state, (1, Play("R2")), (2, Play("JU", "blue")), (0, Play("R13")))
    assert won(events)[0]["seat"] == 2


def test_r24_a_juggler_or_cloud_without_a_suit_is_refused() -> None:
    state = three([["R8", "G1"], ["JU", "CL"], ["R7", "G3"]])
    assert refused(state, 1, Play("JU")) == "illegal_card"
    assert refused(state, 1, Play("CL", "wizard")) == "illegal_card"
    assert refused(state, 1, Play("JU", "purple")) == "illegal_card"
    with pytest.raises(Refusal) as caught:
        parse_move({"type": "play", "card": "CL"})
    assert caught.value.code == "illegal_card"
    with pytest.raises(Refusal):
        parse_move({"type": "play", "card": "R5", "suit": "red"})
    assert parse_move({"type": "play", "card": "JU", "suit": "red"}) == Play("JU", "red")


def juggled() -> tuple[State, list[Event]]:
    """Seat 0 wins a trick holding the Juggler; two cards are left in every hand."""
    state = three([["R9", "G1", "Y5"], ["JU", "G2", "Y6"], ["R7", "G3", "Y1"]], bids=(0, 0, 0))
    return plays(state, (1, Play("JU", "red")), (2, Play("R7")), (0, Play("R9")))


def test_r24_after_a_juggler_everyone_passes_a_card_left_from_the_left_of_the_winner() -> None:
    state, events = juggled()
    assert won(events)[0]["seat"] == 0
    assert state.phase == PASSING and state.to_act == 1
    assert seat_view(state, 1)["legal"] == {"passes": ["G2", "Y6"]}
    state, _ = act(state, 1, Pass("G2"))
    assert state.to_act == 2
    assert refused(state, 1, Pass("Y6")) == "not_your_turn"
    state, _ = act(state, 2, Pass("Y1"))
    state, events = act(state, 0, Pass("G1"))
    assert events[-1] == {"type": "cards_passed", "cards": ["G1", "G2", "Y1"]}
    assert sorted(state.hands[0]) == ["Y1", "Y5"]  # from seat 2 (its right)
    assert sorted(state.hands[1]) == ["G1", "Y6"]
    assert sorted(state.hands[2]) == ["G2", "G3"]
    assert state.phase == PLAYING and state.to_act == 0  # the winner leads


def test_r24_a_passed_card_is_seen_only_by_its_giver_then_by_giver_and_receiver() -> None:
    state, _ = juggled()
    state, chosen = act(state, 1, Pass("G2"))
    assert event_view(chosen[0], 1, blind_first_round=False)["card"] == "G2"  # type: ignore[typeddict-item]
    for other in (0, 2, None):
        assert event_view(chosen[0], other, blind_first_round=False)["card"] is None  # type: ignore[typeddict-item]
    assert "G2" not in str(seat_view(state, 2)) and "G2" not in str(seat_view(state, 0))
    state, _ = act(state, 2, Pass("Y1"))
    _, events = act(state, 0, Pass("G1"))
    passed = events[-1]
    assert event_view(passed, 1, blind_first_round=False)["cards"] == ["G1", "G2", None]  # type: ignore[typeddict-item]
    assert event_view(passed, None, blind_first_round=False)["cards"] == [None] * 3  # type: ignore[typeddict-item]


def test_r24_a_juggler_on_the_last_trick_passes_nothing() -> None:
    state = three([["R9"], ["JU"], ["R7"]], bids=(0, 0, 0))
    state, events = plays(state, (1, Play("JU", "red")), (2, Play("R7")), (0, Play("R9")))
    assert not [e for e in events if e["type"] in ("pass", "cards_passed")]
    assert state.scores and state.scores[-1]["tricks"] == [1, 0, 0]


# -- R24: the Cloud -----------------------------------------------------------------------
def test_r24_the_clouds_winner_changes_their_bid_before_the_next_trick() -> None:
    state = three([["R3", "G1"], ["CL", "G2"], ["R9", "G3"]], bids=(0, 1, 1))
    state, events = plays(state, (1, Play("CL", "red")), (2, Play("R9")), (0, Play("R3")))
    assert won(events)[0]["seat"] == 1  # a Cloud is 9 3/4: it beats the 9
    assert state.phase == ADJUSTING and state.to_act == 1
    assert seat_view(state, 1)["legal"] == {"adjust": [1]}  # a bid of 0 only goes up
    assert refused(state, 1, Adjust(-1)) == "illegal_bid"
    assert refused(state, 2, Play("G3")) == "not_your_turn"
    state, events = act(state, 1, Adjust(1))
    assert events[0] == {"type": "adjust", "seat": 1, "delta": 1}
    assert state.bids == [1, 1, 1] and state.phase == PLAYING and state.to_act == 1


def test_r24_a_cloud_on_the_last_trick_changes_the_bid_before_the_round_is_scored() -> None:
    state = three([["R3"], ["CL"], ["R9"]], bids=(1, 1, 1))
    state, _ = plays(state, (1, Play("CL", "red")), (2, Play("R9")), (0, Play("R3")))
    assert state.phase == ADJUSTING and state.to_act == 1  # the Cloud (9.75) beats the 9
    assert rules.legal_adjustments(state) == [-1, 1]
    state, _ = act(state, 1, Adjust(-1))
    assert state.scores[0]["bids"] == [1, 0, 1] and state.scores[0]["tricks"] == [0, 1, 0]
    assert state.scores[0]["points"] == [-10, -10, -10]


def test_r24_a_bombed_cloud_trick_changes_nobodys_bid() -> None:
    state = three([["R3"], ["CL"], ["BO"]], bids=(1, 1, 1))
    state, events = plays(state, (1, Play("CL", "red")), (2, Play("BO")), (0, Play("R3")))
    assert won(events)[0]["seat"] is None
    assert not [e for e in events if e["type"] == "adjust"] and state.scores[0]["bids"] == [1, 1, 1]


def test_r24_in_the_blind_round_a_juggler_names_its_suit_by_r26() -> None:
    state = table([["R5"], ["JU"], ["G9"]], turned="Y1", blind_first_round=True, bids=(0, 0, 0))
    # Seat 1 led the Juggler and named the suit it holds most of (none: red, R26): its 7½
    # beats the red 5, and the green 9 follows no suit.
    assert state.scores[0]["tricks"] == [0, 1, 0]
    assert state.scores[0]["points"] == [20, -10, 20]


# -- R25 ----------------------------------------------------------------------------------------
def test_r25_a_shapeshifter_played_as_a_wizard_is_the_first_wizard() -> None:
    state = three([["W1"], ["SH"], ["R13"]])
    _, events = plays(state, (1, Play("SH", "wizard")), (2, Play("R13")), (0, Play("W1")))
    assert won(events)[0]["seat"] == 1


def test_r25_a_shapeshifter_played_as_a_jester_leaves_the_lead_open_and_loses() -> None:
    state = three([["R5", "G1"], ["SH", "G2"], ["R2", "G3"]], bids=(0, 0, 0))
    state, _ = plays(state, (1, Play("SH", "jester")), (2, Play("R2")))
    assert state.lead_suit == "red" and rules.legal_cards(state) == ["R5"]
    state, events = act(state, 0, Play("R5"))
    assert won(events)[0]["seat"] == 0
    assert refused(three([["R5"], ["SH"], ["R2"]]), 1, Play("SH")) == "illegal_card"


def test_r25_a_shapeshifter_as_a_wizard_still_loses_to_the_dragon() -> None:
    state = three([["DR"], ["SH"], ["R13"]])
    _, events = plays(state, (1, Play("SH", "wizard")), (2, Play("R13")), (0, Play("DR")))
    assert won(events)[0]["seat"] == 0


# -- R26 ----------------------------------------------------------------------------------------
def test_r26_auto_moves_for_the_new_decisions() -> None:
    # A named suit: the lead suit if there is one, else the suit held most.
    state = three([["R5", "G1", "G4"], ["JU", "G2", "G5"], ["R2", "G3", "B1"]], bids=(0, 0, 0))
    assert auto_move(state) == Play("G2")  # the lowest card: a Juggler is 7.5
    state, _ = act(state, 1, Play("G2"))
    state, _ = act(state, 2, Play("G3"))
    assert auto_move(state) == Play("G1")
    state = three([["R5", "G1"], ["JU", "G2"], ["R2", "G3"]], bids=(0, 0, 0))
    state, _ = act(state, 1, Play("G2"))
    state, _ = act(state, 2, Play("G3"))
    state, _ = act(state, 0, Play("G1"))  # seat 2 leads
    state, _ = act(state, 2, Play("R2"))
    assert rules.declaration_for(state, 1, "JU") == "red"
    # A Shapeshifter: a Jester; the Fairy and the Bomb lowest of all.
    state = three([["SH", "R1"], ["FA", "BO", "J1"][:2], ["G2", "R3"]], bids=(0, 0, 0))
    assert auto_move(state) == Play("FA")
    state = three([["SH", "W1"], ["G1", "G2"], ["G3", "G4"]], bids=(0, 0, 0))
    state, _ = plays(state, (1, Play("G1")), (2, Play("G3")))
    assert auto_move(state) == Play("W1")  # the Shapeshifter ranks above the Wizards
    assert rules.declaration_for(state, 0, "SH") == "jester"


def test_r26_auto_pass_gives_the_highest_card_and_the_cloud_moves_toward_the_tricks_won() -> None:
    state, _ = juggled()
    assert auto_move(state) == Pass("Y6")
    state = three([["R3", "G1"], ["CL", "G2"], ["R9", "G3"]], bids=(2, 1, 1))
    state, _ = plays(state, (1, Play("CL", "red")), (2, Play("R9")), (0, Play("R3")))
    # Seat 1 bid 2 and won 1 so far: above, and at least 1, so -1.
    assert state.to_act == 1 and auto_move(state) == Adjust(-1)


def test_r26_the_werewolfs_auto_choice_is_never_no_trump() -> None:
    state = table([["R1", "R2"], ["WW", "G5"], ["B1", "B2"]], turned="G7")
    assert auto_move(state) == ChooseTrump("green")


# -- every card together ------------------------------------------------------------------------
def test_a_game_with_every_special_card_replays_and_restores() -> None:
    state, history = rules.start_game(players=4, seed=SEED, special_cards=ALL)
    while not state.is_over:
        turn = rules.decision(state)
        assert turn is not None
        state, new = rules.take_turn(state, turn[0], auto_move(state), seed=SEED, auto=True)
        history += new
    assert replay(history) == state
    assert State.from_json(state.to_json()) == state
    assert history[0]["special_cards"] == list(ALL)  # type: ignore[typeddict-item]
    assert {event["type"] for event in history} >= {"werewolf", "pass", "cards_passed", "adjust"}
