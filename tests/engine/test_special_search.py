"""The expert at tables with special cards (R20–R26): it reads only what its seat may see,
deals the rest consistently with it, and searches every decision the special cards add."""

from __future__ import annotations

import random

import pytest

from games.engine import rules
from games.engine.bots import ExpertBot, bot_move, make_bot
from games.engine.cards import DECK_CODES, split_face
from games.engine.moves import Adjust, Bid, ChooseTrump, Move, Pass, Play
from games.engine.special_search import play_out, read_seen, sample, search
from games.engine.state import ADJUSTING, PASSING, State
from tests.engine.test_special_cards import ALL, act, plays, table, three

SAMPLES = 12  # a cap on deals, so that a decision does not depend on the machine's speed


def expert_move(state: State, seat: int, seed: str = "s") -> Move:
    return search(read_seen(state, seat), seed=seed, budget_ms=10_000, samples=SAMPLES)


def midway() -> State:
    """Four seats in round 3, a trick played (seat 2 showed it holds no red), the next led."""
    state = table(
        [["R5", "G7", "B2"], ["R9", "W1", "Y3"], ["G4", "B8", "J2"], ["R2", "Y12", "SH"]],
        turned="G1",
        bids=(1, 1, 0, 1),
    )
    return plays(state, (1, Play("R9")), (2, Play("G4")), (3, Play("R2")), (0, Play("R5")))[0]


def test_the_seat_sees_its_own_hand_only_and_the_rest_is_unseen() -> None:
    state = midway()
    seen = read_seen(state, 0)
    assert seen.table.hands[0] == state.hands[0]
    assert [seen.table.hands[s] for s in (1, 2, 3)] == [(), (), ()]
    assert seen.hidden == (0, 2, 2, 2)
    played = {split_face(shown)[0] for _, shown in state.round_plays}
    assert set(seen.pool).isdisjoint({*state.hands[0], *played, "G1"})
    hidden = {card for s in (1, 2, 3) for card in state.hands[s]}
    assert hidden <= set(seen.pool)  # the true deal is one of those it imagines
    with pytest.raises(ValueError):
        search(seen, seed="s", budget_ms=10)  # seat 2 is to act
    assert len(seen.pool) == len(DECK_CODES) + len(ALL) - 2 - 4 - 1
    assert seen.voids[2] == {"red"}


def test_what_the_seat_reads_does_not_depend_on_the_cards_it_cannot_see() -> None:
    state = midway()
    other = state.copy()
    other.hands[1], other.hands[3] = ("W1", "Y12"), ("Y3", "SH")  # two hidden cards change places
    assert state.to_act == 2
    assert read_seen(state, 2) == read_seen(other, 2)
    assert expert_move(state, 2) == expert_move(other, 2)


def test_every_sampled_deal_fits_what_the_seat_has_seen() -> None:
    state = midway()
    seen = read_seen(state, 0)
    rng = random.Random(1)
    for _ in range(50):
        world = sample(seen, rng)
        assert world.hands[0] == state.hands[0]
        assert [len(hand) for hand in world.hands] == [len(hand) for hand in state.hands]
        cards = [card for hand in world.hands for card in hand]
        assert len(cards) == len(set(cards)) and set(cards[2:]) <= set(seen.pool)
        assert not any(card.startswith("R") for card in world.hands[2])  # seat 2's void
        assert play_out(world.copy(), 0) in range(-40, 60)


def test_the_card_the_werewolf_took_stays_in_its_holders_hand_in_every_deal() -> None:
    # Seat 2 swaps the Werewolf for the turned-up Wizard, shown to all (R23).
    state = table([["R5", "G7"], ["R9", "Y3"], ["WW", "B8"], ["R2", "Y12"]], turned="W3")
    seen = read_seen(state, 0)
    assert seen.holds[2] == ("W3",) and "W3" not in seen.pool
    rng = random.Random(2)
    assert all("W3" in sample(seen, rng).hands[2] for _ in range(20))


def test_in_the_blind_round_the_seat_imagines_its_own_hand() -> None:
    state = table([["R5"], ["W1"], ["J2"], ["SH"]], turned="G1", blind_first_round=True)
    seen = read_seen(state, 1)
    assert seen.hidden == (0, 1, 0, 0)
    assert seen.table.hands[0] == ("R5",) and seen.table.hands[1] == ()
    assert "W1" in seen.pool
    move = expert_move(state, 1)
    assert isinstance(move, Bid)


def test_the_others_cards_to_pass_are_dealt_too_and_the_round_plays_on() -> None:
    state = three([["R9", "G1", "Y5"], ["JU", "G2", "Y6"], ["R7", "G3", "Y1"]], bids=(0, 0, 0))
    state = plays(state, (1, Play("JU", "red")), (2, Play("R7")), (0, Play("R9")))[0]
    state = act(state, 1, Pass("G2"))[0]
    assert state.phase == PASSING and state.to_act == 2
    seen = read_seen(state, 2)
    assert seen.passing == (1,) and seen.table.passes[1] is None
    assert "G2" in seen.pool  # seat 1's choice is face down
    world = sample(seen, random.Random(3))
    assert world.passes[1] is not None
    move = expert_move(state, 2)
    assert isinstance(move, Pass) and move.card in state.hands[2]
    assert play_out(world, 2, move) in (-20, -10, 20)


def test_a_sure_dragon_is_bid_as_a_trick_when_the_fairy_is_turned_up() -> None:
    # R21: with the Fairy face up, nothing can take the Dragon's trick.
    state = table([["R5"], ["DR"], ["G4"], ["Y3"]], turned="FA")
    assert state.to_act == 1
    assert expert_move(state, 1) == Bid(1)


def test_the_cloud_winner_changes_the_bid_toward_what_the_hand_still_wins() -> None:
    # Seat 1 bid 2, takes the Cloud's trick; its last two cards are low: one more trick is
    # out of reach, so the bid comes down to the tricks it has.
    state = three(
        [["R3", "G2", "Y1"], ["CL", "G1", "B1"], ["R2", "G3", "Y2"]],
        turned="W1",
        trump="red",
        bids=(2, 0, 0),
    )
    state = plays(state, (1, Play("CL", "red")), (2, Play("R2")), (0, Play("R3")))[0]
    assert state.phase == ADJUSTING and state.to_act == 1
    assert expert_move(state, 1) == Adjust(-1)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_expert_plays_whole_games_with_every_special_card(players: int) -> None:
    state, _ = rules.start_game(
        players=players, seed=f"expert-{players}", special_cards=ALL, rounds=3
    )
    bots = [make_bot("expert", seed=seat, budget_ms=50, samples=4) for seat in range(players)]
    assert all(isinstance(bot, ExpertBot) for bot in bots)
    kinds: set[str] = set()
    while not state.is_over:
        turn = rules.decision(state)
        assert turn is not None
        move = bot_move(bots[turn[0]], state, turn[0])
        kinds.add(turn[1])
        if isinstance(move, ChooseTrump):
            assert move.suit in rules.legal_suits(state)
        state = rules.take_turn(state, turn[0], move, seed=f"expert-{players}")[0]
    assert {"bid", "play"} <= kinds


def test_a_move_that_ends_the_round_is_scored_in_that_round() -> None:
    # The Cloud's change after the round's last trick (R24) scores the round at once: the
    # playout must not go on into the next deal.
    state = three([["R3"], ["CL"], ["R2"]], turned="Y1", bids=(0, 0, 0))
    state = plays(state, (1, Play("CL", "red")), (2, Play("R2")), (0, Play("R3")))[0]
    assert state.phase == ADJUSTING and state.to_act == 1
    world = sample(read_seen(state, 1), random.Random(4))
    assert play_out(world.copy(), 1, Adjust(1)) == 30  # bid 1, one trick won
    assert expert_move(state, 1) == Adjust(1)
