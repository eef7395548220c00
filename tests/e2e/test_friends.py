"""Two friends meet at a private table through the pages only: they follow each other from
their profiles, one invites the other from the friends panel of the waiting room, the other
joins through the invitation's toast and they greet each other with preset chat, each in their
own language. A stranger finds the table nowhere and may not open it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.helpers import (
    NO_HORIZONTAL_SCROLL_JS,
    WAIT_MS,
    Player,
    create_table,
    screenshots_on_failure,
    sign_up,
    wait_table_live,
)

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def befriend(one: Player, other: Player) -> None:
    """`one` follows `other` from their profile, and `other` follows back from `one`'s."""
    one.page.goto(f"/players/{other.username}/")
    one.page.locator('[data-testid="follow-button"]').click()
    one.page.wait_for_selector('[data-testid="unfollow-button"]')
    other.page.goto(f"/players/{one.username}/")
    assert other.page.locator('[data-testid="relation-status"]').inner_text().strip()
    other.page.locator('[data-testid="follow-button"]').click()
    other.page.wait_for_selector('[data-testid="unfollow-button"]')


def test_a_friend_invited_from_the_panel_joins_through_the_toast(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    host = sign_up(browser, server_url, "friend_host", viewport=LAPTOP)
    guest = sign_up(browser, server_url, "friend_guest", viewport=PHONE, locale="es-ES")
    stranger = sign_up(browser, server_url, "friend_stranger", viewport=LAPTOP)
    players = [host, guest, stranger]
    try:
        with screenshots_on_failure(artifacts, players):
            befriend(host, guest)
            game_id = create_table(host, seats=3, bots=1, visibility="private")

            guest.page.goto("/lobby/")  # any page: its ws/me/ socket hears the invitation
            panel = host.page.locator('[data-testid="friends-panel"]')
            friend = panel.locator(f'[data-testid="friend-{guest.username}"]')
            online = friend.locator('[data-testid="friend-status"]')
            for _ in range(10):  # the panel is drawn on load: reload until the guest is online
                if "online" in online.inner_text() and "offline" not in online.inner_text():
                    break
                host.page.wait_for_timeout(500)
                host.page.reload()
            friend.locator(f'[data-testid="invite-friend-{guest.username}"]').click()
            status = host.page.locator('[data-testid="invite-status"]')
            status.filter(has_text=guest.username).wait_for(timeout=WAIT_MS)
            host.page.screenshot(path=str(artifacts / "friends-waiting-room-laptop.png"))

            toast = guest.page.locator('[data-testid="invite-toast"]')
            toast.wait_for(timeout=WAIT_MS)
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
            greeting.wait_for(state="attached")  # a phone may keep the chat folded away
            host.page.locator("#chat-messages li").filter(has_text="Good luck!").wait_for()
    finally:
        for player in players:
            player.close()
