"""What one write to a game did, computed once under its lock: the doors answer from it, and
games.dispatch tells everyone else once it has committed."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Literal

from games import engine, selectors
from games.engine import State
from games.models import Event, Game, Seat
from games.selectors import GameView

Actor = Literal["person", "bot", "blind", "nobody"]


def next_actor(state: State | None, seats: list[Seat]) -> Actor:
    """Who acts next: a person, a bot, the blind trick's next card (R9), or nobody."""
    if state is None or state.is_over or state.to_act is None:
        return "nobody"
    if engine.blind_trick_pending(state):
        return "blind"
    acting = next(seat for seat in seats if seat.number == state.to_act)
    return "bot" if acting.is_bot else "person"


@dataclass(frozen=True)
class PersonTurn:
    """A decision this change made due from a person; `again`: they made the one before it
    themselves (they are there, nobody needs to tell them)."""

    user_id: int
    deadline: datetime
    again: bool


@dataclass(frozen=True)
class Outcome:
    """A committed change of one game: the game and seats as they now stand, the event rows it
    appended, the next step a task makes (a bot or the blind trick, after `step_delay_ms`),
    the timer's task, the person whose turn it started, whether the game finished, whether the
    lobby changed (a table's seats or status: its players' lists of games too) and whether a
    round was scored (what the lists of games to watch show)."""

    game: Game
    seats: list[Seat]
    state: State | None
    rows: list[Event] = field(default_factory=list)
    step_delay_ms: int | None = None
    timer_due: datetime | None = None  # a deadline near enough for a task of its own (R16)
    turn: PersonTurn | None = None
    finished: bool = False
    lobby: bool = False
    scored: bool = False
    departed: frozenset[int] = frozenset()  # users who left the table
    changed: bool = True  # False: the game as it stood, nothing to tell anyone

    def then(self, later: Outcome) -> Outcome:
        """This change followed by a later one in the same transaction, as one."""
        return replace(
            later,
            rows=self.rows + later.rows,
            finished=self.finished or later.finished,
            lobby=self.lobby or later.lobby,
            scored=self.scored or later.scored,
            departed=self.departed | later.departed,
            changed=self.changed or later.changed,
        )

    @cached_property
    def views(self) -> tuple[dict[int, GameView], GameView]:
        """Each seated user's view (by user id) and the public one, built once."""
        return selectors.game_views(self.game, self.seats, self.state)

    def view_for(self, user_id: int | None) -> GameView:
        own, public = self.views
        return own.get(user_id, public) if user_id is not None else public


def chain(outcomes: list[Outcome]) -> Outcome | None:
    """Several changes of one game in one transaction, as one (None: none)."""
    if not outcomes:
        return None
    total = outcomes[0]
    for later in outcomes[1:]:
        total = total.then(later)
    return total
