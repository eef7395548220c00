"""wizardsite.infra: the kombu workaround skips the restore of unacked tasks only through a
connection already gone, and kombu and Django are the versions each piece was checked on
(the HTTP door itself: test_http_threads.py)."""

from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

import django
import kombu

from wizardsite import infra


def qos(client: object) -> SimpleNamespace:
    return SimpleNamespace(channel=SimpleNamespace(connection=SimpleNamespace(client=client)))


def test_a_collected_connection_restores_nothing() -> None:
    with mock.patch.object(infra, "_restore_unacked") as restore:
        assert infra._restore_unless_disconnected(qos(None)) is None
    restore.assert_not_called()


def test_a_live_connection_restores_as_kombu_does() -> None:
    live = qos(object())
    with mock.patch.object(infra, "_restore_unacked", return_value="restored") as restore:
        assert infra._restore_unless_disconnected(live) == "restored"
        given = object()
        infra._restore_unless_disconnected(qos(None), given)  # a client given: kombu's own
    assert restore.call_args_list == [mock.call(live, None), mock.call(mock.ANY, given)]


def test_kombu_is_the_version_the_workaround_was_checked_on() -> None:
    # A new kombu may fix the bug or move the code: check it (tests/faults) before the pin.
    assert tuple(int(part) for part in kombu.__version__.split(".")[:2]) == infra.KOMBU_PIN


def test_django_is_the_version_the_http_door_was_measured_on() -> None:
    # A new Django may make its own ASGI handler cheap enough: measure it (bench/live.py, REST
    # mode, docs/architecture.md) before the pin moves.
    assert django.VERSION[:2] == infra.DJANGO_PIN
