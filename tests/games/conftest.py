"""Fixtures for the games API tests: players signed up through the API, tables, full games."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.games.helpers import Player


@pytest.fixture
def stranger(make_player: Callable[..., Player]) -> Player:
    """An authenticated user who sits at no table."""
    return make_player("stranger")
