"""The Django admin: games can be inspected; their event rows cannot be changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory

from games.models import Event as EventRow
from games.models import Game
from moderation.admin.games import EventInline
from tests.games.helpers import Player, seat_players


@pytest.fixture
def admin_client_for(superuser: Any) -> Client:
    client = Client()
    client.force_login(superuser)
    return client


@pytest.fixture
def running_game(make_player: Callable[..., Player]) -> Game:
    return Game.objects.get(pk=seat_players([make_player() for _ in range(3)]))


def test_superuser_opens_the_game_changelist(admin_client_for: Client, running_game: Game) -> None:
    response = admin_client_for.get("/admin/games/game/")
    assert response.status_code == 200
    assert f"/admin/games/game/{running_game.pk}/change/" in response.content.decode()
    searched = admin_client_for.get("/admin/games/game/", {"q": "player1", "status": "active"})
    assert searched.status_code == 200
    assert searched.context["cl"].result_count == 1


def test_superuser_opens_a_game_with_its_events_read_only(
    admin_client_for: Client, running_game: Game
) -> None:
    response = admin_client_for.get(f"/admin/games/game/{running_game.pk}/change/")
    assert response.status_code == 200
    html = response.content.decode()
    assert running_game.seed not in html  # the seed stays secret while the game runs
    formsets = {f.formset.prefix: f for f in response.context["inline_admin_formsets"]}
    events = formsets["events"]
    assert len(events.formset.forms) == EventRow.objects.filter(game=running_game).count() > 0
    assert not events.has_add_permission and not events.has_delete_permission
    assert not events.has_change_permission
    assert set(events.readonly_fields) >= {"seq", "type", "seat", "auto", "shown", "created_at"}
    for form in events.formset.forms:  # no editable field is rendered for any row
        assert not set(form.fields) & {"seq", "type", "seat", "auto", "payload"}
    assert 'name="events-0-payload"' not in html
    assert 'name="events-0-DELETE"' not in html


def test_event_inline_grants_no_write_permission(superuser: Any, running_game: Game) -> None:
    request = RequestFactory().get("/admin/")
    request.user = superuser
    inline = EventInline(Game, admin.site)
    assert not inline.has_add_permission(request, running_game)
    assert not inline.has_change_permission(request, running_game)
    assert not inline.has_delete_permission(request, running_game)
    assert inline.has_view_permission(request, running_game)
    assert set(inline.get_readonly_fields(request, running_game)) == set(inline.fields)
