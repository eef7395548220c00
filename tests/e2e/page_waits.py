"""Waits on what a table page shows, with Playwright's expect (no polling from the test): the
table root's data-settled and data-seq, its my-turn and finished classes and the seat boxes'
data-active. Each round's summary met on the way is continued (at the instant pace it stays
until the player continues), or handled as the caller says. And the replay, once its review
is stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect

from tests.e2e.helpers import SUMMARY_SHOWN, VIEW_JS, WAIT_MS, Player

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SETTLED = '#table[data-settled="true"]'
MY_TURN = '#table.my-turn[data-settled="true"]'
OVER = '#table.finished[data-settled="true"]'
CONTINUE = f"{SUMMARY_SHOWN} #summary-continue"


def at_seq(seq: int) -> str:
    """The page has played out everything up to `seq` and rests there."""
    return f'{SETTLED}[data-seq="{seq}"]'


def seat_acts(seat: int, *, after: int | None = None) -> str:
    """The page rests on `seat`'s decision (past `after`, the seq of a move already made)."""
    moved = "" if after is None else f':not([data-seq="{after}"])'
    return f'{SETTLED}{moved}:has([data-testid="seat-{seat}"][data-active="true"])'


def continue_summary(player: Player) -> None:
    """Clicks Continue on the round's summary (at the instant pace it waits for that)."""
    player.page.locator(CONTINUE).click()


def until(
    player: Player,
    selector: str,
    *,
    what: str,
    on_summary: Callable[[Player], None] = continue_summary,
    summaries: int = 30,
    timeout: int = WAIT_MS,
) -> int:
    """Until the page matches `selector` (a settled state: no summary is open then), handling
    each round's summary shown on the way with `on_summary`; how many there were."""
    page = player.page
    either = page.locator(f"{selector}, {SUMMARY_SHOWN}").first
    summary = page.locator(SUMMARY_SHOWN)
    for handled in range(summaries + 1):
        try:
            expect(either).to_be_attached(timeout=timeout)
        except AssertionError as error:
            raise AssertionError(
                f"{player.username}: waited {timeout / 1000:.0f} s for {what} ({selector});"
                f" the page shows {shown(player)}"
            ) from error
        if not summary.count():
            return handled
        on_summary(player)
    raise AssertionError(f"{player.username}: more than {summaries} summaries before {what}")


def my_turn(player: Player, *, what: str = "their turn") -> dict[str, Any]:
    """Until the page offers the player a decision; the page's view then."""
    until(player, MY_TURN, what=what)
    return player.view()


def my_turn_or_over(player: Player, *, what: str = "their turn or the game's end") -> int:
    """Until the page offers the player a decision or shows the game over; the summaries
    handled on the way."""
    return until(player, f"{MY_TURN}, {OVER}", what=what)


def shown(player: Player) -> str:
    """What the page shows, for a failure message."""
    try:
        state = player.page.evaluate(VIEW_JS)
        root = player.page.evaluate(
            "() => { const t = document.getElementById('table');"
            " return t && {cls: t.className, seq: t.dataset.seq, settled: t.dataset.settled,"
            " error: (document.getElementById('error-line') || {}).textContent}; }"
        )
    except Exception as failure:  # the page is navigating or gone
        return f"nothing readable ({failure})"
    return f"{root} with view {state}"


def visitor(browser: Browser, base_url: str, *, pace: str = "instant") -> Player:
    """A signed-out visitor in their own browser context, at the table's `pace`."""
    context = browser.new_context(base_url=base_url)
    context.add_init_script(
        f"try {{ localStorage.setItem('wizard.pace', '{pace}'); }} catch (e) {{}}"
    )
    context.set_default_timeout(WAIT_MS)
    return Player(username="visitor", context=context, page=context.new_page())


def open_reviewed_replay(page: Page, game_id: int) -> None:
    """The replay of a finished game as its player sees it once the worker has stored the hard
    bot's review (it starts when the game ends): until then the page says the review is
    pending, asks for it every few seconds, and shows it when it is there."""
    page.goto(f"/games/{game_id}/replay/")
    expect(page.locator("#review-summary")).to_be_visible(timeout=WAIT_MS * 3)
    expect(page.locator("#review-pending")).to_have_count(0)
    analysis = f"/api/v1/games/{game_id}/analysis/"
    status = page.request.get(analysis).status
    assert status == 200, f"GET {analysis}: {status}"
