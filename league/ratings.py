"""Ratings from final standings with openskill's Plackett-Luce model (no hand-rolled Elo)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 5  # fewer league games than this: the rating is still settling


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating shown to players: mu − 3σ."""
        return self.mu - 3 * self.sigma


@cache
def model() -> PlackettLuce:
    return PlackettLuce()


def initial_skill() -> Skill:
    rating = model().rating()
    return Skill(rating.mu, rating.sigma)


def rate(skills: list[Skill], places: list[int]) -> list[Skill]:
    """New skills after one game; `places` are final places (1 = best, ties share, R15)."""
    teams = [[model().rating(mu=skill.mu, sigma=skill.sigma)] for skill in skills]
    rated = model().rate(teams, ranks=[float(place) for place in places])
    return [Skill(team[0].mu, team[0].sigma) for team in rated]


def display(ordinal: float) -> float:
    """A rating as the API and pages show it."""
    return round(ordinal, 2)
