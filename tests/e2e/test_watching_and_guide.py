"""Around the table in a real browser: a signed-out visitor watches a game live, the players see
who has left, and a newcomer plays a guided game with a hint on each decision."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    VIEW_JS,
    WAIT_MS,
    Player,
    create_table,
    play_turn,
    rest_view_when,
    screenshots_on_failure,
    settle,
    sign_up,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

MY_TURN_OR_OVER = (
    "() => { const v = window.WizardTable.view;"
    " return v.status !== 'active' || (v.legal !== null && v.to_act === v.you); }"
)


def test_a_signed_out_visitor_watches_two_rounds_and_the_players_see_who_left(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    host = sign_up(browser, server_url, "watched_host")
    guest = sign_up(browser, server_url, "watched_guest")
    visitor = browser.new_context(base_url=server_url)
    watcher = visitor.new_page()
    problems: list[str] = []
    watcher.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    watcher.on(
        "response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    players = [host, guest]
    try:
        with screenshots_on_failure(artifacts, players):
            game_id = create_table(host, seats=3, bots=1, blind_first_round=False)
            guest.page.goto(f"/games/{game_id}/")
            guest.page.locator("#join-button").click()
            wait_table_live(host, what="the table to start when the guest joins")
            wait_table_live(guest, what="the guest's table to start")
            watcher.goto(f"/games/{game_id}/")
            assert watcher.locator('[data-testid="watching"]').is_visible()
            seen: set[int] = set()
            rng = random.Random(11)
            while True:
                view = rest_view_when(
                    host,
                    game_id,
                    lambda v: (
                        v["status"] != "active" or v["round"]["number"] > 2 or v["to_act"] in (0, 1)
                    ),
                    what="a person's decision",
                )
                if view["status"] != "active" or view["round"]["number"] > 2:
                    break
                mover = players[view["to_act"]]  # the host sits in seat 0, the guest in 1
                mover.wait_js(MY_TURN_OR_OVER, what="their turn on the page")
                state = play_turn(mover, rng)
                watcher.wait_for_function(
                    "s => window.WizardTable && window.WizardTable.view.seq >= s",
                    arg=state["seq"],
                    timeout=WAIT_MS,
                )
                watched = watcher.evaluate(VIEW_JS)
                assert watched["you"] is None and watched["hand"] is None, watched
                seen.add(watched["seq"])
            assert len(seen) >= 4, seen
            assert not problems, problems
            # The players' table counts the one spectator (asked every 15 s).
            count = host.page.locator('[data-testid="spectator-count"]')
            count.wait_for(state="visible", timeout=20_000)
            assert count.inner_text().strip() == "1", count.inner_text()

            # The guest closes their table: the host's seat box marks them offline, from the
            # pushed view once the server sees both sockets close, else from the presence poll
            # (every 15 s), which sets the marks right again.
            guest.close()
            players.remove(guest)
            offline = '[data-testid="seat-1"][data-online="false"]'
            host.page.wait_for_selector(offline, timeout=35_000)
    finally:
        visitor.close()
        for player in players:
            player.close()


def test_your_own_seat_stays_online_whatever_a_late_presence_answer_says(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """An answer of the presence poll can name your own seat offline (the server gave it
    before this page's socket counted, and it came after the socket's view): your page
    still shows you online."""
    player = sign_up(browser, server_url, "own_seat")
    try:
        with screenshots_on_failure(artifacts, [player]):
            page = player.page
            create_table(player, seats=3, bots=2, blind_first_round=False)
            wait_table_live(player, what="the game to start")
            you = page.evaluate("() => window.WizardTable.view.you")
            late = {"spectators": 1, "offline": [you], "offline_for": {str(you): 30}}
            page.route("**/presence/", lambda route: route.fulfill(json=late))
            # The next poll (15 s) gets it, after the socket's view; it is in once the
            # spectator it names shows (drawn with the seats).
            page.locator('[data-testid="spectator-count"]').wait_for(
                state="visible", timeout=20_000
            )
            seat = page.locator(f'[data-testid="seat-{you}"]')
            assert seat.get_attribute("data-online") == "true", seat.inner_text()
    finally:
        player.close()


@pytest.mark.parametrize(
    "size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768}], ids=["phone", "laptop"]
)
def test_a_newcomer_plays_a_guided_game_with_a_hint_on_each_decision(
    browser: Any, server_url: str, artifacts: Path, size: dict[str, int]
) -> None:
    name = f"guided_{size['width']}"
    player: Player = sign_up(browser, server_url, name, viewport=size)
    try:
        with screenshots_on_failure(artifacts, [player]):
            page = player.page
            offer = page.locator('[data-testid="guided-start"]')
            assert offer.is_visible(), "the lobby offers a newcomer no guided game"
            offer.click()
            page.wait_for_url("**/games/*/")
            state = wait_table_live(player, what="the guided game to start at once")
            assert state["round"]["number"] == 1 and state["hand"], state  # no blind round
            rng = random.Random(3)
            for _decision in range(4):
                player.wait_js(MY_TURN_OR_OVER, what="the player's turn")
                settle(player)
                page.wait_for_selector('[data-testid="guide"]:not([hidden])', timeout=WAIT_MS)
                assert page.locator('[data-testid="guide-why"]').inner_text().strip()
                page.locator('[data-testid="guide-show"]').click()
                bot = page.locator('[data-testid="guide-bot"]')
                bot.wait_for(state="visible", timeout=WAIT_MS)
                assert bot.inner_text().strip()
                assert page.evaluate(NO_HORIZONTAL_SCROLL_JS)
                play_turn(player, rng)
    finally:
        player.close()
