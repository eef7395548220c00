"""The profile page's notification form and push opt-in, and the service worker at /sw.js."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from notifications import webpush
from tests.games.helpers import Player

pytestmark = pytest.mark.django_db


def browser_of(player: Player) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=player.user_id))
    return client


def test_the_profile_form_changes_both_settings_and_only_the_owner_sees_it(
    make_player: Callable[..., Player],
) -> None:
    player, other = make_player(), make_player()
    browser = browser_of(player)
    page = browser.get(f"/players/{player.username}/").content.decode()
    assert 'id="notification-settings"' in page
    assert re.search(r'id="email-turns"[^>]*checked', page)  # the defaults
    assert not re.search(r'id="push-turns"[^>]*checked', page)
    assert f'data-vapid-key="{webpush.public_key()}"' in page
    assert (
        'id="notification-settings"'
        not in browser_of(other).get(f"/players/{player.username}/").content.decode()
    )
    response = browser.post("/notifications/settings/", {"push_turns": "on"})
    assert response.status_code == 302
    assert player.client.get("/api/v1/accounts/me/notifications/").json() == {
        "email_turns": False,
        "push_turns": True,
    }
    assert Client().post("/notifications/settings/", {}).status_code == 302  # to the log-in


def test_the_service_worker_is_served_from_the_root_and_opens_only_this_site() -> None:
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    body = response.content.decode()
    assert 'addEventListener("push"' in body and "showNotification" in body
    assert 'addEventListener("notificationclick"' in body and "openWindow" in body
    assert "target.origin !== self.location.origin" in body


def test_the_public_key_is_a_p256_point_and_push_is_off_without_keys(
    settings: object,
) -> None:
    key = webpush.public_key()
    assert key is not None
    from tests.notifications.push_server import unb64url

    raw = unb64url(key)
    assert len(raw) == 65 and raw[0] == 4
    webpush._vapid.cache_clear()
    try:
        settings.VAPID_DERIVE_FROM_SECRET = False  # type: ignore[attr-defined]
        assert webpush.public_key() is None
    finally:
        webpush._vapid.cache_clear()


def test_opening_the_settings_address_shows_the_settings_form(
    make_player: Callable[..., Player],
) -> None:
    player = make_player()
    response = browser_of(player).get("/notifications/settings/")
    assert response.status_code == 302
    assert response["Location"] == f"/players/{player.username}/#notifications"
    before = player.client.get("/api/v1/accounts/me/notifications/").json()
    assert before == {"email_turns": True, "push_turns": False}  # opening it changed nothing
    assert Client().get("/notifications/settings/").status_code == 302  # to the log-in
