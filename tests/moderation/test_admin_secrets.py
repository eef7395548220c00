"""No admin reads a secret field for anyone: not a filter (`?seed__startswith=`, the oracle
that reads a value a character at a time), not through a relation (`?game__state__icontains=`),
not a search, a sort, a column or a change page."""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from django.contrib import admin
from django.contrib.admin.utils import flatten_fieldsets
from django.contrib.auth.models import Permission, User
from django.test import RequestFactory
from django.utils import timezone

from apikit.secret_fields import SECRET
from games.models import Game
from notifications.models import Device, PushSubscription
from tests.games.helpers import Player, seat_players
from tests.moderation.admin_walk import (
    answered_lookups,
    change_page,
    changelist,
    client_of,
    paths_to,
    registered,
)
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def viewer(db: None) -> User:
    """Staff who may view every model (a moderator with more rights than the group gives)."""
    user = User.objects.create_user("viewer", "viewer@example.com", "x", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__startswith="view_"))
    return user


@pytest.fixture
def secrets_stored(make_player: Callable[..., Player]) -> list[str]:
    """A running game, a private tournament, a push subscription, a device, tokens:
    the secret values they hold."""
    people = [make_player() for _ in range(3)]
    game = Game.objects.get(pk=seat_players(people))
    owner = User.objects.get(pk=people[0].user_id)
    tournament = Tournament.objects.create(
        name="Cup",
        format="swiss",
        created_by=owner,
        starts_at=timezone.now(),
        rounds=3,
        turn_seconds=60,
        visibility="private",
    )
    subscription = PushSubscription.objects.create(
        user=owner,
        endpoint="https://fcm.googleapis.com/fcm/send/abc-endpoint-1",
        p256dh="P" * 40,
        auth="A" * 22,
    )
    device = Device.objects.create(user=owner, platform="fcm", token="device-token-" + "d" * 30)
    return [
        game.seed,
        game.invite_code,
        tournament.invite_code,
        subscription.endpoint,
        subscription.p256dh,
        subscription.auth,
        device.token,
        *(player.token for player in people),
        owner.password,
    ]


@pytest.mark.parametrize("who", ["viewer", "superuser"])
@pytest.mark.usefixtures("refusals_unlogged")
def test_every_admin_refuses_every_lookup_that_reads_a_secret(
    who: str, request: pytest.FixtureRequest, secrets_stored: list[str]
) -> None:
    tried, answered = answered_lookups(client_of(request.getfixturevalue(who)), SECRET)
    assert tried > 500
    assert not answered


def test_the_walk_covers_the_known_secret_paths() -> None:
    walked = {
        (model._meta.label, path) for model in registered() for path in paths_to(model, SECRET)
    }
    assert {
        ("games.Game", "seed"),
        ("games.Game", "state"),
        ("games.Game", "invite_code"),
        ("games.Game", "events__payload"),
        ("games.Seat", "game__seed"),
        ("games.ChatMessage", "game__state"),
        ("moderation.Report", "message__game__seed"),
        ("tournaments.Tournament", "invite_code"),
        ("auth.User", "password"),
        ("auth.User", "auth_token"),
        ("auth.User", "push_subscriptions__p256dh"),
        ("auth.User", "push_devices__token"),
    } <= walked


@pytest.mark.parametrize("who", ["viewer", "superuser"])
def test_no_admin_searches_sorts_lists_or_shows_a_secret_field(
    who: str, request: pytest.FixtureRequest, secrets_stored: list[str]
) -> None:
    user = request.getfixturevalue(who)
    http = RequestFactory().get("/admin/")
    http.user = user
    shown = []
    for model in registered():
        model_admin = admin.site.get_model_admin(model)
        named = {
            "search": {name.lstrip("^=@") for name in model_admin.get_search_fields(http)},
            "list": set(model_admin.get_list_display(http))
            | set(model_admin.get_sortable_by(http)),
            "ordering": {name.lstrip("-") for name in model_admin.get_ordering(http) or ()},
            "date": {model_admin.date_hierarchy},
            "filter": {
                item[0] if isinstance(item, tuple) else item
                for item in model_admin.get_list_filter(http)
            },
            "form": {
                name
                for obj in (None, model._default_manager.first())
                for name in flatten_fieldsets(model_admin.get_fieldsets(http, obj))
            },
        }
        secret_paths = set(paths_to(model, SECRET))
        masked = {"password"} if model is User else set()
        for where, names in named.items():
            for name in names:
                reads = isinstance(name, str) and any(
                    name == path or name.startswith(f"{path}__") for path in secret_paths
                )
                if reads and not (where == "form" and name in masked):
                    shown.append((model._meta.label, where, name))
    assert not shown


@pytest.mark.parametrize("who", ["viewer", "superuser"])
def test_no_admin_page_shows_a_stored_secret(
    who: str, request: pytest.FixtureRequest, secrets_stored: list[str]
) -> None:
    """Every changelist and every change page (read-only for the viewer)."""
    client = client_of(request.getfixturevalue(who))
    leaked = []
    for model in registered():
        pages = [changelist(model)]
        pages += [
            change_page(model, pk)
            for pk in model._default_manager.values_list("pk", flat=True)[:20]
        ]
        for url in pages:
            response = client.get(url)
            assert response.status_code in (200, 302), (url, response.status_code)
            page = html.unescape(response.content.decode())
            leaked.extend((url, value) for value in secrets_stored if value in page)
    assert not leaked
