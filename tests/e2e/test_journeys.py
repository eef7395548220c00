"""The journeys between tables, walked through the pages as people walk them (after the first
page, nobody types an address): ann (a laptop, in Spanish) opens a table with a bot from the
lobby and ben (a phone) joins it from the lobby's list; ann logs out and in again and finds her
running game first on the home page; a signed-out visitor finds it among the games to watch
and watches it; they play it out and its end offers a new game and the lobby; ann asks for a
rematch and writes in its waiting room, which says ben is invited; ben joins it in one click
from his finished game and reads ann's message; ben finds ann by the start of her name and
follows her, and ann's bell leads her to the notice and to ben's profile; ben's rematch notice
is on his notices page; and ben gives the free seats of a new table to bots, which starts it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    PASSWORD,
    Player,
    create_table,
    play_turn,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)
from tests.e2e.page_waits import OVER, my_turn, seat_acts, until, visitor

pytestmark = pytest.mark.e2e

SEED = "journeys-1"  # ann's and ben's tables are dealt from it
CHOICES = 4711  # the people's bids, trumps and cards: a random.Random seeded with this
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def nav(player: Player, selector: str) -> None:
    """A link or button of the header's menu (behind the menu button on a phone)."""
    toggle = player.page.locator('[data-testid="menu-toggle"]')
    if toggle.is_visible():
        toggle.click()
    player.page.locator(f"header.site nav {selector}").click()


def log_out_and_in(player: Player) -> None:
    page = player.page
    nav(player, 'form[action="/accounts/logout/"] button')
    page.wait_for_url("**/")
    nav(player, 'a[href^="/accounts/login/"]')
    page.fill("#id_username", player.username)
    page.fill("#id_password", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: url.rstrip("/").count("/") == 2)  # the home page


def play_out(people: dict[int, Player], rng: random.Random) -> None:
    """The people act in turn through their pages (the bot answers by itself) to the end."""
    watcher = next(iter(people.values()))
    while (view := watcher.view())["status"] == "active":
        seat = view["to_act"]
        if seat in people:
            my_turn(people[seat], what=f"seat {seat}'s turn after seq {view['seq']}")
            play_turn(people[seat], rng)
        else:
            after = view["seq"]
            turns = ", ".join(seat_acts(person, after=after) for person in people)
            until(watcher, f"{turns}, {OVER}", what=f"the bot's move after seq {after}")
    for player in people.values():
        until(player, OVER, what="the game's end")


def test_the_journeys_between_tables(browser: Any, server_url: str, artifacts: Path) -> None:
    ann = sign_up(browser, server_url, "jr_ann", viewport=LAPTOP, locale="es-ES", seed=SEED)
    ben = sign_up(browser, server_url, "jr_ben", viewport=PHONE, seed=SEED)
    watcher = visitor(browser, server_url)
    players = [ann, ben, watcher]
    rng = random.Random(CHOICES)
    try:
        with screenshots_on_failure(artifacts, players):
            game_id = create_table(ann, seats=3, bots=1, rounds="3", blind_first_round=False)
            row = ben.page.locator(f'#open-tables tr[data-game="{game_id}"]')
            row.locator("a.button").click()  # ben is in the lobby since he signed up
            ben.page.wait_for_url(f"**/games/{game_id}/")
            with ben.page.expect_navigation():
                ben.page.locator("#join-button").click()
            seats = {wait_table_live(p, what="the table's start")["you"]: p for p in (ann, ben)}

            # Back into the game: after logging in, the home page shows it first.
            log_out_and_in(ann)
            running = ann.page.locator(f'[data-testid="running-games"] li[data-game="{game_id}"]')
            expect(running).to_be_visible()
            first = ann.page.evaluate(
                "() => document.getElementById('home-running').compareDocumentPosition("
                "document.querySelector('main h1')) & Node.DOCUMENT_POSITION_FOLLOWING"
            )
            assert first, "the running games do not come before the welcome"
            ann.page.screenshot(path=str(artifacts / "journey-home-running-laptop.png"))
            running.locator("a").click()
            ann.page.wait_for_url(f"**/games/{game_id}/")
            wait_table_live(ann, what="the table after logging in again")

            # A visitor finds it among the games to watch and watches it.
            watcher.page.set_viewport_size(PHONE)
            watcher.page.goto("/")
            watch = watcher.page.locator(f'[data-testid="watch-game"][data-game="{game_id}"]')
            expect(watch).to_contain_text("jr_ann")
            watch.locator("a").click()
            watcher.page.wait_for_url(f"**/games/{game_id}/")
            expect(watcher.page.locator('[data-testid="watching"]')).to_be_visible()

            play_out(seats, rng)
            for player in (ann, ben):
                expect(player.page.locator('[data-testid="new-game"]')).to_be_visible()
                expect(player.page.locator('[data-testid="to-lobby"]')).to_be_visible()
            ben.page.screenshot(path=str(artifacts / "journey-game-over-phone.png"), full_page=True)

            # A rematch: ann asks and writes in its waiting room; ben joins in one click.
            with ann.page.expect_navigation():
                ann.page.locator("#rematch-button").click()
            expect(ann.page.locator('[data-testid="rematch-missing"]')).to_contain_text("jr_ben")
            ann.page.fill("#chat-text", "¿Otra?")
            ann.page.locator("#chat-form button[type=submit]").click()
            expect(ann.page.locator("#chat-messages")).to_contain_text("¿Otra?")
            rematch_url = ann.page.url
            join = ben.page.locator('[data-testid="rematch-link"]')
            expect(join).to_be_visible()
            join.click()
            ben.page.wait_for_url(rematch_url)
            view = wait_table_live(ben, what="the rematch's start")
            assert view["you"] is not None and view["status"] == "active", view
            expect(ben.page.locator("#chat-messages")).to_contain_text("¿Otra?")

            # ben finds ann by the start of her name and follows her; her bell leads to it.
            nav(ben, '[data-testid="nav-friends"]')
            ben.page.fill('[data-testid="find-player"]', "JR_A")
            ben.page.locator("#find-player button[type=submit]").click()
            found = ben.page.locator('[data-testid="found-players"] a', has_text="jr_ann")
            found.click()
            ben.page.wait_for_url("**/players/jr_ann/")
            ben.page.locator('[data-testid="follow-button"]').click()
            expect(ben.page.locator('[data-testid="unfollow-button"]')).to_be_visible()
            ann.page.reload()  # a page she opens next; a follow sends no push
            count = ann.page.locator('[data-testid="notices-count"]')
            expect(count).to_be_visible()
            ann.page.locator('[data-testid="notices-link"]').click()
            notice = ann.page.locator('[data-testid="notice"][data-kind="follow"]')
            expect(notice).to_contain_text("jr_ben te sigue.")
            ann.page.screenshot(path=str(artifacts / "journey-notices-laptop.png"))
            notice.locator("a").click()
            ann.page.wait_for_url("**/players/jr_ben/")
            expect(count).to_be_hidden()
            ben.page.locator('[data-testid="notices-link"]').click()
            rematch = ben.page.locator('[data-testid="notice"][data-kind="rematch"]')
            expect(rematch).to_contain_text("jr_ann asks for a rematch")

            # ben fills a table of his own with bots: the last seat starts it.
            nav(ben, 'a[href="/lobby/"]')
            own = create_table(ben, seats=3, bots=0, rounds="3")
            for _ in range(2):
                with ben.page.expect_navigation():
                    ben.page.locator('[data-testid="add-bot"]').click()
            view = wait_table_live(ben, what="the table the bots filled")
            assert ben.page.url.endswith(f"/games/{own}/") and view["status"] == "active", view
            assert sum("bot" in name.lower() for name in view["names"]) == 2, view["names"]
    finally:
        for player in players:
            player.close()
