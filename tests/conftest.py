"""Shared test set-up: which tests need which real service.

`postgres` tests run only when the database is PostgreSQL (`.ci/run` runs the suite a second
time on PostgreSQL and fails at once if the server is not there). Tests that need Redis or
Chromium skip where those are missing, except under REQUIRE_SERVICES=1 (CI), where they fail.
"""

from __future__ import annotations

import os

import pytest
from django.db import connection

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The slow browser tests run last, so the quick ones report first.
    items.sort(key=lambda item: item.get_closest_marker("e2e") is not None)
    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: runs in the DATABASE_URL=postgres:// pass")
    for item in items:
        if item.get_closest_marker("postgres") is not None:
            item.add_marker(skip)
