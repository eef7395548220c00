"""Helpers for the browser tests: players in their own browser context, and turns played
through the table page's controls only (bid buttons, trump buttons, legal cards)."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.sync_api import expect

from tests.processes import run_python

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "Plenty-of-Entropy-42!"
WAIT_MS = 20_000  # one step of the UI (a push, a reload) never takes this long

# The parts of the page's own game view (window.WizardTable.view) the tests steer by.
VIEW_JS = """() => {
  const table = window.WizardTable;
  if (!table || !document.getElementById("seats")) return null;
  const v = table.view;
  const r = v.round;
  return {
    seq: v.seq, status: v.status, you: v.you, to_act: v.to_act, legal: v.legal,
    hand: v.hand, visible_hands: v.visible_hands,
    scores: v.players.map((p) => p.score), names: v.players.map((p) => p.username),
    round: r && {number: r.number, cards: r.cards, phase: r.phase, dealer: r.dealer,
                 trick: r.trick.cards.length,
                 tricks_played: r.tricks_won.reduce((a, b) => a + b, 0)},
  };
}"""

# What the controls offer right now, read from the DOM (not from the view).
OPTIONS_JS = """() => {
  const codes = (selector) => [...document.querySelectorAll(selector)];
  return {
    bids: codes('[data-testid="bid-button"]:not(:disabled)').map((b) => Number(b.dataset.bid)),
    suits: codes('[data-testid="trump-choice"]:not(:disabled)').map((b) => b.dataset.suit),
    cards: codes('[data-testid="hand-card"][data-legal="true"]:not(:disabled)')
      .map((b) => b.dataset.card),
    blocked: codes('[data-testid="hand-card"]:disabled').map((b) => b.dataset.card),
  };
}"""

# The page has played out every event it received, with no move of the player's on its way.
SETTLED_JS = "() => !!window.WizardTable && !window.WizardTable.busy"
SETTLED = '#table[data-settled="true"]'
SUMMARY_SHOWN = "#round-summary:not([hidden])"
SEED_HEADER = "X-Test-Shuffle-Seed"

# Every card code this page shows in the player's hand and in the seat boxes.
SHOWN_CARDS_JS = """() => [...document.querySelectorAll("#hand [data-card], #seats [data-card]")]
  .map((el) => el.dataset.card).filter(Boolean)"""

NO_HORIZONTAL_SCROLL_JS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def timeout_error() -> type[Exception]:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    return PlaywrightTimeout


@dataclass
class Player:
    """A user signed up through the site, with their own browser context and page."""

    username: str
    context: BrowserContext
    page: Page
    moves: int = 0

    def view(self) -> dict[str, Any]:
        state: dict[str, Any] | None = self.page.evaluate(VIEW_JS)
        assert state is not None, f"{self.username}: {self.page.url} shows no live table"
        return state

    def wait_js(
        self, expression: str, arg: Any = None, *, what: str, timeout: int = WAIT_MS
    ) -> None:
        """page.wait_for_function with a failure message that says what was awaited."""
        try:
            self.page.wait_for_function(expression, arg=arg, timeout=timeout, polling="raf")
        except timeout_error() as error:
            raise AssertionError(
                f"{self.username}: waited {timeout / 1000:.0f} s for {what}; page {self.page.url}"
                f" shows {self._describe()}"
            ) from error

    def wait_seq(self, seq: int, *, what: str = "") -> None:
        """Until this page's view is at least as new as `seq`."""
        self.wait_js(
            "s => window.WizardTable && window.WizardTable.view.seq >= s",
            seq,
            what=what or f"its view to reach seq {seq}",
        )

    def _describe(self) -> str:
        try:
            state = self.page.evaluate(VIEW_JS)
            error = self.page.evaluate(
                "() => (document.getElementById('error-line') || {}).textContent || ''"
            )
        except Exception as failure:  # the page is navigating or gone
            return f"no readable state ({failure})"
        return f"state {state} error-line {error!r}"

    def close(self) -> None:
        self.context.close()


def sign_up(
    browser: Browser,
    base_url: str,
    username: str,
    *,
    pace: str = "instant",
    seed: str | None = None,
    **context_options: Any,
) -> Player:
    """A new browser context; the user signs up through /accounts/signup/ and lands logged in.
    `pace`: the table's animation setting, "instant" (nothing moves, a won trick stays until
    the next card, a round's summary until Continue) unless a test is about the animations.
    `seed`: the shuffle seed of every table this player creates (TEST_SHUFFLE_SEEDS), so the
    scenario deals the same hands and the bots answer the same way each run."""
    context = browser.new_context(base_url=base_url, **context_options)
    context.add_init_script(
        f"try {{ localStorage.setItem('wizard.pace', '{pace}'); }} catch (e) {{}}"
    )
    if seed is not None:
        context.set_extra_http_headers({SEED_HEADER: seed})
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url("**/lobby/")
    nav = page.locator(f'header.site nav a[href="/players/{username}/"]')
    # On a phone the header's links sit behind its menu button: present, not necessarily shown.
    expect(nav).to_have_count(1)
    return Player(username=username, context=context, page=page)


def create_table(
    player: Player,
    *,
    seats: int,
    bots: int,
    hook_rule: bool = True,
    blind_first_round: bool = True,
    visibility: str = "public",
    rounds: str = "full",
) -> int:
    """Fill in the lobby's create-table form; returns the new table's id."""
    page = player.page
    if not page.url.endswith("/lobby/"):
        page.goto("/lobby/")
    form = page.locator("#create-table")
    form.locator("#id_seats").select_option(str(seats))
    form.locator("#id_bots").select_option(str(bots))
    form.locator("#id_hook_rule").set_checked(hook_rule)
    form.locator("#id_blind_first_round").set_checked(blind_first_round)
    form.locator("#id_visibility").select_option(visibility)
    form.locator("#id_rounds").select_option(rounds)
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/games/*/")
    game_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    return game_id


def settle(player: Player, *, steps: int = 1000) -> None:
    """Until the page has played out everything it knows, continuing each round's summary on
    the way (at the instant pace a summary waits for Continue: the page never closes it)."""
    page = player.page
    table = page.locator("#table")
    summary = page.locator(f"{SUMMARY_SHOWN} #summary-continue")
    either = page.locator(f"{SETTLED}, {SUMMARY_SHOWN}").first
    for _ in range(steps):  # each step continues a summary, or sees events arrive meanwhile
        expect(either).to_be_attached()
        if summary.count():
            summary.click()
        elif table.get_attribute("data-settled") == "true":
            return
    raise AssertionError(f"{player.username}: the table never settled: {player._describe()}")


def rest_view(
    player: Player, game_id: int, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """The game as the REST API shows it to the player (their session, or `headers`)."""
    response = player.context.request.get(f"/api/v1/games/{game_id}/", headers=headers)
    assert response.ok, (
        f"{player.username}: GET game {game_id}: {response.status} {response.text()}"
    )
    view: dict[str, Any] = response.json()
    return view


def rest_view_when(
    player: Player,
    game_id: int,
    ready: Callable[[dict[str, Any]], bool],
    *,
    what: str,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Polls the REST view until `ready(view)`: bots and the turn timer act in the Celery
    worker, after the answer to the move before them."""
    end = time.monotonic() + WAIT_MS / 1000
    while not ready(view := rest_view(player, game_id, headers)):
        assert time.monotonic() < end, (
            f"{player.username}: waited {WAIT_MS / 1000:.0f} s for {what}; game {game_id} is at"
            f" seq {view['seq']}, {view['status']}, seat {view['to_act']} to act"
        )
        time.sleep(0.05)
    return view


def is_mine_or_over(view: dict[str, Any]) -> bool:
    """The view's player is to act, or the game is over."""
    return view["status"] != "active" or (
        view["legal"] is not None and view["to_act"] == view["you"]
    )


def view_when_mine(
    player: Player, game_id: int, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """The REST view once the player is to act or the game has ended."""
    return rest_view_when(
        player, game_id, is_mine_or_over, what="their turn or the end of the game", headers=headers
    )


def wait_table_live(player: Player, *, what: str) -> dict[str, Any]:
    """Until the page shows the running table (it switches by itself when the game starts)."""
    player.wait_js(
        "() => !!document.getElementById('seats') && !!window.WizardTable"
        " && window.WizardTable.view.status !== 'open'",
        what=what,
    )
    return player.view()


def play_turn(player: Player, rng: random.Random) -> dict[str, Any]:
    """The player acts through the page: a random legal bid button, trump button or card.

    Checks that the controls offer exactly what the view says is legal, clicks, waits for the
    server's answer and for the page's view to move on; returns that new view."""
    settle(player)
    state = player.view()
    legal = state["legal"]
    assert state["status"] == "active" and legal, f"{player.username} cannot act now: {state}"
    assert state["to_act"] == state["you"], f"{player.username} has controls out of turn: {state}"
    options = player.page.evaluate(OPTIONS_JS)
    if "bids" in legal:
        assert sorted(options["bids"]) == sorted(legal["bids"]), (state, options)
        choice = rng.choice(options["bids"])
        target, move = f'[data-testid="bid-button"][data-bid="{choice}"]', f"bid {choice}"
    elif "suits" in legal:
        assert sorted(options["suits"]) == sorted(legal["suits"]), (state, options)
        choice = rng.choice(options["suits"])
        target, move = f'[data-testid="trump-choice"][data-suit="{choice}"]', f"trump {choice}"
    else:
        assert sorted(options["cards"]) == sorted(legal["cards"]), (state, options)
        hand = state["hand"] or []
        assert sorted(options["blocked"]) == sorted(set(hand) - set(legal["cards"])), (
            f"{player.username}: illegal cards not disabled",
            state,
            options,
        )
        choice = rng.choice(options["cards"])
        target = f'[data-testid="hand-card"][data-legal="true"][data-card="{choice}"]'
        move = f"play {choice}"
    _click_move(player, target, move, state["seq"])
    player.moves += 1
    return player.view()


def _click_move(player: Player, target: str, move: str, seq: int) -> None:
    """Click a control of the settled page and wait until the page shows what came after
    `seq`, or says why the move was refused (the page asks for the server's view after a
    refusal, so a refused move says so before its page moves on): no error may show."""
    page = player.page
    _click(player, target, move)
    moved_or_refused = page.locator(f'#table:not([data-seq="{seq}"]), #error-line:not(:empty)')
    expect(moved_or_refused.first).to_be_attached()
    error = page.locator("#error-line").text_content()
    assert not error, f"{player.username}: {move} refused: {error!r}; {player._describe()}"
    expect(page.locator("#table")).not_to_have_attribute("data-seq", str(seq))


def _click(player: Player, target: str, move: str) -> None:
    try:
        player.page.click(target, timeout=WAIT_MS)
    except timeout_error() as error:
        raise AssertionError(
            f"{player.username} could not click {target} ({move}): {error}"
            f"\npage shows {player._describe()}"
        ) from error


def table_fits_viewport(page: Page) -> bool:
    fits: bool = page.evaluate(NO_HORIZONTAL_SCROLL_JS)
    return fits


def in_viewport_width(page: Page, selector: str) -> list[str]:
    """The elements matching `selector` that are hidden or stick out left or right."""
    problems: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].flatMap((el) => {
             const box = el.getBoundingClientRect();
             const shown = box.width > 0 && box.height > 0
               && getComputedStyle(el).visibility !== "hidden";
             return shown && box.left >= 0 && box.right <= window.innerWidth + 0.5 ? []
               : [`${el.outerHTML.slice(0, 80)} at ${box.left}..${box.right}`];
           })""",
        selector,
    )
    return problems


@contextlib.contextmanager
def screenshots_on_failure(artifacts: Path, players: list[Player]) -> Iterator[None]:
    """On any failure, saves what each player's page showed as failure-<username>.png."""
    try:
        yield
    except BaseException:
        for player in players:
            with contextlib.suppress(Exception):
                player.page.screenshot(
                    path=str(artifacts / f"failure-{player.username}.png"), full_page=True
                )
        raise


class Deadline:
    """A bound on a whole test, with a message that says how far it got."""

    def __init__(self, seconds: float, what: str) -> None:
        self.end = time.monotonic() + seconds
        self.seconds = seconds
        self.what = what

    def check(self, progress: str) -> None:
        assert time.monotonic() < self.end, (
            f"{self.what} did not finish within {self.seconds / 60:.0f} minutes; got to {progress}"
        )


def manage(env: dict[str, str], *args: str) -> str:
    """`manage.py ARGS` against the site's database; its output."""
    return run_python(env, "manage.py", *args)
