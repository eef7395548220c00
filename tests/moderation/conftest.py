"""Fixtures for the moderation tests: the Moderators group, moderators and plain staff behind
test clients, players signed up through the API, running tables, and recorded pushes."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from django.test import Client

from games import push
from games.models import Game
from tests.games.helpers import Player, seat_players

# The migration's module name starts with a digit: import it by name.
MODERATOR_PERMISSIONS: dict[str, list[str]] = importlib.import_module(
    "accounts.migrations.0002_moderators_group"
).MODERATOR_PERMISSIONS


@pytest.fixture
def moderators(db: None) -> Group:
    """The group made by accounts/migrations/0002; made again from the migration's list after
    a transactional test's flush removed it (data migrations do not survive a flush)."""
    group, created = Group.objects.get_or_create(name="Moderators")
    if created:
        group.permissions.set(
            Permission.objects.get(
                content_type__app_label__in=[app, "moderation"] if app == "accounts" else [app],
                codename=codename,
            )
            for app, codenames in MODERATOR_PERMISSIONS.items()
            for codename in codenames
        )
    return group


@pytest.fixture
def moderator(moderators: Group) -> User:
    user = User.objects.create_user("mod", "mod@example.com", "x", is_staff=True)
    user.groups.add(moderators)
    return user


@pytest.fixture
def mod_client(moderator: User) -> Client:
    client = Client()
    client.force_login(moderator)
    return client


@pytest.fixture
def staff(db: None) -> User:
    """Staff without the group or any permission: may open the admin, may not moderate."""
    return User.objects.create_user("clerk", "clerk@example.com", "x", is_staff=True)


@pytest.fixture
def staff_client(staff: User) -> Client:
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def players(make_player: Callable[..., Player]) -> list[Player]:
    return [make_player() for _ in range(3)]


@pytest.fixture
def running(players: list[Player]) -> Game:
    """A started all-human table of three; player i sits in seat i."""
    return Game.objects.get(pk=seat_players(players, blind_first_round=False))


@pytest.fixture
def pushes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Every (group, message) given to games.push to send, instead of the channel layer."""
    sent: list[tuple[str, dict[str, Any]]] = []

    def send_many(messages: list[tuple[str, Any]], then: Callable[[], None] | None = None) -> None:
        sent.extend(messages)
        if then is not None:  # the change's next tasks, as the real push sends them
            then()

    monkeypatch.setattr(push, "send_many", send_many)
    return sent


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Any) -> None:
    # A fresh layer per test (changing the setting drops the cached one): pushes stay in this
    # process and nothing is left over from another test's event loop.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def refusals_unlogged(caplog: pytest.LogCaptureFixture) -> None:
    """Django logs each refused admin filter with its traceback; tests here send hundreds."""
    caplog.set_level(logging.CRITICAL, logger="django.security")
