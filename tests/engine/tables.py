"""Random tables for the engine's property tests: seats, seed and the two table options."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from games.engine import Event, State, start_game


@dataclass(frozen=True)
class Table:
    players: int
    seed: str
    hook_rule: bool
    blind_first_round: bool


tables = st.builds(
    Table,
    players=st.integers(min_value=3, max_value=6),
    seed=st.text(max_size=16),
    hook_rule=st.booleans(),
    blind_first_round=st.booleans(),
)


def start(table: Table) -> tuple[State, list[Event]]:
    """The table's game, dealt (R3–R5)."""
    return start_game(
        players=table.players,
        seed=table.seed,
        hook_rule=table.hook_rule,
        blind_first_round=table.blind_first_round,
    )
