"""My games: the running ones first (their turn on top), the finished ones with their date and
the player's place, and filters for the won ones, the ones with people only or with bots."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.league.helpers import finish_game

pytestmark = pytest.mark.django_db


def finished_rows(page: str) -> dict[int, str]:
    body = page.split('data-testid="my-finished"')[1].split("</table>")[0]
    rows = re.findall(r'<tr data-game="(\d+)">(.*?)</tr>', body, re.S)
    return {int(game): row for game, row in rows}


def test_finished_games_show_date_and_place_and_filter() -> None:
    me, ann, ben = (User.objects.create_user(name) for name in ("me", "ann", "ben"))
    won = finish_game([me, ann, None], [50, 10, 0])
    second = finish_game([me, ann, ben], [20, 40, -10])
    browser = Client()
    browser.force_login(me)
    rows = finished_rows(browser.get("/games/mine/").content.decode())
    assert set(rows) == {won.pk, second.pk}
    assert 'data-testid="my-place">1/3<' in rows[won.pk]
    assert 'data-testid="my-place">2/3<' in rows[second.pk]
    day = won.finished_at.strftime("%-d %b %Y")
    assert f">{day}</time>" in rows[won.pk]
    assert set(finished_rows(browser.get("/games/mine/?show=won").content.decode())) == {won.pk}
    people = browser.get("/games/mine/?show=people").content.decode()
    assert set(finished_rows(people)) == {second.pk}
    assert set(finished_rows(browser.get("/games/mine/?show=bots").content.decode())) == {won.pk}
    odd = browser.get("/games/mine/?show=<script>").content.decode()  # unknown: all of them
    assert set(finished_rows(odd)) == {won.pk, second.pk}
