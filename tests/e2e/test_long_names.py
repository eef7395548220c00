"""At 360 px, every list of the site filled with the longest names (30 characters, no space)
keeps the page from scrolling sideways: the home page's running games and games to watch, the
lobby's open tables, the leaderboard, a profile's recent games, My games, the notices and a
search for players. The other players and their games are made through the API first; the
pages are then only looked at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext

from tests.e2e.helpers import NO_HORIZONTAL_SCROLL_JS, PASSWORD, screenshots_on_failure, sign_up

pytestmark = pytest.mark.e2e

NARROW = {"width": 360, "height": 740}
LONG = "w" * 24  # and a number of six: 30 characters, the most a name may have


class Api:
    """Another player, through the API with their token."""

    def __init__(self, request: APIRequestContext, username: str) -> None:
        body = {"username": username, "password": PASSWORD, "email": f"{username}@example.com"}
        answer = request.post("/api/v1/accounts/register/", data=body)
        assert answer.status == 201, answer.text()
        self.request, self.username = request, username
        self.headers = {"Authorization": f"Token {answer.json()['token']}"}

    def call(self, method: str, path: str, body: Any = None) -> Any:
        answer = self.request.fetch(path, method=method, data=body, headers=self.headers)
        assert answer.ok, f"{method} {path}: {answer.status} {answer.text()}"
        return answer.json() if answer.text() else None


def play_out(game_id: int, seated: dict[int, Api]) -> None:
    """Each person makes their first legal decision until the game ends."""
    any_player = next(iter(seated.values()))
    view = any_player.call("GET", f"/api/v1/games/{game_id}/")
    while view["status"] == "active":
        actor = seated[view["to_act"]]
        mine = actor.call("GET", f"/api/v1/games/{game_id}/")
        legal = mine["legal"]
        move: dict[str, Any] = {"seq": mine["seq"]}
        if "bids" in legal:
            move |= {"type": "bid", "bid": legal["bids"][0]}
        elif "suits" in legal:
            move |= {"type": "trump", "suit": legal["suits"][0]}
        else:
            move |= {"type": "play", "card": legal["cards"][0]}
        view = actor.call("POST", f"/api/v1/games/{game_id}/moves/", move)


def test_every_list_fits_a_narrow_phone_with_the_longest_names(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    me = sign_up(browser, server_url, f"{LONG}me0000", viewport=NARROW)
    try:
        with screenshots_on_failure(artifacts, [me]):
            request = me.context.request
            ben, cyd = (Api(request, f"{LONG}{n}") for n in ("ben000", "cyd000"))
            token = me.page.context.request.post(
                "/api/v1/accounts/token/", data={"username": me.username, "password": PASSWORD}
            ).json()["token"]
            mine = Api.__new__(Api)
            mine.request, mine.username = request, me.username
            mine.headers = {"Authorization": f"Token {token}"}

            # A finished league game of the three (one round), a running one, one to watch.
            finished = ben.call("POST", "/api/v1/games/", {"seats": 3, "rounds": 1})["id"]
            for player in (mine, cyd):
                player.call("POST", f"/api/v1/games/{finished}/join/", {})
            play_out(finished, {0: ben, 1: mine, 2: cyd})
            running = ben.call("POST", "/api/v1/games/", {"seats": 3})["id"]
            for player in (mine, cyd):
                player.call("POST", f"/api/v1/games/{running}/join/", {})
            watched = ben.call("POST", "/api/v1/games/", {"seats": 3, "bots": 1})["id"]
            cyd.call("POST", f"/api/v1/games/{watched}/join/", {})
            ben.call("POST", "/api/v1/games/", {"seats": 4})  # an open table in the lobby
            ben.call("POST", f"/api/v1/players/{me.username}/follow/")  # a notice

            page = me.page
            pages = {
                "home": "/",
                "lobby": "/lobby/",
                "leaderboard": "/leaderboard/",
                "profile": f"/players/{me.username}/",
                "my-games": "/games/mine/",
                "notices": "/notices/",
                "find-players": f"/friends/?find={LONG[:10]}",
            }
            for name, path in pages.items():
                page.goto(path)
                page.wait_for_load_state("networkidle")
                page.screenshot(path=str(artifacts / f"long-names-{name}.png"), full_page=True)
                assert page.evaluate(NO_HORIZONTAL_SCROLL_JS), f"{name} scrolls sideways"
                if name == "profile":  # its recent games: the finished one
                    assert page.locator(f'a[href="/games/{finished}/replay/"]').count() == 1
                else:  # ben's name, in the list the page is about
                    assert page.locator("main").get_by_text(ben.username).count() >= 1, name
    finally:
        me.close()
