"""The easy bot (`novice`): legal at every table size, not a random bidder, and weaker than the
heuristic on the same deals, seat-rotated (a duplicate arena, deterministic)."""

from __future__ import annotations

import pytest

from games.engine import Bid, bot_move, make_bot, seat_view, start_game, take_turn
from games.engine.bots import HeuristicBot
from tests.engine.test_views_and_bots import Table, bots_chooser, final_state


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", [(True, True), (False, False)])
def test_novice_bot_finishes_whole_games_with_legal_moves_only(
    players: int, options: tuple[bool, bool]
) -> None:
    table = Table(players, f"novice-{players}", *options)
    final = final_state(table, bots_chooser(["novice"] * players, players))  # checked legal
    assert final.is_over and len(final.scores) == 60 // players


def test_novice_bids_stay_within_one_of_the_heuristic_and_often_match_it() -> None:
    """Not uniform random bids: a slip is one off the hand's worth, and most bids are sound."""
    same = off_by_one = 0
    for game in range(40):
        state, _ = start_game(players=4, seed=f"bids-{game}", blind_first_round=False)
        for _ in range(3):  # a few rounds in, so hands of several cards are bid
            while state.phase == "bidding" or state.phase == "choosing_trump":
                seat = state.to_act
                assert seat is not None
                move = bot_move(make_bot("novice", f"n-{game}-{state.seq}"), state, seat)
                sound = HeuristicBot().choose(seat_view(state, seat), seat)
                if isinstance(move, Bid) and isinstance(sound, Bid):
                    assert abs(move.bid - sound.bid) <= 1
                    same += move.bid == sound.bid
                    off_by_one += move.bid != sound.bid
                state, _ = take_turn(state, seat, move, seed=f"bids-{game}")
            while state.phase == "playing":
                seat = state.to_act
                assert seat is not None
                move = bot_move(HeuristicBot(), state, seat)
                state, _ = take_turn(state, seat, move, seed=f"bids-{game}")
    assert same > 1.2 * off_by_one > 0, (same, off_by_one)


def test_novice_scores_less_than_the_heuristic_on_the_same_deals() -> None:
    """Each deal is played twice with the kinds swapped seat for seat, so the cards cancel."""
    points = {"novice": 0, "heuristic": 0}
    exact = {"novice": 0, "heuristic": 0}
    for deal in range(12):
        players = 4
        table = Table(players, f"duplicate-{deal}", deal % 2 == 0, False)
        for swap in (0, 1):
            kinds = [("novice", "heuristic")[(seat + swap) % 2] for seat in range(players)]
            final = final_state(table, bots_chooser(kinds, deal * 10))
            for seat, kind in enumerate(kinds):
                points[kind] += final.totals[seat]
                exact[kind] += sum(r["bids"][seat] == r["tricks"][seat] for r in final.scores)
    assert points["heuristic"] > points["novice"] + 12 * 2 * 40, points  # 40+ a seat-game
    assert exact["heuristic"] > exact["novice"], exact
