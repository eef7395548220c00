"""The lobby offers turn-limit presets and lists live and correspondence tables apart; the
pages say long limits in minutes, hours or days."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client

from games.forms import TableForm
from games.templatetags.turns import per_turn
from games.turn_presets import PRESETS
from tests.games.helpers import Player, create_game

pytestmark = pytest.mark.django_db


def test_the_presets_fill_the_number_field_and_any_limit_in_range_is_still_taken() -> None:
    html = str(TableForm()["turn_seconds"])
    assert [int(v) for v in re.findall(r'<option value="(\d+)"', html)] == [
        20,
        60,
        300,
        86400,
        259200,
    ]
    assert [s for s, _ in PRESETS] == [20, 60, 300, 86400, 259200]
    assert 'name="turn_seconds"' in html and 'type="number"' in html
    for seconds in (5, 20, 86400, 7 * 86400, 12345):
        form = TableForm({"seats": 3, "bots": 0, "turn_seconds": seconds, "bot_kind": "heuristic"})
        assert form.is_valid(), form.errors
        assert form.cleaned_data["turn_seconds"] == seconds


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (5, "5 s"),
        (60, "60 s"),
        (90, "90 s"),
        (300, "5 min"),
        (3600, "1 h"),
        (5400, "90 min"),
        (86400, "24 h"),
        (2 * 86400, "2 d"),
        (3 * 86400, "3 d"),
        (90000, "25 h"),
    ],
)
def test_a_limit_reads_in_its_largest_whole_unit(seconds: int, text: str) -> None:
    assert per_turn(seconds) == f"{text} per turn"


def test_live_and_correspondence_tables_are_listed_apart(
    make_player: Callable[..., Player],
) -> None:
    owner = make_player()
    live = create_game(owner, seats=3, turn_seconds=60)["id"]
    daily = create_game(make_player(), seats=3, turn_seconds=86400)["id"]
    page = Client().get("/lobby/tables/").content.decode()
    live_list = page.split('id="open-tables"')[1].split("</table>")[0]
    correspondence = page.split('id="open-correspondence-tables"')[1].split("</table>")[0]
    assert f'data-game="{live}"' in live_list and f'data-game="{daily}"' not in live_list
    assert f'data-game="{daily}"' in correspondence and f'data-game="{live}"' not in correspondence
    assert "24 h per turn" in correspondence


def test_without_correspondence_tables_the_lobby_says_so(
    make_player: Callable[..., Player],
) -> None:
    create_game(make_player(), seats=3, turn_seconds=20)
    page = Client().get("/lobby/tables/").content.decode()
    assert 'id="open-tables"' in page and 'id="no-open-correspondence-tables"' in page
