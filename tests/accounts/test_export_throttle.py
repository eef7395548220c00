"""The data export is throttled per player: it is the heaviest answer the site makes, so a
player who asks again and again gets 429 `rate_limited` with Retry-After, and nobody else is
held back by it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.signals import request_finished
from django.db import close_old_connections

from privacy.export import ExportStream
from tests.games.helpers import API, Player, assert_error, set_rate

pytestmark = pytest.mark.django_db

EXPORT = f"{API}/accounts/me/export/"


@pytest.fixture
def export_twice_an_hour(settings: Any) -> None:
    settings.RATE_LIMITS_ENABLED = True
    set_rate(settings, "export", "2/hour")


def exported(player: Player) -> int:
    """The export's status, its answer read to the end (the test client then closes it, as
    the server closes every answer)."""
    response = player.client.get(EXPORT)
    if response.status_code == 200:
        b"".join(response.streaming_content)
    return int(response.status_code)


def test_a_player_past_the_export_rate_gets_429_and_another_player_is_unaffected(
    make_player: Callable[..., Player], export_twice_an_hour: None
) -> None:
    asker, other = make_player("asker"), make_player("other")
    for _ in range(2):
        assert exported(asker) == 200
    refused = asker.client.get(EXPORT)
    assert_error(refused, 429, "rate_limited")
    assert int(refused["Retry-After"]) >= 1
    assert exported(other) == 200


def test_exports_at_once_are_bounded_and_a_finished_one_frees_its_place(
    make_player: Callable[..., Player], settings: Any
) -> None:
    """However many players ask, exports hold at most EXPORTS_AT_ONCE of a process's HTTP
    threads while their clients read; a place is free again once its answer is closed."""
    settings.EXPORTS_AT_ONCE = 1
    first, second = make_player("first"), make_player("second")
    reading = first.client.get(EXPORT)  # its client has not read it yet
    assert reading.status_code == 200
    busy = second.client.get(EXPORT)
    assert_error(busy, 429, "rate_limited")
    assert int(busy["Retry-After"]) >= 1
    # The server closes an answer once it is sent, or once its client has gone; here outside a
    # request, so without the end of request's database clean-up (as the test client does).
    request_finished.disconnect(close_old_connections)
    try:
        reading.close()
    finally:
        request_finished.connect(close_old_connections)
    assert exported(second) == 200


def test_an_export_read_to_its_end_or_dropped_unread_frees_its_place_unclosed(
    make_player: Callable[..., Player], settings: Any
) -> None:
    """A client that reads the whole answer but never closes it, or drops it unread, does not
    keep its place for good (a test harness, or a server that never calls close)."""
    settings.EXPORTS_AT_ONCE = 1
    user = User.objects.get(pk=make_player("reader").user_id)
    read = ExportStream.open(user)
    assert read is not None and ExportStream.open(user) is None  # the one place is taken
    assert "".join(read).endswith("]}")  # to its end, never closed
    dropped = ExportStream.open(user)
    assert dropped is not None and ExportStream.open(user) is None
    del dropped  # unread and unclosed
    last = ExportStream.open(user)
    assert last is not None
    last.close()
