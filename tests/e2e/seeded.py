"""Browser-side steps of the seeded scenarios (tests/e2e/scenarios.py): waiting, with
Playwright's expect, until the human is to act on the settled page, and sending a scripted
decision through the page's own controls."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.e2e.helpers import SEED_HEADER, SETTLED, SUMMARY_SHOWN, Player, _click_move
from tests.e2e.scenarios import scripted_move

PAGE_VIEW_JS = "() => window.WizardTable.view"


def play_out(player: Player, *, watch: bool = False, to_summary: bool = False) -> None:
    """Until the page has played out everything it knows (for now: a push may come in right
    after), continuing each round's summary on the way: at the instant pace the page holds it
    until Continue. `watch`: the page closes each summary by itself (the normal pace), so
    nothing is clicked; `to_summary`: a summary that shows is left open."""
    page = player.page
    table = page.locator("#table")
    if watch:
        expect(table).to_have_attribute("data-settled", "true")
        return
    while True:
        expect(page.locator(f"{SETTLED}, {SUMMARY_SHOWN}").first).to_be_attached()
        if to_summary or not page.locator(SUMMARY_SHOWN).count():
            return
        page.locator(f"{SUMMARY_SHOWN} #summary-continue").click()


def next_decision(
    player: Player, *, watch: bool = False, to_summary: bool = False
) -> dict[str, Any]:
    """The page's game view once it has played out everything it knows and either the human
    is to act or the game is over; between, until the page shows the next event (the bots and
    the timer act in the worker, after the move before them). Summaries as play_out says; with
    `to_summary`, the view as soon as one shows."""
    page = player.page
    table = page.locator("#table")
    while True:
        play_out(player, watch=watch, to_summary=to_summary)
        view: dict[str, Any] = page.evaluate(PAGE_VIEW_JS)
        if to_summary and page.locator(SUMMARY_SHOWN).count():
            return view
        shown = table.get_attribute("data-seq")
        if shown != str(view["seq"]):
            continue  # a push came in since it settled: play that out first
        mine = view["legal"] is not None and view["to_act"] == view["you"]
        if view["status"] != "active" or mine:
            return view
        expect(table).not_to_have_attribute("data-seq", shown)


def control_for(move: dict[str, Any]) -> tuple[str, str | None]:
    """The control that sends `move` (an API move body), and for a card that asks what it
    plays as, the button that then answers."""
    kind = move["type"]
    if kind == "bid":
        return f'[data-testid="bid-button"][data-bid="{move["bid"]}"]', None
    if kind == "trump":
        if move["suit"] == "none":
            return '[data-testid="trump-none"]', None
        return f'[data-testid="trump-choice"][data-suit="{move["suit"]}"]', None
    if kind == "adjust":
        sign = "plus" if move["delta"] > 0 else "minus"
        return f'[data-testid="adjust-{sign}"]', None
    card = f'#hand button.legal[data-card="{move["card"]}"]'
    if "suit" in move:
        return card, f'[data-testid="declare-suit-{move["suit"]}"]'
    if "as" in move:
        return card, f'[data-testid="declare-as-{move["as"]}"]'
    return card, None  # a card played or passed


def describe(move: dict[str, Any]) -> str:
    return " ".join(str(value) for value in move.values())


def play_scripted(player: Player, view: dict[str, Any]) -> dict[str, Any]:
    """Sends scripted_move(view) through the page's controls and waits until the page shows
    what came after it; returns the move."""
    move = scripted_move(view)
    target, answer = control_for(move)
    if answer is not None:
        player.page.click(target)  # it asks first what the card plays as: nothing is sent
        target = answer
    _click_move(player, target, describe(move), view["seq"])
    return move


def create_api_table(player: Player, body: dict[str, Any], seed: str) -> dict[str, Any]:
    """POST /api/v1/games/ with the page's session, its table dealt from `seed`; the view."""
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    headers = {"X-CSRFToken": token, "Referer": player.page.url, SEED_HEADER: seed}
    response = player.context.request.post("/api/v1/games/", data=body, headers=headers)
    assert response.status == 201, f"create: {response.status} {response.text()}"
    game: dict[str, Any] = response.json()
    return game
