"""A Swiss tournament through the pages only: one player creates it with the form, two others
join from its page, the creator starts it, and each of the three opens their first table from
the tournament's page (the other two see it appear live) and finds their hand there. The pages
fit a phone and a laptop."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    Player,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

SEED = "cup-1"  # the host starts the tournament: its first table is dealt from this seed

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def create_tournament(player: Player) -> str:
    """Fill in the creation form (Swiss, 1 round, round 1 only, 3 a table); its page's path."""
    page = player.page
    page.goto("/tournaments/")
    page.locator('[data-testid="tournament-create"]').click()
    form = page.locator('[data-testid="tournament-form"]')
    form.locator("#id_name").fill("Quick cup")
    form.locator("#id_format").select_option("swiss")
    form.locator("#id_table_size").select_option("3")
    form.locator("#id_rounds").fill("1")
    form.locator("#id_rounds_format").select_option("1")
    form.locator("#id_blind_first_round").uncheck()
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/tournaments/*/")
    assert "Quick cup" in page.locator("h1").inner_text()
    return page.url.removeprefix(page.url.split("/tournaments/")[0])


def fits(player: Player, name: str, artifacts: Path) -> None:
    assert player.page.evaluate(NO_HORIZONTAL_SCROLL_JS), f"{name} overflows for {player.username}"
    player.page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)


def test_three_players_meet_at_the_first_table_of_a_swiss_tournament(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    host = sign_up(browser, server_url, "cup_host", viewport=LAPTOP, seed=SEED)
    ann = sign_up(browser, server_url, "cup_ann", viewport=PHONE)
    bob = sign_up(browser, server_url, "cup_bob", viewport=LAPTOP, locale="es-ES")
    players = [host, ann, bob]
    try:
        with screenshots_on_failure(artifacts, players):
            path = create_tournament(host)
            status = host.page.locator('[data-testid="tournament-status"]')
            assert status.inner_text().strip() == "Upcoming"
            expect(host.page.locator('[data-testid="tournament-countdown"]')).to_be_visible()
            host.page.locator('[data-testid="tournament-join"]').click()
            expect(host.page.locator('[data-testid="tournament-withdraw"]')).to_be_visible()

            ann.page.goto("/tournaments/")
            ann.page.locator('[data-testid="tournament-row"]').filter(has_text="Quick cup").click()
            ann.page.wait_for_url(f"**{path}")
            ann.page.locator('[data-testid="tournament-join"]').click()
            expect(ann.page.locator('[data-testid="tournament-withdraw"]')).to_be_visible()
            fits(ann, "tournament-upcoming-phone", artifacts)
            bob.page.goto(path)
            bob.page.locator('[data-testid="tournament-join"]').click()
            expect(bob.page.locator('[data-testid="tournament-withdraw"]')).to_be_visible()
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

            for player in players:
                table = player.page.locator('[data-testid="tournament-table"].mine')
                table.locator('[data-testid="tournament-table-link"]').click()
                player.page.wait_for_url("**/games/*/")
                view = wait_table_live(player, what="the tournament's first table")
                assert view["you"] is not None and view["hand"], f"{player.username}: no hand"
            fits(ann, "tournament-table-phone", artifacts)
            ann.page.goto("/tournaments/")
            fits(ann, "tournaments-list-phone", artifacts)
    finally:
        for player in players:
            player.close()
