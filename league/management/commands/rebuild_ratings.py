"""Recompute every rating and standing from the league games, in the order they were rated."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from league.services import ratings_rebuild


class Command(BaseCommand):
    help = __doc__

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        games = ratings_rebuild()
        elapsed = time.perf_counter() - started
        rate = games / elapsed if elapsed else 0.0
        self.stdout.write(
            f"rebuilt ratings from {games} league games in {elapsed:.1f} s ({rate:.0f} games/s)"
        )
