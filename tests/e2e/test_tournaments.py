"""Tournaments through the pages only, nobody typing an address.

A Swiss of two rounds: one player creates it with the form, two others find it in the list and
join from its page, the creator starts it, and each of the three opens their first table from
the tournament's page (the other two see it appear live) and plays it there. When the second
round is seated, every page takes its player to the new table: one with "Go now", the others
after the countdown they see. The second game's end leads back to the tournament, which shows
it finished, with three players who played two games each. An arena: each finished table's
players are taken to their next one. At a phone's and a laptop's size, in English, Spanish and
Czech."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    Player,
    play_turn,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)
from tests.e2e.page_waits import OVER, my_turn, until

pytestmark = pytest.mark.e2e

# Every player's requests fix this seed, so each round's table is dealt from it whoever's move
# seats the round.
SEED = "cup-1"
CHOICES = 1205  # the players' bids, trumps and cards: a random.Random seeded with this

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def create_tournament(player: Player, name: str = "Quick cup", arena: bool = False) -> str:
    """Fill in the creation form (Swiss of 2 rounds or a 10-minute arena, round 1 only, 3 a
    table); its page's path."""
    page = player.page
    page.goto("/tournaments/")
    page.locator('[data-testid="tournament-create"]').click()
    form = page.locator('[data-testid="tournament-form"]')
    form.locator("#id_name").fill(name)
    form.locator("#id_format").select_option("arena" if arena else "swiss")
    form.locator("#id_table_size").select_option("3")
    if arena:
        expect(form.locator("#id_rounds")).to_be_hidden()
        form.locator("#id_minutes").fill("10")
    else:
        form.locator("#id_rounds").fill("2")
    form.locator("#id_rounds_format").select_option("1")
    form.locator("#id_blind_first_round").uncheck()
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/tournaments/*/")
    assert name in page.locator("h1").inner_text()
    return page.url.removeprefix(page.url.split("/tournaments/")[0])


def fits(player: Player, name: str, artifacts: Path) -> None:
    assert player.page.evaluate(NO_HORIZONTAL_SCROLL_JS), f"{name} overflows for {player.username}"
    player.page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)


def open_tournaments(player: Player) -> None:
    """The Tournaments link of the header (behind the menu button on a phone)."""
    page = player.page
    toggle = page.locator('[data-testid="menu-toggle"]')
    if toggle.is_visible():
        toggle.click()
    page.locator('[data-testid="nav-tournaments"]').click()
    page.wait_for_url("**/tournaments/")


def join_from_the_list(player: Player, name: str, path: str) -> None:
    """Find the tournament in the list from the header's link and join it from its page."""
    open_tournaments(player)
    player.page.locator('[data-testid="tournament-row"]').filter(has_text=name).click()
    player.page.wait_for_url(f"**{path}")
    player.page.locator('[data-testid="tournament-join"]').click()
    expect(player.page.locator('[data-testid="tournament-withdraw"]')).to_be_visible()


def play_the_table(players: list[Player], rng: random.Random) -> None:
    """The three play their table through their pages until its end (each acts in turn)."""
    states = [wait_table_live(p, what="the tournament's table") for p in players]
    by_seat = {state["you"]: player for state, player in zip(states, players, strict=True)}
    assert sorted(by_seat) == [0, 1, 2], states
    fresh = max(states, key=lambda state: state["seq"])
    while fresh["status"] == "active":
        actor = by_seat[fresh["to_act"]]
        my_turn(actor, what=f"seat {fresh['to_act']}'s turn after seq {fresh['seq']}")
        fresh = play_turn(actor, rng)
    for player in players:
        until(player, OVER, what="the end of the tournament's game")


def test_three_players_play_a_two_round_swiss_from_the_pages_alone(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    host = sign_up(browser, server_url, "cup_host", viewport=LAPTOP, seed=SEED)
    ann = sign_up(browser, server_url, "cup_ann", viewport=PHONE, seed=SEED)
    bob = sign_up(browser, server_url, "cup_bob", viewport=LAPTOP, locale="es-ES", seed=SEED)
    players = [host, ann, bob]
    rng = random.Random(CHOICES)
    try:
        with screenshots_on_failure(artifacts, players):
            path = create_tournament(host)
            status = host.page.locator('[data-testid="tournament-status"]')
            assert status.inner_text().strip() == "Upcoming"
            expect(host.page.locator('[data-testid="tournament-countdown"]')).to_be_visible()
            host.page.locator('[data-testid="tournament-join"]').click()
            expect(host.page.locator('[data-testid="tournament-withdraw"]')).to_be_visible()

            for player in (ann, bob):
                join_from_the_list(player, "Quick cup", path)
            fits(ann, "tournament-upcoming-phone", artifacts)
            assert bob.page.locator('[data-testid="standing-row"]').count() == 3

            host.page.reload()
            host.page.locator('[data-testid="tournament-start"]').click()
            expect(host.page.locator('[data-testid="tournament-table"]')).to_be_visible()
            assert status.inner_text().strip() == "Running"
            fits(host, "tournament-running-laptop", artifacts)
            # The others' pages show the table live, their own with its Play link.
            for player in (ann, bob):
                mine = player.page.locator('[data-testid="tournament-table"].mine')
                expect(mine).to_be_visible()
            fits(ann, "tournament-running-phone", artifacts)

            # Each page says the table is ready: the host goes at once, ann opens it from the
            # tournament's list, bob's page takes him there after its countdown.
            for player in players:
                expect(player.page.locator('[data-testid="next-table"]')).to_be_visible()
            host.page.locator('[data-testid="next-table-go"]').click()
            mine = ann.page.locator('[data-testid="tournament-table"].mine')
            mine.locator('[data-testid="tournament-table-link"]').click()
            for player in players:
                player.page.wait_for_url("**/games/*/")
                view = wait_table_live(player, what="the tournament's first table")
                assert view["you"] is not None and view["hand"], f"{player.username}: no hand"
            assert len({player.page.url for player in players}) == 1
            # Arrived, the table's notice is read: the header counts no unread notice.
            for player in players:
                expect(player.page.locator('[data-testid="notices-count"]')).to_be_hidden()
            fits(ann, "tournament-table-phone", artifacts)
            first = host.page.url
            play_the_table(players, rng)

            # Round 2 is seated: every page says so and takes its player there.
            for player in players:
                toast = player.page.locator('[data-testid="next-table"]')
                expect(toast).to_be_visible()
                expect(toast.locator('[data-testid="next-table-countdown"]')).to_be_visible()
            assert "round 2" in host.page.locator('[data-testid="next-table"]').inner_text()
            assert "ronda 2" in bob.page.locator('[data-testid="next-table"]').inner_text()
            fits(ann, "tournament-next-table-phone", artifacts)
            host.page.locator('[data-testid="next-table-go"]').click()
            for player in players:  # the host at once, the others after the countdown
                player.page.wait_for_url(lambda url: "/games/" in url and url != first)
            assert len({player.page.url for player in players}) == 1
            play_the_table(players, rng)

            # The end leads back to the tournament: finished, three players, two games each.
            for player in players:
                back = player.page.locator('[data-testid="back-to-tournament"]')
                expect(back).to_be_visible()
            expect(host.page.locator('[data-testid="next-table"]')).to_have_count(0)
            ann.page.locator('[data-testid="back-to-tournament"]').click()
            ann.page.wait_for_url(f"**{path}")
            expect(ann.page.locator('[data-testid="tournament-status"]')).to_have_text("Finished")
            expect(ann.page.locator("#t-players")).to_have_text("3 players")
            rows = ann.page.locator('[data-testid="standing-row"]')
            expect(rows).to_have_count(3)
            fits(ann, "tournament-finished-phone", artifacts)
    finally:
        for player in players:
            player.close()


def test_an_arena_takes_its_players_from_each_finished_table_to_the_next(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """A 10-minute arena of three: started early, each page is taken to the first table; when
    the table ends, all three are free and seated again at once, and each page takes its player
    to the new table with nobody touching the address bar. One player reads it in Czech."""
    host = sign_up(browser, server_url, "arena_host", viewport=LAPTOP, seed=SEED)
    eva = sign_up(browser, server_url, "arena_eva", viewport=PHONE, locale="cs-CZ", seed=SEED)
    max_ = sign_up(browser, server_url, "arena_max", viewport=PHONE, seed=SEED)
    players = [host, eva, max_]
    rng = random.Random(CHOICES + 1)
    try:
        with screenshots_on_failure(artifacts, players):
            path = create_tournament(host, "Quick arena", arena=True)
            host.page.locator('[data-testid="tournament-join"]').click()
            expect(host.page.locator('[data-testid="tournament-withdraw"]')).to_be_visible()
            for player in (eva, max_):
                join_from_the_list(player, "Quick arena", path)
            host.page.reload()
            host.page.locator('[data-testid="tournament-start"]').click()
            assert host.page.locator('[data-testid="tournament-status"]').inner_text() == "Running"

            # Every page takes its player to the first table after the countdown it shows.
            for player in players:
                toast = player.page.locator('[data-testid="next-table"]')
                expect(toast).to_be_visible()
                expect(toast.locator('[data-testid="next-table-countdown"]')).to_be_visible()
            assert "váš stůl" in eva.page.locator('[data-testid="next-table"]').inner_text()
            for player in players:
                player.page.wait_for_url("**/games/*/")
            assert len({player.page.url for player in players}) == 1
            first = host.page.url
            play_the_table(players, rng)

            # Free again, the three are seated at a new table, and their pages take them there.
            for player in players:
                toast = player.page.locator('[data-testid="next-table"]')
                expect(toast).to_be_visible()
                expect(player.page.locator('[data-testid="back-to-tournament"]')).to_be_visible()
            fits(eva, "arena-next-table-phone", artifacts)
            eva.page.locator('[data-testid="next-table-go"]').click()
            for player in players:
                player.page.wait_for_url(lambda url: "/games/" in url and url != first)
            assert len({player.page.url for player in players}) == 1
            for player in players:
                view = wait_table_live(player, what="the arena's second table")
                assert view["you"] is not None and view["hand"], f"{player.username}: no hand"
            host_table = host.page.url

            # The arena's page, found from the header, shows the finished game and the one in play.
            open_tournaments(host)
            rows = host.page.locator('[data-testid="tournament-row"]')
            rows.filter(has_text="Quick arena").click()
            host.page.wait_for_url(f"**{path}")
            now = host.page.locator('#t-tables [data-testid="tournament-table"]')
            expect(now).to_have_count(1)
            expect(now.locator('[data-testid="tournament-table-link"]')).to_have_attribute(
                "href", host_table.removeprefix(server_url)
            )
            expect(host.page.locator('#t-past [data-testid="tournament-table"]')).to_have_count(1)
            fits(host, "arena-running-laptop", artifacts)
    finally:
        for player in players:
            player.close()
