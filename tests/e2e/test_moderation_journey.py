"""A report's whole way, as the people involved walk it: ana reports rude's insult from the
table's dialog; the moderator sees it counted on the admin's index, opens it, reads the chat
around it and rude's record, and suspends rude for 7 days in one step. The insult disappears
from ana's table, rude's seat at carl's waiting table is free, and rude's next page and his
log-in say, in Spanish, that his account is suspended until when and why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    PASSWORD,
    Player,
    create_table,
    manage,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
INSULT = "you all play like potatoes"
REASON = "insults at the table"
MAKE_MODERATOR = """
from django.contrib.auth.models import Group, User
user = User.objects.get(username="{name}")
user.is_staff = True
user.save(update_fields=["is_staff"])
user.groups.add(Group.objects.get(name="Moderators"))
"""


def join(player: Player, game_id: int) -> None:
    player.page.goto(f"/games/{game_id}/")
    player.page.locator("#join-button").click()
    player.page.wait_for_url(f"**/games/{game_id}/")


def test_a_report_is_answered_and_the_suspension_takes_effect(
    browser: Any, server_url: str, site_env: dict[str, str], artifacts: Path
) -> None:
    ana = sign_up(browser, server_url, "ana_reports", viewport=LAPTOP, seed="journey-report-1")
    rude = sign_up(browser, server_url, "rude_rudi", viewport=PHONE, locale="es-ES")
    carl = sign_up(browser, server_url, "carl_waits", viewport=LAPTOP)
    mod = sign_up(browser, server_url, "mod_maria", viewport=LAPTOP)
    manage(site_env, "shell", "-c", MAKE_MODERATOR.format(name=mod.username))
    people = [ana, rude, carl, mod]
    try:
        with screenshots_on_failure(artifacts, people):
            waiting = create_table(carl, seats=4, bots=0)
            join(rude, waiting)
            mod.page.goto("/admin/")
            before = int(mod.page.locator('[data-testid="report-queue-count"]').inner_text())
            running = create_table(ana, seats=3, bots=1)
            join(rude, running)
            wait_table_live(ana, what="ana's table to start once rude joins")

            # rude insults the table; ana reports it from the table's dialog.
            chat = rude.page.locator("#chat-text")
            chat.fill(INSULT)
            chat.press("Enter")
            line = ana.page.locator("#chat-messages li").filter(has_text=INSULT)
            line.locator('[data-testid="chat-report"]').click()
            dialog = ana.page.locator('[data-testid="report-dialog"]')
            dialog.locator('[data-testid="report-category-insult"]').check()
            dialog.locator('[data-testid="report-send"]').click()
            expect(dialog).to_be_hidden()

            # The moderator finds it counted on the admin's index (with those of the other
            # tests on this site) and opens it from the queue.
            page = mod.page
            page.goto("/admin/")
            count = page.locator('[data-testid="report-queue-count"]')
            expect(count).to_have_text(str(before + 1))
            page.locator('[data-testid="report-queue-link"]').click()
            row = page.locator("#result_list tbody tr").filter(has_text=rude.username)
            row.locator("th.field-id a").click()
            review = page.locator('[data-testid="report-review"]')
            expect(review.locator('[data-testid="report-reported-message"]')).to_contain_text(
                INSULT
            )
            expect(review.locator('[data-testid="report-record"]')).to_contain_text("Reliability")
            expect(review.locator('[data-testid="report-profile-link"]')).to_have_text(
                rude.username
            )
            page.screenshot(path=str(artifacts / "moderation-report-page.png"), full_page=True)

            # One step: the reason, then "Suspend 7 days".
            review.locator('[data-testid="report-answer-reason"]').fill(REASON)
            review.locator('[data-testid="report-answer-suspend_7"]').click()
            expect(page.locator("ul.messagelist")).to_contain_text("Suspend 7 days, done")

            # The insult is gone from ana's table, rude's seat at carl's table is free.
            expect(line).to_have_count(0)
            carl.page.goto(f"/games/{waiting}/")
            seats = carl.page.evaluate(
                f"""async () => (await (await fetch("/api/v1/games/{waiting}/")).json())
                  .players.map((p) => p.username)"""
            )
            assert rude.username not in seats and carl.username in seats

            # rude's next page and his log-in say why and until when, in Spanish.
            rude.page.goto("/lobby/")
            told = rude.page.locator("ul.messages")
            expect(told).to_contain_text("Tu cuenta está suspendida hasta")
            expect(told).to_contain_text(REASON)
            rude.page.screenshot(path=str(artifacts / "moderation-suspended-phone.png"))
            rude.page.goto("/accounts/login/")
            rude.page.fill("#id_username", rude.username)
            rude.page.fill("#id_password", PASSWORD)
            rude.page.click("main form button[type=submit]")
            refused = rude.page.locator("main .errorlist")
            expect(refused).to_contain_text("Tu cuenta está suspendida hasta")
            expect(refused).to_contain_text(REASON)
    finally:
        for player in people:
            player.close()
