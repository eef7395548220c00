"""The tournaments' figures for operators (served by wizardsite.metrics with the others)."""

from __future__ import annotations

from prometheus_client import Counter

step_failures = Counter(
    "wizard_tournament_step_failures",
    "Tournaments the scheduler's sweep could not step (each logged with its tournament).",
)
