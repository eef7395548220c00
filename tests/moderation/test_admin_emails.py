"""Players' e-mail addresses are for superusers only: a moderator (or any other staff) neither
sees one on an admin page nor finds a player by one, in a search, a filter or the user
picker; a superuser still does."""

from __future__ import annotations

import html
from collections.abc import Callable

import pytest
from django.contrib.auth.models import Permission, User
from django.test import Client

from moderation import services as moderation
from tests.games.helpers import Player, seat_players
from tests.moderation.admin_walk import (
    answered_lookups,
    change_page,
    changelist,
    client_of,
    registered,
)

pytestmark = pytest.mark.django_db

# Where the site keeps an address.
ADDRESSES = {"auth.user": frozenset({"email"}), "accounts.verifiedemail": frozenset({"email"})}
PICKER = {"app_label": "accounts", "model_name": "suspension", "field_name": "user"}


@pytest.fixture
def addresses(make_player: Callable[..., Player], moderator: User) -> list[str]:
    """Three players at a running table, one reported by another: their addresses."""
    people = [make_player() for _ in range(3)]
    seat_players(people)
    moderation.report_create(
        reporter=User.objects.get(pk=people[0].user_id), username=people[1].username, reason="rude"
    )
    return [f"{person.username}@example.com" for person in people]


@pytest.fixture
def viewer(db: None) -> User:
    """Staff who may view and change every model, and is no superuser."""
    user = User.objects.create_user("viewer", "viewer@example.com", "x", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__regex=r"^(view|change)_"))
    return user


def pages(client: Client) -> list[str]:
    """Every changelist and change page the client may open, as text."""
    found = []
    for model in registered():
        keys = model._default_manager.values_list("pk", flat=True)
        for url in [changelist(model), *(change_page(model, pk) for pk in keys)]:
            response = client.get(url)
            if response.status_code == 200:
                found.append(html.unescape(response.content.decode()))
    return found


@pytest.mark.parametrize("who", ["moderator", "viewer"])
def test_no_admin_page_shows_a_player_address_to_staff(
    who: str, request: pytest.FixtureRequest, addresses: list[str]
) -> None:
    seen = pages(client_of(request.getfixturevalue(who)))
    assert len(seen) > 10
    assert not [address for page in seen for address in addresses if address in page]


def test_a_superuser_sees_the_addresses(superuser: User, addresses: list[str]) -> None:
    client = client_of(superuser)
    listed = html.unescape(client.get(changelist(User)).content.decode())
    assert all(address in listed for address in addresses)
    player = User.objects.get(email=addresses[0])
    assert addresses[0] in html.unescape(client.get(change_page(User, player.pk)).content.decode())


@pytest.mark.parametrize("who", ["moderator", "viewer"])
def test_staff_cannot_search_or_pick_a_player_by_address(
    who: str, request: pytest.FixtureRequest, addresses: list[str]
) -> None:
    client = client_of(request.getfixturevalue(who))
    searched = client.get(changelist(User), {"q": "@example.com"})
    assert searched.status_code == 200
    assert searched.context["cl"].result_count == 0
    picked = client.get("/admin/autocomplete/", {**PICKER, "term": "@example"})
    assert picked.status_code == 200
    assert picked.json()["results"] == []


def test_a_superuser_searches_picks_and_filters_by_address(
    superuser: User, addresses: list[str]
) -> None:
    client = client_of(superuser)
    searched = client.get(changelist(User), {"q": addresses[1]})
    assert [user.email for user in searched.context["cl"].result_list] == [addresses[1]]
    picked = client.get("/admin/autocomplete/", {**PICKER, "term": "@example"})
    assert len(picked.json()["results"]) >= len(addresses)
    filtered = client.get(changelist(User), {"email__icontains": "player1@"})
    assert [user.username for user in filtered.context["cl"].result_list] == ["player1"]


@pytest.mark.parametrize("who", ["moderator", "viewer"])
@pytest.mark.usefixtures("refusals_unlogged")
def test_every_admin_refuses_staff_a_filter_by_address(
    who: str, request: pytest.FixtureRequest, addresses: list[str]
) -> None:
    tried, answered = answered_lookups(client_of(request.getfixturevalue(who)), ADDRESSES)
    assert tried > 50
    assert not answered
