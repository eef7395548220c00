"""Two friends meet at a private table through the pages only: they follow each other from
their profiles, one invites the other from the friends panel of the waiting room, the other
joins through the invitation's toast and they greet each other with preset chat, each in their
own language. A stranger finds the table nowhere and may not open it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    Player,
    create_table,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

SEED = "friends-1"  # the private table: the host, the guest and a bot, whatever it deals
# Every page's own socket (ws/me/) asks for the header's count of games awaiting your move
# as soon as it is open: by then the server counts the user online.
MY_TURNS = "/api/v1/games/?mine=true&my_turn=true"

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def befriend(one: Player, other: Player) -> None:
    """`one` follows `other` from their profile, and `other` follows back from `one`'s."""
    one.page.goto(f"/players/{other.username}/")
    one.page.locator('[data-testid="follow-button"]').click()
    expect(one.page.locator('[data-testid="unfollow-button"]')).to_be_visible()
    other.page.goto(f"/players/{one.username}/")
    assert other.page.locator('[data-testid="relation-status"]').inner_text().strip()
    other.page.locator('[data-testid="follow-button"]').click()
    expect(other.page.locator('[data-testid="unfollow-button"]')).to_be_visible()


def test_a_friend_invited_from_the_panel_joins_through_the_toast(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    host = sign_up(browser, server_url, "friend_host", viewport=LAPTOP, seed=SEED)
    guest = sign_up(browser, server_url, "friend_guest", viewport=PHONE, locale="es-ES")
    stranger = sign_up(browser, server_url, "friend_stranger", viewport=LAPTOP)
    players = [host, guest, stranger]
    try:
        with screenshots_on_failure(artifacts, players):
            befriend(host, guest)
            game_id = create_table(host, seats=3, bots=1, visibility="private")

            # Any page: its ws/me/ socket hears the invitation; once it is open, the guest is
            # online for the server.
            with guest.page.expect_response(lambda r: MY_TURNS in r.url):
                guest.page.goto("/lobby/")
            host.page.reload()  # the panel is drawn on load
            panel = host.page.locator('[data-testid="friends-panel"]')
            friend = panel.locator(f'[data-testid="friend-{guest.username}"]')
            online = friend.locator('[data-testid="friend-status"]')
            expect(online).to_have_text("online")
            friend.locator(f'[data-testid="invite-friend-{guest.username}"]').click()
            status = host.page.locator('[data-testid="invite-status"]')
            expect(status.filter(has_text=guest.username)).to_be_visible()
            host.page.screenshot(path=str(artifacts / "friends-waiting-room-laptop.png"))

            toast = guest.page.locator('[data-testid="invite-toast"]')
            expect(toast).to_be_visible()
            assert host.username in toast.inner_text()
            assert guest.page.evaluate(NO_HORIZONTAL_SCROLL_JS)
            guest.page.screenshot(path=str(artifacts / "friends-invite-toast-phone.png"))
            toast.locator('[data-testid="invite-toast-join"]').click()
            guest.page.wait_for_url(f"**/games/{game_id}/")
            wait_table_live(host, what="the private table to start when the friend joins")
            assert wait_table_live(guest, what="the friend's table to start")["you"] is not None

            stranger.page.goto("/lobby/")
            listed = stranger.page.locator(f'#tables [data-game="{game_id}"]')
            assert listed.count() == 0, "a stranger's lobby lists the private table"
            assert f"#{game_id}" not in stranger.page.locator("#tables").inner_text()
            refused = stranger.page.goto(f"/games/{game_id}/")
            assert refused is not None and refused.status == 403

            # A preset greeting: the guest reads it in Spanish, the host in English.
            spanish = guest.page.evaluate(
                """async () => (await (await fetch("/api/v1/chat/presets/")).json())
                  .find((p) => p.key === "good_luck").text"""
            )
            assert spanish != "Good luck!", "the presets are not translated into Spanish"
            host.page.locator('[data-testid="chat-preset-good_luck"]').click()
            greeting = guest.page.locator("#chat-messages li").filter(has_text=spanish)
            expect(greeting).to_be_attached()  # a phone may keep the chat folded away
            expect(
                host.page.locator("#chat-messages li").filter(has_text="Good luck!")
            ).to_be_visible()
    finally:
        for player in players:
            player.close()
