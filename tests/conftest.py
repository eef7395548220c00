"""Shared test set-up: tests that need a real service never skip silently in CI."""

from __future__ import annotations

import os

import pytest
from django.db import connection

# CI sets REQUIRE_SERVICES=1: there a test that needs a missing service fails instead of skipping.
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if connection.vendor == "postgresql":
        return
    for item in items:
        if item.get_closest_marker("postgres") is None:
            continue
        if REQUIRE_SERVICES:
            item.add_marker(pytest.mark.usefixtures("_fail_without_postgres"))
        else:
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL"))


@pytest.fixture
def _fail_without_postgres() -> None:
    pytest.fail("REQUIRE_SERVICES=1 but the database is not PostgreSQL: set DATABASE_URL.")
