"""The table page in each of its phases, for the accessibility checks: a seeded scenario
(tests/e2e/table_scenarios.py) played through the page's own controls at the instant pace,
where every step is a stable screen: a won trick stays on the table while its winner leads the
next, a round's summary until Continue, each decision until it is made. Each step waits, with
expect, for what the page shows, then hands every phase on screen to `on_shown`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from playwright.sync_api import expect

from games.engine import commitment
from tests.e2e.helpers import Player, _click_move, create_table
from tests.e2e.table_scenarios import CONTINUE, DECLARES, PHASES, Scenario, Step, table_options

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["PHASES", "api_headers", "play_scenario", "waiting_room"]

# What the page shows in each phase: it must be on screen before the phase is checked.
SHOWN = {
    "waiting-room": "#waiting-room",
    "bidding": '#controls [data-testid="bid-button"]',
    "playing": "#hand button.legal",
    "trick-end": "#trick-banner",
    "round-summary": "#round-summary",
    "trump-choice": '#controls [data-testid="trump-choice"]',
    "suit-picker": '#controls [data-testid^="declare-suit-"]',
    "shapeshifter-choice": '#controls [data-testid="declare-as-wizard"]',
    "pass-choice": '[data-testid="pass-panel"]',
    "pass-received": '[data-testid="pass-received"]',
    "cloud-adjust": '[data-testid="adjust-panel"]',
    "game-over": '[data-testid="game-over"]',
}
assert set(SHOWN) == set(PHASES)
# The player's turn, on a page that has played out every event it knows.
YOUR_TURN = '#table[data-settled="true"] #your-turn'
OnShown = Callable[[str], None]


def shown(page: Page, phases: tuple[str, ...] | list[str], on_shown: OnShown) -> None:
    for phase in phases:
        expect(page.locator(SHOWN[phase]).first).to_be_visible()
        on_shown(phase)


def target_of(move: str) -> str:
    """The control a move is made with (a card declared is first clicked in the hand)."""
    kind, code, *_ = move.split()
    if kind == "bid":
        return f'[data-testid="bid-button"][data-bid="{code}"]'
    if kind == "trump":
        return (
            '[data-testid="trump-none"]'
            if code == "none"
            else f'[data-testid="trump-choice"][data-suit="{code}"]'
        )
    if kind == "adjust":
        return '[data-testid="adjust-plus"]' if int(code) > 0 else '[data-testid="adjust-minus"]'
    return f'#hand button.legal[data-card="{code}"]'  # a card to play or to pass


def take_step(player: Player, step: Step, on_shown: OnShown) -> None:
    """What the step shows, then its move through the page's controls."""
    page = player.page
    if step.move == CONTINUE:  # the summary stays until Continue at the instant pace
        shown(page, step.shows, on_shown)
        page.locator("#summary-continue").click()
        expect(page.locator("#round-summary")).to_be_hidden()
        return
    expect(page.locator(YOUR_TURN)).to_be_visible()
    seq = int(page.locator("#table").get_attribute("data-seq") or "0")
    declares = [phase for phase in step.shows if phase in DECLARES.values()]
    shown(page, [phase for phase in step.shows if phase not in declares], on_shown)
    target = target_of(step.move)
    _, code, *rest = step.move.split()
    if rest:  # "play JU as red": the card asks first what it plays as (R24, R25)
        page.locator(target).click()
        shown(page, declares, on_shown)
        kind = "as" if code == "SH" else "suit"
        target = f'#controls [data-testid="declare-{kind}-{rest[1]}"]'
    _click_move(player, target, step.move, seq)


def play_scenario(player: Player, scenario: Scenario, on_shown: OnShown) -> int:
    """The scenario's table, created by a player whose requests carry its seed, played to the
    game's end on the page; the table's id."""
    game_id = create_scenario_table(player, scenario)
    player.page.goto(f"/games/{game_id}/")
    for step in scenario.steps:
        take_step(player, step, on_shown)
    shown(player.page, ["game-over"], on_shown)
    return game_id


def create_scenario_table(player: Player, scenario: Scenario) -> int:
    """A solo table of three seats with the scenario's options, through the API."""
    request = player.context.request
    body = table_options(scenario.special_cards)
    response = request.post("/api/v1/games/", data=body, headers=api_headers(player))
    assert response.status == 201, f"create: {response.status} {response.text()}"
    created = response.json()
    assert created["shuffle_commitment"] == commitment(scenario.seed), (
        f"{player.username} created table {created['id']} with another seed than"
        f" {scenario.seed!r}: was the player signed up with sign_up(..., seed=...)?"
    )
    return int(created["id"])


def waiting_room(player: Player, on_shown: OnShown) -> None:
    """A table of three with one bot waits for a second person; leave it afterwards."""
    create_table(player, seats=3, bots=1)
    shown(player.page, ["waiting-room"], on_shown)
    player.page.locator("#leave-button").click()
    player.page.wait_for_url("**/lobby/")


def api_headers(player: Player) -> dict[str, str]:
    """The CSRF header the API wants from a browser session."""
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    return {"X-CSRFToken": token, "Referer": player.page.url}
