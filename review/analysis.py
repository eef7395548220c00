"""The expert's second opinion on every decision the players of a finished game made: each
state rebuilt by replaying the game's events, each seat asked from its own view at that moment
(at a table with special cards, R20, from what special_search.read_seen lets it know)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import engine
from games.engine import Adjust, Bid, ChooseTrump, Move, Pass, Play, State
from games.engine import events as ev
from games.engine.opinion import Opinion, second_opinion, special_opinion
from games.engine.special_search import read_seen
from games.models import Event, Game, Seat

KIND_OF_EVENT = {
    "trump_chosen": "trump",
    "bid": "bid",
    "play": "play",
    "pass": "pass",
    "adjust": "adjust",
}


@dataclass(frozen=True)
class Decision:
    seq: int
    seat: int
    round: int
    kind: str
    choice: str
    expert_choice: str
    points: float


def game_decisions(game: Game, seats: list[Seat], budget_ms: float) -> list[Decision]:
    """Each decision a person made themselves (the timer's auto-moves left out), with what the
    expert would have chosen from that seat's view and the points it expects that to gain."""
    people = {seat.number for seat in seats if not seat.is_bot}
    decisions: list[Decision] = []
    state = State()
    for row in Event.objects.filter(game=game).order_by("seq"):
        seat = row.payload.get("seat")
        if row.type in KIND_OF_EVENT and not row.auto and seat in people:
            chosen = _move(row.payload)
            opinion = _opinion(state, seat, chosen, f"{game.seed}:review:{row.seq}", budget_ms)
            decisions.append(
                Decision(
                    seq=row.seq,
                    seat=seat,
                    round=state.round,
                    kind=KIND_OF_EVENT[row.type],
                    choice=_text(chosen),
                    expert_choice=_text(opinion.best),
                    points=round(max(opinion.gain, 0.0), 1),
                )
            )
        state = engine.apply(state, row.payload)
    return decisions


def _opinion(state: State, seat: int, chosen: Move, seed: str, budget_ms: float) -> Opinion:
    if state.special_cards:
        return special_opinion(read_seen(state, seat), chosen, seed=seed, budget_ms=budget_ms)
    view, history = engine.seat_view(state, seat), engine.round_history(state, seat)
    return second_opinion(view, seat, history, chosen, seed=seed, budget_ms=budget_ms)


def _move(payload: dict[str, Any]) -> Move:
    match payload["type"]:
        case "bid":
            return Bid(payload["bid"])
        case "play":
            return Play(payload["card"], ev.declared(payload))  # type: ignore[arg-type]
        case "pass":
            return Pass(payload["card"])
        case "adjust":
            return Adjust(payload["delta"])
    return ChooseTrump(payload["suit"])


def _text(move: Move) -> str:
    """A choice as the review stores it: the bid, the card's face (a card code, or with what it
    was declared, `JU:red`), the card passed, the Cloud's change (`+1`, `-1`) or the suit."""
    if isinstance(move, Bid):
        return str(move.bid)
    if isinstance(move, Play):
        return move.face
    if isinstance(move, Pass):
        return move.card
    if isinstance(move, Adjust):
        return f"{move.delta:+d}"
    return move.suit
