"""Engine throughput on one core: full 4-player games through the engine's public interface,
and random playouts (whole games) through the fast path the search bots use.

    python bench/engine.py [--seconds S]

Each turn asks for the legal moves, picks one, and applies the resulting events (take_turn).
The fast path (games/engine/playout.py) plays the same rules on small integers. The last three
lines are the figures the README records.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import bot_move, legal_moves, make_bot, start_game, take_turn
from games.engine.moves import Move
from games.engine.playout import random_game as fast_random_game
from games.engine.state import State

PLAYERS = 4


def random_game(game_number: int) -> State:
    seed = f"bench-{game_number}"
    rng = random.Random(game_number)
    state, _ = start_game(players=PLAYERS, seed=seed)
    while not state.is_over:
        move = rng.choice(legal_moves(state))
        state, _ = take_turn(state, state.to_act or 0, move, seed=seed)
    return state


def heuristic_game(game_number: int) -> State:
    seed = f"bench-{game_number}"
    bots = [make_bot("heuristic") for _ in range(PLAYERS)]
    state, _ = start_game(players=PLAYERS, seed=seed)
    while not state.is_over:
        seat = state.to_act or 0
        move: Move = bot_move(bots[seat], state, seat)
        state, _ = take_turn(state, seat, move, seed=seed)
    return state


def fast_game(game_number: int) -> list[int]:
    return fast_random_game(PLAYERS, random.Random(game_number))


def games_per_second(play: Callable[[int], object], seconds: float) -> float:
    played = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        play(played)
        played += 1
    return played / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    random_rate = games_per_second(random_game, args.seconds)
    heuristic_rate = games_per_second(heuristic_game, args.seconds)
    print(f"engine: {random_rate:.0f} random {PLAYERS}-player games/s")
    print(f"engine: {heuristic_rate:.0f} heuristic-bot {PLAYERS}-player games/s")
    fast_rate = games_per_second(fast_game, args.seconds)
    print(f"fast path: {fast_rate:.0f} random {PLAYERS}-player playouts (whole games)/s")


if __name__ == "__main__":
    main()
