"""The table as a player sees it, at the normal animation pace: a solo game against bots
through three rounds at a laptop's and a phone's screen size. On every turn of yours the hand,
the trick and the turn timer are on screen; each trick a bot wins stays with its winner named;
every round ends on its summary, and the blind round's summary reveals your card. Also: the
waiting room follows joins live, every language's table is free of English leftovers, and no
page asks another host for anything or logs an error."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.e2e.helpers import (
    Deadline,
    Player,
    screenshots_on_failure,
    sign_up,
    timeout_error,
    view_when_mine,
)

pytestmark = pytest.mark.e2e

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
NORMAL_MS = 30_000

# Installed by the test (not the page): records what the table showed, as it showed it.
RECORDER_JS = """() => {
  if (window.__seen) return;
  const seen = window.__seen = { winners: [], summaries: [], reveals: [] };
  const banner = document.querySelector('[data-testid="trick-winner"]');
  const summary = document.querySelector('[data-testid="round-summary"]');
  new MutationObserver(() => {
    if (!banner.hidden && banner.textContent) {
      const cards = [...document.querySelectorAll('[data-testid="trick-card"]')];
      const winner = cards.find((c) => c.classList.contains("winner"));
      const last = seen.winners[seen.winners.length - 1];
      if (!last || last.until || last.text !== banner.textContent || last.cards !== cards.length) {
        seen.winners.push({ text: banner.textContent, cards: cards.length, at: performance.now(),
          seat: winner ? Number(winner.dataset.seat) : null });
      }
    } else if (seen.winners.length && !seen.winners[seen.winners.length - 1].until) {
      seen.winners[seen.winners.length - 1].until = performance.now();
    }
  }).observe(banner, { attributes: true, childList: true, characterData: true, subtree: true });
  new MutationObserver(() => {
    if (summary.hidden) return;
    const title = summary.querySelector("h2");
    const text = title ? title.textContent : "";
    if (seen.summaries.includes(text)) return;
    seen.summaries.push(text);
    const reveal = summary.querySelector(".reveal [data-card]");
    seen.reveals.push(reveal ? reveal.dataset.card : null);
  }).observe(summary, { attributes: true, childList: true });
}"""

# Each element the player needs on their turn, as it lies in the viewport (no scrolling).
ON_SCREEN_JS = """(selectors) => selectors.map((selector) => {
  const els = [...document.querySelectorAll(selector)];
  if (!els.length) return selector + ": missing";
  const bad = els.filter((el) => { const b = el.getBoundingClientRect();
    return !(b.width > 0 && b.top >= -1 && b.left >= -1 && b.bottom <= innerHeight + 1
      && b.right <= innerWidth + 1); });
  return bad.length ? selector + ": " + bad.length + " of " + els.length + " off screen, e.g. "
    + JSON.stringify(bad[0].getBoundingClientRect()) : "";
}).filter(Boolean)"""

# Where the page's parts are (top and height, CSS px), for a failure's message.
LAYOUT_JS = """() => Object.fromEntries([...document.querySelectorAll('header.site,'
    + ' main > :not([hidden]), .arena, .table-bar, .ring, .my-zone, .my-zone > :not([hidden])')]
  .map((e) => { const b = e.getBoundingClientRect();
    return [e.id || e.tagName.toLowerCase() + '.' + e.className,
      [Math.round(b.top), Math.round(b.height)]]; }))"""

MY_TURN_JS = """() => { const t = window.WizardTable; if (!t) return false; const v = t.view;
  return !t.busy && v.status === "active" && v.legal !== null && v.to_act === v.you; }"""


def watch_page(player: Player, base_url: str) -> tuple[list[str], list[str]]:
    """Console errors and requests to any other host, collected while the test runs."""
    errors: list[str] = []
    foreign: list[str] = []
    host = urlsplit(base_url).netloc
    page = player.page
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "request",
        lambda r: (
            urlsplit(r.url).scheme in ("http", "https", "ws", "wss")
            and urlsplit(r.url).netloc != host
            and foreign.append(r.url)
        ),
    )
    return errors, foreign


def my_move(player: Player, rng: random.Random) -> None:
    """A legal bid, trump or card, clicked through the markers the page provides."""
    page = player.page
    for selector in (
        '[data-testid="bid-button"]:not([disabled])',
        '[data-testid="trump-choice"]',
        '[data-testid="hand-card"][data-legal="true"]',
    ):
        choices = page.locator(selector)
        if choices.count():
            choices.nth(rng.randrange(choices.count())).click()
            return
    raise AssertionError(f"{player.username}: no control to act with")


def act_until_summary(player: Player) -> None:
    """Round 1: the player's decisions (a trump choice if a Wizard was turned, then the bid)
    until the blind trick has played itself and the round summary shows."""
    page = player.page
    rng = random.Random(1)
    summary = page.locator('[data-testid="round-summary"]')
    for _decision in range(3):
        page.wait_for_function(
            f"() => ({MY_TURN_JS})() || !document.getElementById('round-summary').hidden",
            timeout=NORMAL_MS,
        )
        if summary.is_visible():
            return
        my_move(player, rng)
    summary.wait_for(state="visible", timeout=NORMAL_MS)


@pytest.mark.parametrize("size", list(SIZES))
def test_solo_game_shows_every_trick_and_round(
    browser: Any, server_url: str, artifacts: Path, size: str
) -> None:
    width, height = SIZES[size]
    phone = size == "phone"
    player = sign_up(
        browser,
        server_url,
        f"watcher_{size}",
        pace="normal",
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
    )
    errors, foreign = watch_page(player, server_url)
    page = player.page
    rng = random.Random(11)
    deadline = Deadline(420, f"three rounds at {size} size")
    try:
        with screenshots_on_failure(artifacts, [player]):
            page.locator("#play-bots").click()  # one click: 4 seats, 3 bots, default options
            page.wait_for_url("**/games/*/")
            page.locator('[data-testid="table"]').wait_for(state="visible")
            page.evaluate(RECORDER_JS)
            bots = [p["username"] for p in page.evaluate("() => WizardTable.view.players")[1:]]
            game_id = page.evaluate("() => WizardTable.view.id")
            turns = 0
            stop_after = 3  # rounds; more until a bot has won a trick (the deal may not let one)
            while True:
                view = page.evaluate("() => WizardTable.view")
                round_number = view["round"]["number"]
                deadline.check(f"round {round_number}")
                if round_number > stop_after and not page.evaluate("() => WizardTable.busy"):
                    won = page.evaluate("() => window.__seen.winners")
                    if round_number > 8 or any(bot in w["text"] for w in won for bot in bots):
                        break
                    stop_after = round_number
                try:
                    page.wait_for_function(
                        f"() => ({MY_TURN_JS})() || WizardTable.view.round.number > {stop_after}",
                        timeout=NORMAL_MS,
                        polling="raf",
                    )
                except timeout_error() as error:
                    raise AssertionError(f"no turn came: {player._describe()}") from error
                if not page.evaluate(MY_TURN_JS):
                    continue
                view = page.evaluate("() => WizardTable.view")
                round_number = view["round"]["number"]
                you = view["you"]
                seat = page.locator(f'[data-testid="seat-{you}"]')
                assert seat.get_attribute("data-active") == "true", page.evaluate(
                    "() => [JSON.stringify(WizardTable.progress), WizardTable.view.seq,"
                    " JSON.stringify(WizardTable.scene.to_act), WizardTable.busy,"
                    " document.querySelector('[data-testid=seat-0]').outerHTML.slice(0, 200),"
                    " JSON.stringify(WizardTable.view.to_act)]"
                )
                assert page.locator('[data-testid="your-turn"]').is_visible(), page.evaluate(
                    "() => [JSON.stringify(WizardTable.progress), WizardTable.view.seq]"
                )
                wanted = [
                    '[data-testid="hand"]',
                    '[data-testid="hand-card"]',
                    '[data-testid="trick"]',
                    '[data-testid="turn-timer"]',
                    f'[data-testid="seat-{you}"]',
                    "#trump",
                ]
                if "bids" in view["legal"]:
                    wanted.append('[data-testid="bid-button"]')
                off = page.evaluate(ON_SCREEN_JS, wanted)
                assert not off, f"round {round_number}, {size}: {off}; scrolled to " + str(
                    page.evaluate(
                        "() => [scrollX, scrollY, document.activeElement.outerHTML.slice(0, 120)]"
                    )
                )
                assert page.evaluate("() => document.title").startswith("●")
                turns += 1
                if turns in (1, 3, 6):
                    page.screenshot(path=str(artifacts / f"table-{size}-turn{turns}.png"))
                my_move(player, rng)
            seen = page.evaluate("() => window.__seen")
            page.screenshot(path=str(artifacts / f"table-{size}-round4.png"))
    finally:
        player.close()

    # Every round ended on its summary; the blind round's summary showed your own card.
    assert seen["summaries"][:3] == [f"Round {n} scored" for n in (1, 2, 3)], seen["summaries"]
    assert seen["reveals"][0] is not None, "the blind round's summary does not reveal your card"
    # Every trick of rounds 1–3 (1 + 2 + 3) was shown complete with its winner named, for at
    # least 1.5 s; at least one of them went to a bot.
    complete = [w for w in seen["winners"] if w["cards"] == 4]
    assert len(complete) >= 6, seen["winners"]
    for shown in complete[:6]:
        assert any(name in shown["text"] for name in [*bots, "watcher"]), shown
        if shown.get("until"):
            assert shown["until"] - shown["at"] >= 1450, shown
    assert any(any(bot in shown["text"] for bot in bots) for shown in complete), complete
    assert turns >= 1 + 2 + 3, turns  # a bid a round, and the cards of rounds 2 and 3
    assert not errors, errors
    assert not foreign, foreign
    assert game_id


def test_blind_card_revealed_matches_the_events(browser: Any, server_url: str) -> None:
    """The card the blind round's summary reveals is the one the events say you held."""
    player = sign_up(browser, server_url, "blind_e2e", pace="normal")
    page = player.page
    try:
        page.locator("#play-bots").click()
        page.wait_for_url("**/games/*/")
        page.evaluate(RECORDER_JS)
        act_until_summary(player)
        shown = page.locator('[data-testid="round-summary"] .reveal [data-card]').get_attribute(
            "data-card"
        )
        events = page.evaluate(
            "async () => (await (await fetch(`/api/v1/games/${WizardTable.view.id}/events/"
            "?page_size=200`)).json()).results"
        )
        you = page.evaluate("() => WizardTable.view.you")
        (mine,) = [
            e["payload"]["card"]
            for e in events
            if e["type"] == "play" and e["seat"] == you and e["payload"].get("card")
        ][:1]
        assert shown == mine
        page.locator("#summary-continue").click()
        page.locator('[data-testid="round-summary"]').wait_for(state="hidden")
    finally:
        player.close()


def test_waiting_room_follows_joins_live(browser: Any, server_url: str) -> None:
    host = sign_up(browser, server_url, "host_live")
    guest = sign_up(browser, server_url, "guest_live")
    third = sign_up(browser, server_url, "third_live")
    try:
        page = host.page
        page.goto("/lobby/")
        form = page.locator("#create-table")
        form.locator("#id_seats").select_option("3")
        form.locator("#id_bots").select_option("0")
        form.locator("button[type=submit]").click()
        page.wait_for_url("**/games/*/")
        table_url = page.url
        page.evaluate("() => { window.__stayed = true; }")  # gone if the page reloads
        waiting = page.locator('[data-testid="waiting-players"]')
        assert waiting.inner_text().split()[:1] == ["host_live"]

        guest.page.goto(table_url)
        with guest.page.expect_navigation():
            guest.page.locator("#join-button").click()
        page.wait_for_function(
            "() => document.querySelector('[data-testid=\"waiting-players\"]')"
            ".textContent.includes('guest_live')",
            timeout=10_000,
        )
        assert "1" in page.locator("#free-seats").inner_text()
        guest.page.evaluate("() => { window.__stayed = true; }")

        third.page.goto(table_url)
        with third.page.expect_navigation():
            third.page.locator("#join-button").click()
        for player in (host, guest, third):
            player.page.locator('[data-testid="table"]').wait_for(state="visible")
            player.page.locator('[data-testid="seat-2"]').wait_for(state="visible")
        assert page.evaluate("() => window.__stayed === true"), "the host's page reloaded"
        assert guest.page.evaluate("() => window.__stayed === true"), "the guest's page reloaded"
    finally:
        for player in (host, guest, third):
            player.close()


# English words of the table's own text that each language must translate.
ENGLISH = [
    "Round ",
    "Trump",
    "Your turn",
    "Score sheet",
    "Table chat",
    "Last trick",
    "Your bid",
    "dealer",
    " pts",
    "bids ",
    "No round finished",
    "blind first round",
    "Continue",
]


@pytest.mark.parametrize("language", ["es", "cs", "hr"])
def test_table_in_every_language_has_no_english_left(
    browser: Any, server_url: str, artifacts: Path, language: str
) -> None:
    player = sign_up(
        browser, server_url, f"lang_{language}", viewport={"width": 390, "height": 844}
    )
    errors, foreign = watch_page(player, server_url)
    page = player.page
    try:
        with page.expect_navigation():
            page.locator("#language").select_option(language)
        page.locator("#play-bots").click()
        page.wait_for_url("**/games/*/")
        act_until_summary(player)
        summary = page.locator('[data-testid="round-summary"]')
        page.screenshot(path=str(artifacts / f"table-{language}-summary.png"))
        texts = [
            page.locator('[data-testid="table"]').inner_text(),
            page.locator("aside").inner_text(),
        ]
        summary.locator("#summary-continue").click()
        page.wait_for_function(MY_TURN_JS, timeout=NORMAL_MS)
        page.screenshot(path=str(artifacts / f"table-{language}.png"))
        texts.append(page.locator('[data-testid="table"]').inner_text())
        bots = [p["username"] for p in page.evaluate("() => WizardTable.view.players")]
        shown = "\n".join(texts)
        for name in bots:
            shown = shown.replace(name, "")
        left = [word for word in ENGLISH if word in shown]
        assert not left, f"{language}: English left on the table: {left}\n{shown}"
        # Translated labels fit their buttons and badges.
        overflowing = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid="table"] button,'
                 + ' [data-testid="table"] .badge, .table-bar label')]
              .filter((el) => el.offsetWidth && el.scrollWidth > el.clientWidth + 1)
              .map((el) => el.textContent.trim())"""
        )
        assert not overflowing, f"{language}: text overflows {overflowing}"
        assert not errors, errors
        assert not foreign, foreign
    finally:
        player.close()


def test_a_notice_says_when_the_server_moved_for_you(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """R16: the turn runs out, the server bids for you, and the table says so."""
    player = sign_up(browser, server_url, "sleepy_e2e", pace="normal")
    page = player.page
    try:
        page.goto("/lobby/")
        form = page.locator("#create-table")
        form.locator("#id_seats").select_option("3")
        form.locator("#id_bots").select_option("2")
        form.locator("#id_turn_seconds").fill("5")
        form.locator("button[type=submit]").click()
        page.wait_for_url("**/games/*/")
        page.wait_for_function(MY_TURN_JS, timeout=NORMAL_MS)
        notice = page.locator('[data-testid="auto-move-notice"]')
        notice.wait_for(state="visible", timeout=NORMAL_MS)  # nobody clicks: the timer moves
        assert "server" in notice.inner_text() and "for you" in notice.inner_text()
        page.screenshot(path=str(artifacts / "auto-move-notice.png"))
    finally:
        player.close()


def _play_through_api(player: Player, game_id: int, *, until_round: int) -> None:
    """The player's own moves sent with their API token (the first legal one), until they are
    to bid in `until_round`: a quick way to the biggest hands. The bots answer in the worker."""
    from tests.e2e.helpers import PASSWORD

    api = player.context.request
    token = api.post(
        "/api/v1/accounts/token/", data={"username": player.username, "password": PASSWORD}
    ).json()["token"]
    headers = {"Authorization": f"Token {token}"}
    while (view := view_when_mine(player, game_id, headers))["status"] == "active":
        if view["round"]["number"] >= until_round and "bids" in view["legal"]:
            return
        ((kind, options),) = view["legal"].items()
        body = {
            "bids": {"type": "bid", "bid": options[0]},
            "cards": {"type": "play", "card": options[0]},
        }.get(kind, {"type": "trump", "suit": options[0]})
        answer = api.post(
            f"/api/v1/games/{game_id}/moves/", data={**body, "seq": view["seq"]}, headers=headers
        )
        assert answer.ok, answer.text()


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080), (390, 844)], ids=str)
def test_twenty_cards_fit_the_screen(
    browser: Any, server_url: str, artifacts: Path, size: tuple[int, int]
) -> None:
    """The last round of a 3-seat game: 20 cards in hand, 21 bid buttons, all on screen."""
    width, height = size
    player = sign_up(
        browser,
        server_url,
        f"big_{width}",
        viewport={"width": width, "height": height},
        is_mobile=width < 500,
        has_touch=width < 500,
    )
    page = player.page
    errors, foreign = watch_page(player, server_url)
    try:
        page.goto("/lobby/")
        form = page.locator("#create-table")
        form.locator("#id_seats").select_option("3")
        form.locator("#id_bots").select_option("2")
        form.locator("button[type=submit]").click()
        page.wait_for_url("**/games/*/")
        game_id = page.evaluate("() => WizardTable.view.id")
        _play_through_api(player, game_id, until_round=20)
        page.reload()
        page.wait_for_function(MY_TURN_JS, timeout=NORMAL_MS)
        wanted = [
            '[data-testid="hand-card"]',
            '[data-testid="bid-button"]',
            '[data-testid="trick"]',
            '[data-testid="turn-timer"]',
            '[data-testid="your-turn"]',
            "#trump",
        ]
        assert page.locator('[data-testid="hand-card"]').count() == 20
        # Once the turn's controls have come in and the hand has settled into its rows.
        settled = f"(s) => ({ON_SCREEN_JS})(s).length === 0"
        try:
            page.wait_for_function(settled, arg=wanted, timeout=NORMAL_MS)
        except timeout_error():
            pass  # the assertion below says what stayed off screen
        off = page.evaluate(ON_SCREEN_JS, wanted)
        page.screenshot(path=str(artifacts / f"twenty-cards-{width}x{height}.png"))
        assert not off, f"{off} {json.dumps(page.evaluate(LAYOUT_JS))}"  # a str: shown whole
        page.locator('[data-testid="bid-button"]:not([disabled])').first.click()
        page.wait_for_function(MY_TURN_JS, timeout=NORMAL_MS)
        off = page.evaluate(ON_SCREEN_JS, [*wanted[:1], *wanted[2:]])
        assert not off, f"{off} {json.dumps(page.evaluate(LAYOUT_JS))}"  # a str: shown whole
        page.screenshot(path=str(artifacts / f"twenty-cards-{width}x{height}-play.png"))
        assert not errors, errors
        assert not foreign, foreign
    finally:
        player.close()
