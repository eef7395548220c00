"""The expert's second opinion on every decision the players of a finished game made: each
state rebuilt by replaying the game's events, each seat asked from its own view at that moment."""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from games.engine import Bid, ChooseTrump, Move, Play, State
from games.engine.opinion import second_opinion
from games.models import Event, Game, Seat

KIND_OF_EVENT = {"trump_chosen": "trump", "bid": "bid", "play": "play"}


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
    expert would have chosen from that seat's view and the points it expects that to gain.
    The expert's search knows the 60 cards only: a game with special cards (R20) gets none."""
    people = {seat.number for seat in seats if not seat.is_bot}
    decisions: list[Decision] = []
    state = State()
    for row in Event.objects.filter(game=game).order_by("seq"):
        if state.special_cards:
            return []
        seat = row.payload.get("seat")
        if row.type in KIND_OF_EVENT and not row.auto and seat in people:
            chosen = _move(row.payload)
            opinion = second_opinion(
                engine.seat_view(state, seat),
                seat,
                engine.round_history(state, seat),
                chosen,
                seed=f"{game.seed}:review:{row.seq}",
                budget_ms=budget_ms,
            )
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


def _move(payload: dict[str, object]) -> Move:
    if payload["type"] == "bid":
        assert isinstance(payload["bid"], int)
        return Bid(payload["bid"])
    if payload["type"] == "play":
        return Play(str(payload["card"]))
    return ChooseTrump(str(payload["suit"]))


def _text(move: Move) -> str:
    """A choice as the review stores it: the bid, the card code or the suit."""
    if isinstance(move, Bid):
        return str(move.bid)
    if isinstance(move, Play):
        return move.card
    assert isinstance(move, ChooseTrump)
    return move.suit
