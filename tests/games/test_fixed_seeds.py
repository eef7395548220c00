"""TEST_SHUFFLE_SEEDS: a test's header fixes the seed of the tables its request creates; no
header, or the setting off, and every seed is fresh. Production refuses the setting."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from unittest import mock

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from games.models import Game
from tests.games.helpers import Player

WITH_HEADER = override_settings(MIDDLEWARE=[*settings.MIDDLEWARE, "games.fixed_seeds.from_header"])


def create(player: Player, **headers: str) -> Game:
    answer = player.client.post(
        "/api/v1/games/", {"seats": 3, "bots": 2}, format="json", headers=headers
    )
    assert answer.status_code == 201, answer.json()
    return Game.objects.get(pk=answer.json()["id"])


@WITH_HEADER
def test_the_header_fixes_the_seed_of_the_table_it_creates(
    make_player: Callable[..., Player],
) -> None:
    first = create(make_player(), **{"X-Test-Shuffle-Seed": "scenario-1"})
    again = create(make_player(), **{"X-Test-Shuffle-Seed": "scenario-1"})
    assert first.seed == again.seed == "scenario-1"
    assert first.engine_state() == again.engine_state()  # the same deal, the bots' same answers


@WITH_HEADER
def test_without_the_header_or_with_a_bad_one_the_seed_is_fresh(
    make_player: Callable[..., Player],
) -> None:
    plain = create(make_player())
    too_long = create(make_player(), **{"X-Test-Shuffle-Seed": "x" * 65})
    assert len({plain.seed, too_long.seed}) == 2
    assert len(plain.seed) == len(too_long.seed) == 64


def test_without_the_setting_the_header_means_nothing(make_player: Callable[..., Player]) -> None:
    assert "games.fixed_seeds.from_header" not in settings.MIDDLEWARE
    game = create(make_player(), **{"X-Test-Shuffle-Seed": "scenario-1"})
    assert game.seed != "scenario-1"


def test_production_refuses_the_setting() -> None:
    env = {
        "SECRET_KEY": "x" * 50,
        "DATABASE_URL": "sqlite:///x.sqlite3",
        "TEST_SHUFFLE_SEEDS": "true",
    }
    with mock.patch.dict(os.environ, env):
        base = importlib.reload(importlib.import_module("wizardsite.settings.base"))
        try:
            with pytest.raises(ImproperlyConfigured, match="TEST_SHUFFLE_SEEDS"):
                importlib.reload(importlib.import_module("wizardsite.settings.production"))
        finally:
            os.environ.pop("TEST_SHUFFLE_SEEDS")
            importlib.reload(base)
