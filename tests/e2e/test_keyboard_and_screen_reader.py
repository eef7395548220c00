"""The table without a pointer and without sight: a whole short game played with the keyboard
only (the focus waits on the hand, the bids or the trump choice at each turn; arrows, Enter
and Space, Escape closes the round's summary), the polite live region reading each card,
trick and round in the page's language, and no animation at all with the reduced-motion
setting. Each table is dealt from a fixed seed, so each test plays the same rounds each run."""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    ROOT,
    SEED_HEADER,
    Player,
    create_table,
    in_viewport_width,
    play_turn,
    screenshots_on_failure,
    sign_up,
    table_fits_viewport,
    wait_table_live,
)
from tests.e2e.page_waits import MY_TURN, OVER, my_turn, until
from tests.e2e.test_translations import po_translation

pytestmark = pytest.mark.e2e

# The keyboard game: rounds 1 and 2 at a table of three, the player in seat 0 and two bots.
# Round 1, dealt by seat 2, gives the player R10; round 2 is the player's deal and turns up
# W2: they choose trump (R5) with the keyboard too, then bid and play G10 and G3.
KEYBOARD_SEED = "keyboard-24"
# The other tables: three seats, two bots, whatever these deal (the same each run).
READER_SEED = "live-region-1"
STILL_SEED = "reduced-motion-1"
ZOOM_SEED = "zoom-1"

# Installed before the page's own scripts: every pointer event the page receives, every line the
# live region gets, and the longest animation that ever ran (Web Animations, CSS animations and
# transitions alike), sampled each frame and at each animate() call.
WATCH_JS = """
(() => {
  const seen = window.__watch = { pointer: 0, said: [], longest: 0, animations: 0 };
  for (const type of ["pointerdown", "mousedown", "mouseup", "touchstart"]) {
    window.addEventListener(type, () => { seen.pointer += 1; }, { capture: true });
  }
  const measure = (animation) => {
    const timing = animation.effect ? animation.effect.getComputedTiming() : null;
    if (!timing) return;
    seen.animations += 1;
    const length = (Number(timing.duration) || 0) + (timing.delay || 0);
    seen.longest = Math.max(seen.longest, length);
  };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    measure(animation);
    return animation;
  };
  const sample = () => {
    document.getAnimations().forEach(measure);
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("announcer");
    if (!box) return;
    new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach(
      (node) => seen.said.push(node.textContent)))).observe(box, { childList: true });
  });
})();
"""

FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || !el.closest("#controls, #hand")) return null;
  const { bid = null, card = null, suit = null } = el.dataset;
  return { bid, card, suit };
}"""

SUMMARY_OPEN = '[data-testid="round-summary"]:not([hidden])'


def _player(browser: Any, server_url: str, name: str, **options: Any) -> Player:
    player = sign_up(browser, server_url, name, **options)
    player.context.add_init_script(WATCH_JS)
    return player


@contextlib.contextmanager
def _at_table(player: Player, artifacts: Path) -> Iterator[None]:
    """Screenshots on failure, then the player's browser closes (its page samples every frame)."""
    try:
        with screenshots_on_failure(artifacts, [player]):
            yield
    finally:
        player.close()


def _focus_on(player: Player, key: str, value: str) -> None:
    """Arrow across the row that has the focus until the control for `value` has it."""
    for _ in range(40):
        focused = player.page.evaluate(FOCUS_JS)
        assert focused is not None, f"{player.username}: the focus left the hand and the bids"
        if focused[key] == value:
            return
        player.page.keyboard.press("ArrowRight")
    raise AssertionError(f"{player.username}: the arrows never reached {key} {value}")


def _keyboard_turn(player: Player, turn: int) -> str:
    """One move through the keyboard: the focus must already be on the row of choices. The
    kind of move made: bid, suit or card."""
    page = player.page
    state = player.view()
    legal = state["legal"]
    player.wait_js(
        "() => !!document.activeElement && !!document.activeElement.closest('#controls, #hand')",
        what="the focus on the hand or the bids when the turn starts",
    )
    if "bids" in legal:
        key, value = "bid", str(legal["bids"][turn % len(legal["bids"])])
    elif "suits" in legal:
        key, value = "suit", legal["suits"][0]
    else:
        key, value = "card", legal["cards"][turn % len(legal["cards"])]
    _focus_on(player, key, value)
    page.keyboard.press("Enter" if turn % 2 else "Space")
    expect(page.locator("#table")).not_to_have_attribute("data-seq", str(state["seq"]))
    player.moves += 1
    return key


def _close_summary(player: Player) -> None:
    """Escape closes the round's summary (at the instant pace it stays until then)."""
    player.page.keyboard.press("Escape")
    expect(player.page.locator(SUMMARY_OPEN)).to_have_count(0)


def _create_short_table(player: Player, seed: str, rounds: int) -> int:
    """A table of three seats, two bots and rounds 1 to `rounds` (R19; the lobby's form offers
    3 at least), created through the API with the page's session; the page opens it."""
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    headers = {"X-CSRFToken": token, "Referer": player.page.url, SEED_HEADER: seed}
    body = {"seats": 3, "bots": 2, "rounds": rounds, "blind_first_round": False}
    answer = player.context.request.post("/api/v1/games/", data=body, headers=headers)
    assert answer.status == 201, f"create: {answer.status} {answer.text()}"
    game_id = int(answer.json()["id"])
    player.page.goto(f"/games/{game_id}/")
    return game_id


def test_a_short_game_played_with_the_keyboard_only(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    player = _player(browser, server_url, "keys_only", seed=KEYBOARD_SEED)
    summaries = 0
    kinds: list[str] = []
    with _at_table(player, artifacts):
        _create_short_table(player, KEYBOARD_SEED, rounds=2)
        page = player.page
        wait_table_live(player, what="the game to start")
        while True:
            summaries += until(
                player,
                f"{MY_TURN}, {OVER}",
                what="the player's turn or the game's end",
                on_summary=_close_summary,
            )
            state = player.view()
            if state["status"] != "active":
                break
            kinds.append(_keyboard_turn(player, player.moves))
        state = player.view()
        watch = page.evaluate("() => window.__watch")
    assert state["status"] == "finished", state
    assert len(state["scores"]) == 3
    # Two rounds of 1 and 2 cards: 3 cards and 2 bids of ours, and the trump of our deal
    # (KEYBOARD_SEED), all by the keyboard.
    assert player.moves >= 6, player.moves
    assert kinds.count("suit") == 1 and kinds.count("card") == 3, kinds
    assert summaries >= 2, f"only {summaries} round summaries were closed with Escape"
    assert watch["pointer"] == 0, f"{watch['pointer']} pointer events reached the page"


def _said(player: Player) -> list[str]:
    lines: list[str] = player.page.evaluate("() => window.__watch.said")
    return lines


def _template(text: str) -> str:
    """A regex for a translated message: each %(key)s placeholder is the group `key`."""
    return "^" + re.sub(r"%\\\((\w+)\\\)s", r"(?P<\1>.+)", re.escape(text)) + "$"


def _by_players(lines: list[str], message: str, players: list[str]) -> list[str]:
    """The lines that are `message` about one of `players` (its %(name)s)."""
    found = (re.match(_template(message), line) for line in lines)
    return [match.string for match in found if match and match.group("name") in players]


JS_CATALOG = "locale/{}/LC_MESSAGES/djangojs.po"
CARD_PLAYED = "%(name)s plays %(card)s."
TRICK_WON = "%(name)s wins the trick: %(won)s won, %(bid)s bid."
ROUND_SCORED = "Round %(n)s scored: %(results)s."


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_live_region_reads_cards_tricks_and_rounds(
    browser: Any, server_url: str, artifacts: Path, language: str
) -> None:
    player = _player(browser, server_url, f"reader_{language}", seed=READER_SEED)
    messages = {CARD_PLAYED: CARD_PLAYED, TRICK_WON: TRICK_WON, ROUND_SCORED: ROUND_SCORED}
    if language != "en":
        catalog = ROOT / JS_CATALOG.format(language)
        messages = {msgid: po_translation(catalog, msgid) for msgid in messages}
        assert all(messages.values()), f"untranslated in {catalog}: {messages}"
    page = player.page
    with _at_table(player, artifacts):
        if language != "en":
            with page.expect_navigation():
                page.locator("#language").select_option(language)
        create_table(player, seats=3, bots=2, rounds="3", blind_first_round=False)
        wait_table_live(player, what="the game to start")
        # The names as the page says them (a bot's in the page's language).
        names = page.evaluate(
            "() => [...document.querySelectorAll('#seats .name[title]')].map((name) => name.title)"
        )
        assert len(names) == 3, names
        bots = [name for name in names if name != player.username]
        rng = random.Random(7)
        scored = _template(messages[ROUND_SCORED])
        while True:
            # Round 1's summary, once read, is continued on the way to round 2's first turn.
            state = my_turn(player)
            if any(re.match(scored, line) for line in _said(player)):
                break
            assert state["round"]["number"] == 1, f"round 1 ended unread: {_said(player)}"
            play_turn(player, rng)
        said = _said(player)
    played = _by_players(said, messages[CARD_PLAYED], names)
    # Round 1 deals one card each: three cards played, each read once, a bot's among them.
    assert len(played) == 3, said
    assert any(line.startswith(bot) for line in played for bot in bots), said
    won = _by_players(said, messages[TRICK_WON], names)
    assert len(won) == 1, said
    assert said.index(won[0]) > said.index(played[-1]), said
    for english in (CARD_PLAYED, TRICK_WON) if language != "en" else ():
        assert not _by_players(said, english, names), said


def _summary_goes_by_itself(player: Player) -> None:
    """At the fast pace the round's summary closes on its own (after 2.5 s): no click."""
    expect(player.page.locator(SUMMARY_OPEN)).to_have_count(0)


def test_reduced_motion_runs_no_animation(browser: Any, server_url: str, artifacts: Path) -> None:
    # The fast pace, whose every step animates (60 ms and more) unless the reduced-motion
    # setting stops it.
    player = _player(
        browser,
        server_url,
        "still_cards",
        reduced_motion="reduce",
        pace="fast",
        seed=STILL_SEED,
    )
    page = player.page
    with _at_table(player, artifacts):
        create_table(player, seats=3, bots=2, rounds="3", blind_first_round=False)
        wait_table_live(player, what="the game to start")
        rng = random.Random(3)
        while True:  # round 1 whole, its summary, and round 2's first trick
            until(player, MY_TURN, what="the player's turn", on_summary=_summary_goes_by_itself)
            rnd = player.view()["round"]
            if rnd["number"] >= 2 and rnd["tricks_played"] >= 1:
                break
            play_turn(player, rng)
        watch = page.evaluate("() => window.__watch")
        # Between a round's last trick and the next deal the hand is empty: wait for a card.
        expect(page.locator("#hand .card").first).to_be_attached()
        transition = page.evaluate(
            "() => getComputedStyle(document.querySelector('#hand .card')).transitionDuration"
        )
        reduced = page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert reduced
    assert watch["longest"] == 0, f"an animation of {watch['longest']} ms ran"
    assert transition in ("0s", ""), transition


def test_at_200_percent_zoom_the_hand_stays_in_reach(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    """1366×768 at 200 %: the focused card is on screen and the hand needs no sideways scroll."""
    player = _player(
        browser, server_url, "zoomed", viewport={"width": 683, "height": 384}, seed=ZOOM_SEED
    )
    page = player.page
    with _at_table(player, artifacts):
        # Odd rounds only (R19): the second round is round 3, three cards in the hand.
        create_table(player, seats=3, bots=2, rounds="odd", blind_first_round=False)
        wait_table_live(player, what="the game to start")
        rng = random.Random(5)
        while True:
            state = my_turn(player)
            if "cards" in state["legal"] and state["round"]["number"] >= 3:
                break
            play_turn(player, rng)
        player.wait_js(
            "() => { const el = document.activeElement;"
            " if (!el || !el.closest('#hand')) return false;"
            " const box = el.getBoundingClientRect();"
            " return box.top >= -1 && box.bottom <= innerHeight + 1; }",  # sub-pixel edges
            what="the focused card of the hand on screen",
        )
        outside = in_viewport_width(page, "#hand .card")
        page.screenshot(path=str(artifacts / "table-zoom-200.png"))
        fits = table_fits_viewport(page)
    assert not outside, outside
    assert fits
