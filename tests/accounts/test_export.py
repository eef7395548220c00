"""`GET /api/v1/accounts/me/export/`: every kind of the caller's own data, as the served schema
documents it, streamed as a download; nothing of anyone else's (no other hand, no other
address, no seed of a running game)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from django.contrib.auth.models import User
from django.http import StreamingHttpResponse
from rest_framework.test import APIClient

from games.engine import sort_hand
from games.models import Event, Game
from tests.accounts.own_data import APNS_TOKEN, ENDPOINT, World, build
from tests.games.helpers import API, PASSWORD, Player, assert_error, strings_in
from tests.games.test_contract import Contract

pytestmark = pytest.mark.django_db

EXPORT = f"{API}/accounts/me/export/"


def export_of(player: Player) -> tuple[StreamingHttpResponse, dict[str, Any]]:
    response = player.client.get(EXPORT)
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    text = b"".join(response.streaming_content)
    document: dict[str, Any] = json.loads(text)
    return response, document


@pytest.fixture
def world(make_player: Callable[..., Player]) -> World:
    return build(make_player)


def games_by_id(document: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {game["id"]: game for game in document["games"]}


def dealt(game_id: int, seat: int) -> list[list[str]]:
    """The hands the seat was dealt, round by round, as stored."""
    deals = Event.objects.filter(game_id=game_id, type="deal").order_by("seq")
    return [sort_hand(row.payload["hands"][seat]) for row in deals]


def test_export_is_a_download_the_served_schema_describes_exactly(world: World) -> None:
    response, document = export_of(world.me)
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="wizard-mara.json"'
    openapi = yaml.safe_load(APIClient().get(f"{API}/schema/").content)
    operation = openapi["paths"][EXPORT]["get"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    Contract(openapi).validate(document, schema, "GET export 200")  # no field undocumented


def test_export_holds_the_account_settings_and_people(world: World) -> None:
    _, document = export_of(world.me)
    account = document["account"]
    assert account["username"] == "mara" and account["email"] == "mara@example.com"
    assert account["email_verified"] is False
    assert account["date_joined"].endswith("Z")
    assert document["notifications"] == {"email_turns": False, "push_turns": True}
    (subscription,) = document["push_subscriptions"]
    assert subscription["endpoint"] == ENDPOINT and set(subscription) == {"endpoint", "created"}
    (device,) = document["devices"]
    assert (device["platform"], device["token"]) == ("apns", APNS_TOKEN)
    assert document["following"] == ["ana"]
    assert document["followers"] == ["ana", "bob"]
    assert document["blocked"] == ["carl"]
    follows = {n["text"] for n in document["notices"] if n["kind"] == "follow"}
    assert follows == {"ana follows you.", "bob follows you."}  # the notices they left


def test_export_holds_my_chat_my_reports_my_tournament_and_my_ratings(world: World) -> None:
    _, document = export_of(world.me)
    texts = [message["text"] for message in document["chat_messages"]]
    assert texts == ["good luck, mara speaking", "second line by mara"]
    assert {message["game"] for message in document["chat_messages"]} == {world.running}
    (report,) = document["reports"]  # the one I made, not the one about me
    assert report["reported"] == "bob" and report["reason"] == "mara reports bob"
    (entry,) = document["tournaments"]
    assert entry["tournament"] == world.tournament and entry["status"] == "upcoming"
    (rating,) = document["ratings"]
    assert rating["pool"] == "classic" and rating["games"] == 1
    (change,) = document["rating_changes"]
    assert change["game"] == world.finished


def test_export_holds_every_game_i_sat_in_with_my_seat_hands_and_moves(world: World) -> None:
    _, document = export_of(world.me)
    games = games_by_id(document)
    assert set(games) == {
        world.finished, world.running, world.blind, world.with_bots, world.open_alone,
        world.open_shared,
    }  # fmt: skip
    finished = games[world.finished]
    assert finished["seat"] == 0 and finished["status"] == "finished" and finished["league"]
    assert finished["players"] == ["mara", "ana", "bob"]
    assert finished["shuffle_seed"] == Game.objects.get(pk=world.finished).seed  # public now
    assert [hand["hand"] for hand in finished["hands"]] == dealt(world.finished, 0)
    assert finished["moves"] and {move["seat"] for move in finished["moves"]} == {0}
    assert {move["type"] for move in finished["moves"]} >= {"bid", "play"}
    assert games[world.open_shared]["seat"] == 1 and games[world.open_shared]["hands"] == []


def test_a_running_game_shows_my_hand_only_and_no_seed(world: World) -> None:
    _, document = export_of(world.me)
    text = json.dumps(document)
    running = games_by_id(document)[world.running]
    assert running["shuffle_seed"] is None
    assert [hand["hand"] for hand in running["hands"]] == dealt(world.running, 0)
    for other in (1, 2):
        assert dealt(world.running, other)[0] not in [hand["hand"] for hand in running["hands"]]
    for game_id in (world.running, world.blind, world.with_bots):
        assert Game.objects.get(pk=game_id).seed not in text
    # R9: in the blind first round nobody sees their own card, and the export shows no other.
    blind = games_by_id(document)[world.blind]
    assert [hand["hand"] for hand in blind["hands"]] == [None]
    assert "visible_hands" not in text  # no deal of the others' cards, in any game
    for game in document["games"]:
        assert all(set(hand) == {"round", "hand"} for hand in game["hands"])
        assert all(move["type"] != "deal" for move in game["moves"])


def test_export_holds_nothing_of_anyone_elses(world: World) -> None:
    _, document = export_of(world.me)
    strings = set(strings_in(document))
    for other in (world.ana, world.bob, world.carl):
        assert f"{other.username}@example.com" not in strings
    assert "ana says hello" not in strings
    assert "ana's report" not in strings
    assert world.push_keys.p256dh not in strings and world.push_keys.auth not in strings
    assert PASSWORD not in strings
    assert world.me.token not in strings


def test_each_player_exports_only_their_own_games(world: World) -> None:
    _, document = export_of(world.carl)
    assert document["games"] == [] and document["chat_messages"] == []
    assert document["account"]["username"] == "carl" and document["followers"] == []


def test_export_needs_a_signed_in_player_and_the_browser_session_may_ask(world: World) -> None:
    assert_error(APIClient().get(EXPORT), 401, "not_authenticated")
    browser = APIClient()
    browser.force_login(User.objects.get(username="ana"))
    response = browser.get(EXPORT)
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="wizard-ana.json"'
    # Read to its end, so the test client closes it and it frees its place (EXPORTS_AT_ONCE):
    # left open, it would hold the place for every later test of this process.
    b"".join(response.streaming_content)


def test_the_account_page_links_the_download_and_the_deletion(world: World) -> None:
    browser = APIClient()
    browser.force_login(User.objects.get(username="mara"))
    page = browser.get("/accounts/email/").content.decode()
    assert f'href="{EXPORT}"' in page and 'href="/accounts/delete/"' in page


def test_more_games_cost_the_export_no_more_queries(world: World) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.games.helpers import seat_players

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            export_of(world.me)
        return len(captured)

    before, games = queries(), len(export_of(world.me)[1]["games"])
    seat_players([world.me, world.ana, world.bob], rounds=2)
    seat_players([world.bob, world.me, world.ana], rounds=2)
    assert len(export_of(world.me)[1]["games"]) == games + 2
    assert queries() == before
