"""The game's figures for operators: moves by kind and door, timer lateness, open sockets.

Counted in this process; wizardsite.metrics serves them (summed over the web processes in
prometheus-client's multiprocess mode)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from prometheus_client import Counter, Gauge, Histogram

from games import engine
from games.models import Event

Door = Literal["rest", "socket", "timer", "bot"]

# The engine's event types of the seats' decisions, by the names operators know.
MOVE_KINDS = {
    "trump_chosen": "trump",
    "bid": "bid",
    "play": "play",
    "pass": "pass",
    "adjust": "adjust",
}

moves = Counter("wizard_moves", "Decisions applied, by kind and door.", ["kind", "door"])
auto_move_lateness = Histogram(
    "wizard_auto_move_lateness_seconds",
    "How long after a turn's deadline the timer made its auto-move (R16).",
    buckets=(0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300),
)
timer_failures = Counter(
    "wizard_timer_failures",
    "Overdue games the turn timer's sweep could not settle (each logged with its game).",
)
open_sockets = Gauge(
    "wizard_open_sockets",
    "Websockets open (games, the lobby and ws/me).",
    multiprocess_mode="livesum",
)


def moves_count(rows: Iterable[Event], door: Door) -> None:
    """Count the decisions among committed event rows, as made through `door`."""
    for row in rows:
        if row.type in engine.PLAYER_DECISIONS:
            moves.labels(kind=MOVE_KINDS.get(row.type, row.type), door=door).inc()


def timer_moves_count(rows: Iterable[Event], lateness: Iterable[float]) -> None:
    """The timer's committed auto-moves (R16): their decisions, and how late each came."""
    moves_count(rows, "timer")
    for seconds in lateness:
        auto_move_lateness.observe(seconds)
