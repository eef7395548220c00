"""Around the table in a real browser: a signed-out visitor watches a game live, the players see
who has left, and a newcomer plays a guided game with a hint on each decision. Each table is
dealt from a fixed seed, so each test plays the same rounds each run."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    VIEW_JS,
    Player,
    create_table,
    play_turn,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)
from tests.e2e.page_waits import MY_TURN, OVER, at_seq, my_turn, seat_acts, until, visitor

pytestmark = pytest.mark.e2e

# The watched table: the host (seat 0), the guest (seat 1) and a bot, whatever it deals.
WATCHED_SEED = "watched-1"
OWN_SEAT_SEED = "own-seat-1"
GUIDED_SEED = "guided-1"


def a_persons_decision(host: Player, *, after: int | None) -> dict[str, Any]:
    """The host's page at rest on the host's or the guest's decision (or the game's end), past
    the seq `after` of the move just made: the bot's answers, made in the worker after that
    move's answer, are played out. The host's view then; nothing moves until a person acts."""
    person = f"{MY_TURN}, {OVER}, {seat_acts(1, after=after)}"
    until(host, person, what="a person's decision")
    if after is not None:
        expect(host.page.locator("#table")).not_to_have_attribute("data-seq", str(after))
    return host.view()


def test_a_signed_out_visitor_watches_two_rounds_and_the_players_see_who_left(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    host = sign_up(browser, server_url, "watched_host", seed=WATCHED_SEED)
    guest = sign_up(browser, server_url, "watched_guest")
    watcher = visitor(browser, server_url)
    problems: list[str] = []
    watcher.page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    watcher.page.on(
        "response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None
    )
    players = [host, guest]
    try:
        with screenshots_on_failure(artifacts, [*players, watcher]):
            game_id = create_table(host, seats=3, bots=1, blind_first_round=False)
            guest.page.goto(f"/games/{game_id}/")
            guest.page.locator("#join-button").click()
            wait_table_live(host, what="the table to start when the guest joins")
            wait_table_live(guest, what="the guest's table to start")
            watcher.page.goto(f"/games/{game_id}/")
            assert watcher.page.locator('[data-testid="watching"]').is_visible()
            seen: set[int] = set()
            rng = random.Random(11)
            view = a_persons_decision(host, after=None)
            while view["status"] == "active" and view["round"]["number"] <= 2:
                mover = players[view["to_act"]]  # the host sits in seat 0, the guest in 1
                my_turn(mover, what="their turn on the page")
                play_turn(mover, rng)
                view = a_persons_decision(host, after=view["seq"])
                # What the visitor sees: the same table at rest on that decision.
                until(watcher, at_seq(view["seq"]), what="the watched table at the host's seq")
                watched = watcher.page.evaluate(VIEW_JS)
                assert watched["you"] is None and watched["hand"] is None, watched
                seen.add(watched["seq"])
            assert len(seen) >= 4, seen
            assert not problems, problems
            # The players' table counts the one spectator (asked every 15 s).
            count = host.page.locator('[data-testid="spectator-count"]')
            expect(count).to_be_visible(timeout=20_000)
            assert count.inner_text().strip() == "1", count.inner_text()

            # The guest closes their table: the host's seat box marks them offline, from the
            # pushed view once the server sees both sockets close, else from the presence poll
            # (every 15 s), which sets the marks right again.
            guest.close()
            players.remove(guest)
            offline = host.page.locator('[data-testid="seat-1"][data-online="false"]')
            expect(offline).to_be_attached(timeout=35_000)
    finally:
        watcher.close()
        for player in players:
            player.close()


def test_your_own_seat_stays_online_whatever_a_late_presence_answer_says(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """An answer of the presence poll can name your own seat offline (the server gave it
    before this page's socket counted, and it came after the socket's view): your page
    still shows you online."""
    player = sign_up(browser, server_url, "own_seat", seed=OWN_SEAT_SEED)
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
            expect(page.locator('[data-testid="spectator-count"]')).to_be_visible(timeout=20_000)
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
    player: Player = sign_up(browser, server_url, name, viewport=size, seed=GUIDED_SEED)
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
                my_turn(player)
                expect(page.locator('[data-testid="guide"]:not([hidden])')).to_be_visible()
                assert page.locator('[data-testid="guide-why"]').inner_text().strip()
                page.locator('[data-testid="guide-show"]').click()
                bot = page.locator('[data-testid="guide-bot"]')
                expect(bot).to_be_visible()
                assert bot.inner_text().strip()
                assert page.evaluate(NO_HORIZONTAL_SCROLL_JS)
                play_turn(player, rng)
    finally:
        player.close()
