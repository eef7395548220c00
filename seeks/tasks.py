"""Celery tasks of Play now: a thin wrapper around seeks.services."""

from __future__ import annotations

from celery import shared_task

from seeks import services


@shared_task(ignore_result=True)
def sweep() -> int:
    """R28 (beat, every second): end absent players' live seeks, then seat what can be."""
    return services.seeks_sweep()
