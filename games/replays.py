"""Replays: a finished game step by step, each frame the table after one event as the engine's
state shows it (every hand, since the game is over). The page draws frames and derives no rule
of its own."""

from __future__ import annotations

from typing import Any

from games import engine
from games.engine import State
from games.engine.views import trick_card
from games.models import Game
from games.selectors import game_events


def replay_frames(game: Game) -> list[dict[str, Any]]:
    """A finished game step by step for the replay page: after each event (its `seq`), the
    table as the engine's state shows it."""
    frames: list[dict[str, Any]] = []
    state = State()
    for row in game_events(game, after=0):
        state = engine.apply(state, row.payload)
        event = {**row.payload, "auto": row.auto}
        frames.append({"seq": row.seq, "event": event, "table": _replay_table(state)})
    return frames


def _replay_table(state: State) -> dict[str, Any]:
    """The table after one event: a trick just won stays shown with its winner (None for a
    bombed trick, R22)."""
    trick, winner = state.trick, None
    if not trick and state.last_trick is not None and state.phase != "bidding":
        winner, trick = state.last_trick
    return {
        "round": state.round,
        "dealer": state.dealer if state.round else None,
        "trump_card": state.turned_up,
        "trump": state.trump,
        "phase": state.phase,
        "bids": list(state.bids),
        "tricks_won": list(state.tricks_won),
        # A declared Juggler, Cloud or Shapeshifter with its `suit` or `as` (R24, R25).
        "trick": [trick_card(seat, shown) for seat, shown in trick],
        "trick_winner": winner,
        "hands": [engine.sort_hand(hand) for hand in state.hands],
        "totals": list(state.totals),
        "to_act": state.to_act,
    }
