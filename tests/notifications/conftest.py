"""Fixtures of the notification tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from celery.signals import task_retry


@pytest.fixture
def retries() -> Iterator[list[BaseException]]:
    """The retries Celery makes while the test runs (each one's reason)."""
    seen: list[BaseException] = []

    def on_retry(sender: object, reason: BaseException, **_: object) -> None:
        seen.append(reason)

    task_retry.connect(on_retry, weak=False)
    try:
        yield seen
    finally:
        task_retry.disconnect(on_retry)
