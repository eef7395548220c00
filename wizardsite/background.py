"""Run a command at the lowest CPU priority: `python -m wizardsite.background COMMAND [ARG...]`.

For the review worker (Procfile's `review`): the expert's review of finished games is heavy
work that nobody waits for, while moves are measured in milliseconds. Under Linux's SCHED_IDLE
a process runs only on a core that nothing else wants and gives it up at once when a web
process, PostgreSQL or Redis wakes; nice 10 still took slices from them (bench/live.py, socket
K=1: p99 16–18 ms with a niced review worker busy, 10 ms with it idle). Elsewhere: nice 19.
"""

from __future__ import annotations

import os
import sys


def lowest_priority() -> str:
    """Put this process (and what it runs next) at the lowest priority; returns which."""
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
            return "SCHED_IDLE"
        except OSError:  # a platform or sandbox that refuses it
            pass
    os.nice(19)
    return "nice 19"


def main(argv: list[str]) -> None:
    if not argv:
        sys.exit("usage: python -m wizardsite.background COMMAND [ARG...]")
    lowest_priority()
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main(sys.argv[1:])
