"""Bot difficulty as players choose it (easy, medium, hard) and the engine bot behind each.

Seats store the engine's kind (`Seat.bot_kind`), so tables made before difficulties existed
(`random`, `heuristic`, `expert`) keep playing as they did; `DEFAULT_BOT` may name either.
"""

from __future__ import annotations

from typing import Final, Literal

from django.conf import settings

from core.errors import Invalid
from games import engine

Difficulty = Literal["easy", "medium", "hard"]

DIFFICULTIES: Final[dict[str, str]] = {"easy": "novice", "medium": "heuristic", "hard": "expert"}
# The difficulty each engine kind plays at; the uniform random bot is weaker still than easy.
_OF_KIND: Final[dict[str, Difficulty]] = {
    "random": "easy",
    "novice": "easy",
    "heuristic": "medium",
    "expert": "hard",
}


def bot_kind_for(choice: str | None) -> str:
    """The engine kind for a difficulty or an engine kind (None: DEFAULT_BOT's)."""
    choice = choice or settings.DEFAULT_BOT
    kind = DIFFICULTIES.get(choice, choice)
    if kind not in engine.BOTS:
        raise Invalid(
            f"Unknown bot difficulty {choice!r}.", fields={"bot_kind": list(DIFFICULTIES)}
        )
    return kind


def difficulty_of(kind: str) -> Difficulty | None:
    """The difficulty a seat's bot plays at (None for a person's seat)."""
    return _OF_KIND.get(kind) if kind else None


def make_seat_bot(kind: str, seed: str) -> engine.Bot:
    """The engine bot of a seat; the expert thinks EXPERT_BOT_BUDGET_MS per decision."""
    return engine.make_bot(kind, seed=seed, budget_ms=settings.EXPERT_BOT_BUDGET_MS)
