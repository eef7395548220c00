"""A whole game of R2's 20 rounds for three people, dealt from the seed of the browser's
three-player game (which plays the lobby's rounds 1 to 3 through the pages, to its end): at
the first trick of every round each seat's view holds its own hand and no card of another's
(in the blind round 1, R9, only the others' cards); at the end the score sheet has a row for
each of the 20 rounds, its last totals are the final scores and the winners hold the most
points (R15)."""

from __future__ import annotations

import json
import random
from typing import Any

from games.engine import State, View, legal_moves, seat_view, sort_hand, start_game, take_turn
from games.engine.cards import CARDS

SEED = "three-player-2"  # tests/e2e/test_three_player_game.py's deal
PLAYERS = 3


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    text = json.dumps(value)
    return {code for code in CARDS if f'"{code}"' in text}


def check_hands(state: State, views: list[View]) -> None:
    """Each seat sees its own hand and no card of another's (R9: the reverse in round 1)."""
    blind = state.blind_first_round and state.round == 1
    for seat, view in enumerate(views):
        others = {code for s, hand in enumerate(state.hands) if s != seat for code in hand}
        if blind:
            assert view["hand"] is None
            assert view["visible_hands"] == {
                str(s): sort_hand(hand) for s, hand in enumerate(state.hands) if s != seat
            }
            hidden = set(state.hands[seat])
        else:
            assert view["hand"] == sort_hand(state.hands[seat])
            assert view["visible_hands"] == {}
            hidden = others
        # The last trick's cards were played in public, perhaps in the round before (and dealt
        # again since): everything else in the view.
        shown = {**view, "round": {**view["round"], "last_trick": None}} if view["round"] else view
        assert not cards_in(shown) & hidden, (state.round, seat)


def test_three_people_see_only_their_own_hand_in_every_round_of_a_whole_game() -> None:
    state, _ = start_game(players=PLAYERS, seed=SEED, hook_rule=True, blind_first_round=True)
    rng = random.Random(2024)
    checked: list[int] = []
    while not state.is_over:
        first_trick = state.phase == "playing" and not state.trick and not sum(state.tricks_won)
        if state.round not in checked and (first_trick or state.round == 1):
            check_hands(state, [seat_view(state, seat) for seat in range(PLAYERS)])
            checked.append(state.round)
        assert state.to_act is not None
        move = rng.choice(legal_moves(state))
        state, _ = take_turn(state, state.to_act, move, seed=SEED)
    assert checked == list(range(1, 21))
    final = seat_view(state, 0)
    assert [row["round"] for row in final["scores"]] == list(range(1, 21))
    assert final["scores"][-1]["totals"] == final["totals"]
    best = max(final["totals"])
    assert final["winners"] == [s for s, total in enumerate(final["totals"]) if total == best]
