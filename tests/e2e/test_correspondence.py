"""A correspondence table in the browser: created with the lobby's "3 days" preset, its clock
reads in days and hours, the header's count of games awaiting your move changes live
(ws/me/) when another player's move through the API makes it your turn, and resigning asks
for confirmation first."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import PASSWORD, screenshots_on_failure, sign_up

pytestmark = pytest.mark.e2e

THREE_DAYS = 3 * 24 * 3600
# alice deals round 1 and turns up the red 4 (no Wizard, so nobody chooses trump): bob (seat 1)
# bids first, then carol, then alice.
SEED = "correspondence-6"


def api(base: str, method: str, path: str, token: str | None, body: Any = None) -> Any:
    """A JSON call to the served API, as an app would make it."""
    request = urllib.request.Request(
        base + "/api/v1/" + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Accept": "application/json"},
    )
    if token:
        request.add_header("Authorization", f"Token {token}")
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read() or b"{}")


def first_move(view: dict[str, Any]) -> dict[str, Any]:
    (kind, options), *_ = view["legal"].items()
    body = {
        "bids": {"type": "bid", "bid": options[0]},
        "cards": {"type": "play", "card": options[0]},
    }
    move = body.get(kind, {"type": "trump", "suit": options[0]})
    return {**move, "seq": view["seq"]}


def test_a_correspondence_table_shows_days_and_the_header_counts_turns_live(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    alice = sign_up(browser, server_url, "alice_mail", seed=SEED)
    with screenshots_on_failure(artifacts, [alice]):
        page = alice.page
        form = page.locator("#create-table")
        form.locator("#id_seats").select_option("3")
        form.locator("#id_bots").select_option("0")
        form.locator("#id_blind_first_round").set_checked(False)
        form.locator("#turn-preset").select_option(str(THREE_DAYS))
        assert form.locator("#id_turn_seconds").input_value() == str(THREE_DAYS)
        form.locator("button[type=submit]").click()
        page.wait_for_url("**/games/*/")
        game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
        assert "3 d per turn" in page.locator(".table-facts").inner_text()

        alice_token = api(
            server_url,
            "POST",
            "accounts/token/",
            None,
            {"username": "alice_mail", "password": PASSWORD},
        )["token"]
        tokens = {0: alice_token}
        for seat, name in ((1, "bob_mail"), (2, "carol_mail")):
            other = api(
                server_url,
                "POST",
                "accounts/register/",
                None,
                {"username": name, "password": PASSWORD, "email": f"{name}@example.com"},
            )
            api(server_url, "POST", f"games/{game_id}/join/", other["token"])
            tokens[seat] = other["token"]

        # The clock of the decision due, in days and hours (a 3-day limit: "2 d 23 h").
        clock = page.locator('[data-testid="turn-clock"]')
        expect(clock).to_be_visible()
        assert re.search(r"\b(2 d 23 h|3 d 0 h)\b", clock.inner_text()), clock.inner_text()
        page.screenshot(path=str(artifacts / "correspondence-table.png"))

        badge = page.locator("#my-turns")
        view = api(server_url, "GET", f"games/{game_id}/", alice_token)
        assert view["status"] == "active" and view["to_act"] == 1, view  # SEED: bob bids first
        for seat in (1, 2):
            # Another player is to act: alice's header shows no game awaiting her.
            expect(badge).to_be_hidden()
            mine = api(server_url, "GET", f"games/{game_id}/", tokens[seat])
            after = api(
                server_url, "POST", f"games/{game_id}/moves/", tokens[seat], first_move(mine)
            )
        assert after["to_act"] == 0, after  # carol's bid hands the turn to alice
        # That move made it alice's turn: her header says so without a reload.
        expect(badge).to_be_visible()
        expect(badge).to_have_text(re.compile(r"\b1\b"))
        # The table plays out the push on its own pace: its clock then names alice.
        expect(clock).to_have_text(re.compile(r"^Your move"))
        page.screenshot(path=str(artifacts / "correspondence-your-turn.png"))

        # Resigning asks first; then the seat is away for the rest of the game (R18) and the
        # page offers no "I'm back".
        page.click("#resign-button")
        expect(page.locator("#resign-confirm")).to_be_visible()
        page.click("#resign-no")
        assert page.locator("#resign-confirm").is_hidden()
        assert (
            api(server_url, "GET", f"games/{game_id}/", alice_token)["players"][0]["away"] is False
        )
        page.click("#resign-button")
        page.click("#resign-yes")
        expect(page.locator("#resign")).to_be_hidden()
        view = api(server_url, "GET", f"games/{game_id}/", alice_token)
        assert view["status"] == "active" and view["players"][0]["away"] is True
        assert view["players"][0]["resigned"] is True
        assert page.locator("#back-button").count() == 0
        page.reload()  # the view says so: still no "I'm back" and no "Resign…"
        expect(page.locator('[data-testid="turn-clock"]')).to_be_visible()
        assert page.locator("#back-button").count() == 0 and page.locator("#resign").is_hidden()

        # The profile page has the notification settings and the push opt-in button.
        page.goto("/lobby/")
        page.screenshot(path=str(artifacts / "correspondence-lobby.png"), full_page=True)
        page.goto("/players/alice_mail/")
        expect(page.locator("#notification-settings")).to_be_visible()
        assert page.locator("#email-turns").is_checked()
        page.screenshot(path=str(artifacts / "correspondence-profile.png"), full_page=True)
    alice.close()
