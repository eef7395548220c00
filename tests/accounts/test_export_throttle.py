"""The data export is throttled per player: it is the heaviest answer the site makes, so a
player who asks again and again gets 429 `rate_limited` with Retry-After, and nobody else is
held back by it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.games.helpers import API, Player, assert_error, set_rate

pytestmark = pytest.mark.django_db

EXPORT = f"{API}/accounts/me/export/"


@pytest.fixture
def export_twice_an_hour(settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = True
    set_rate(settings, "export", "2/hour")


def test_a_player_past_the_export_rate_gets_429_and_another_player_is_unaffected(
    make_player: Callable[..., Player], export_twice_an_hour: None
) -> None:
    asker, other = make_player("asker"), make_player("other")
    for _ in range(2):
        assert asker.client.get(EXPORT).status_code == 200
    refused = asker.client.get(EXPORT)
    assert_error(refused, 429, "rate_limited")
    assert int(refused["Retry-After"]) >= 1
    assert other.client.get(EXPORT).status_code == 200
