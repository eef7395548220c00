"""The browser pages load their code as ES modules from this site: no inline script code (a
Content-Security-Policy will forbid it), no inline event handler, nothing from another host."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.games.helpers import Player, create_game


def _check(html: str) -> None:
    for attributes, body in re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S):
        if 'type="application/json"' in attributes:
            continue  # data from json_script
        assert "src=" in attributes and not body.strip(), attributes
    assert not re.search(r"\son(change|click|submit|load)=", html)
    for url in re.findall(r'(?:src|href|action)="([^"]+)"', html):
        assert "//" not in url, url


@pytest.mark.parametrize("path", ["/", "/lobby/", "/rules/", "/leaderboard/", "/accounts/login/"])
def test_public_pages(db: None, path: str) -> None:
    response = Client().get(path, follow=True)
    assert response.status_code == 200
    _check(response.content.decode())


def test_table_page_loads_its_module(make_player: Callable[..., Player]) -> None:
    host = make_player()
    game_id = create_game(host, seats=4, bots=3)["id"]
    client = Client()
    client.force_login(User.objects.get(pk=host.user_id))
    html = client.get(f"/games/{game_id}/").content.decode()
    _check(html)
    assert '<script type="module" src="/static/js/table.js">' in html
    assert 'data-testid="table"' in html and 'id="initial-view"' in html


def test_the_header_counts_a_signed_in_players_turns_through_its_module(
    make_player: Callable[..., Player],
) -> None:
    client = Client()
    anonymous = client.get("/").content.decode()
    assert 'id="my-turns"' not in anonymous and "me.js" not in anonymous
    client.force_login(User.objects.get(pk=make_player().user_id))
    html = client.get("/").content.decode()
    _check(html)
    assert 'id="my-turns"' in html
    assert '<script type="module" src="/static/js/me.js"></script>' in html
