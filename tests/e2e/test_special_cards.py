"""R20–R26 at the table page: solo games with every special card, played through the page's
own controls at a phone's and a laptop's size, each dealt from a seed that brings what it
checks (tests/e2e/scenarios.py). A Juggler, Cloud or Shapeshifter clicked asks what it plays
as, a Juggler's trick asks for a card to pass and then names the one received, the Cloud's
winner raises or lowers their bid, the Werewolf's holder may choose no trump; a bombed trick
is shown won by nobody and the Werewolf's swap as it happens. The replay of each game steps
through every event without an error."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    Player,
    _click_move,
    in_viewport_width,
    screenshots_on_failure,
    sign_up,
    table_fits_viewport,
    wait_table_live,
)
from tests.e2e.scenarios import (
    BOMB,
    CLOUD_ADJUST,
    DECLARABLE,
    NO_TRUMP,
    PASS,
    SHAPE_CHOICE,
    SPECIAL_CARDS,
    SPECIAL_GAMES,
    SUIT_PICKER,
    WEREWOLF,
    SpecialGame,
    scripted_move,
)
from tests.e2e.seeded import control_for, create_api_table, describe, next_decision

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage

pytestmark = pytest.mark.e2e

SUITS = ["red", "green", "blue", "yellow"]

# Installed by the test: every text the trick banner and the table's notice showed, and every
# card the trick showed as what it was played as ("JU:yellow"), also kept in the page's
# data-declared-seen attribute for expect() to wait on.
RECORDER_JS = """() => {
  if (window.__said) return;
  const said = window.__said = { banner: [], notice: [], declared: [] };
  const follow = (id, list) => {
    const box = document.getElementById(id);
    new MutationObserver(() => {
      const text = box.hidden ? "" : box.textContent;
      if (text && said[list][said[list].length - 1] !== text) said[list].push(text);
    }).observe(box, { attributes: true, childList: true, characterData: true, subtree: true });
  };
  follow("trick-banner", "banner");
  follow("table-notice", "notice");
  const note = (el) => {
    const shown = el.dataset.card + ":" + el.dataset.declared;
    if (said.declared.includes(shown)) return;
    said.declared.push(shown);
    document.documentElement.dataset.declaredSeen = said.declared.join(" ");
  };
  new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach(
    (node) => {
      if (node.nodeType !== Node.ELEMENT_NODE) return;
      if (node.matches("[data-declared]")) note(node);
      node.querySelectorAll("[data-declared]").forEach(note);
    }))).observe(document.getElementById("trick"), { childList: true, subtree: true });
}"""

# Which controls are on screen now (the DOM, not the view).
CONTROLS_JS = """() => {
  const ids = (selector) => [...document.querySelectorAll(selector)].map((b) => b.dataset.testid);
  return {
    declare: ids('#controls button[data-testid^="declare-"]'),
    focused: document.activeElement ? document.activeElement.dataset.testid || "" : "",
    legal: [...document.querySelectorAll("#hand button.legal")].map((b) => b.dataset.card),
  };
}"""


@dataclass
class Seen:
    """What the player met: each new decision, and the checks made of it."""

    suit_picker: int = 0
    shape_choice: int = 0
    passes: int = 0
    received: int = 0
    adjusts: int = 0
    no_trump_offered: int = 0
    awaiting_received: bool = False
    shots: set[str] = field(default_factory=set)

    def counts(self) -> dict[str, int]:
        """How often the player met each kind of decision so far."""
        return {
            SUIT_PICKER: self.suit_picker,
            SHAPE_CHOICE: self.shape_choice,
            PASS: self.passes,
            CLOUD_ADJUST: self.adjusts,
            NO_TRUMP: self.no_trump_offered,
        }


def create_special_table(player: Player, game: SpecialGame) -> int:
    """A solo table (4 seats, 3 bots) with every special card, through the API with the page's
    session (the lobby's form does not offer them yet), dealt from the scenario's seed."""
    body = {
        "seats": 4,
        "bots": 3,
        "special_cards": SPECIAL_CARDS,
        "rounds": game.rounds,
        "blind_first_round": False,
    }
    view = create_api_table(player, body, game.seed)
    assert view["special_cards"] == SPECIAL_CARDS, view
    return int(view["id"])


def shoot(player: Player, seen: Seen, what: str, artifacts: Path, size: str) -> None:
    """A screenshot of the first decision of each kind at this size (test-artifacts/)."""
    if what in seen.shots:
        return
    seen.shots.add(what)
    player.page.screenshot(path=str(artifacts / f"special-{what}-{size}.png"))


def my_decision(
    player: Player, state: dict[str, Any], seen: Seen, artifacts: Path, size: str
) -> None:
    """The scripted decision (scenarios.scripted_move) through the page's controls, each new
    kind checked as it shows."""
    page = player.page
    legal = state["legal"]
    seq = state["seq"]
    assert state["to_act"] == state["you"] and legal, state
    if seen.awaiting_received:  # R24: the trick after a pass names the card you received
        notice = page.locator('[data-testid="pass-received"]')
        expect(notice).to_be_visible()
        card = notice.get_attribute("data-card")
        assert card in (state["hand"] or []), (card, state["hand"])
        expect(notice).to_contain_text("You received")
        shoot(player, seen, "received", artifacts, size)
        seen.received += 1
        seen.awaiting_received = False
    move = scripted_move(state)
    target, answer = control_for(move)
    if "suits" in legal:
        offered = page.locator('[data-testid="trump-none"]').count()
        assert offered == ("none" in legal["suits"]), (legal, offered)
        if offered:  # R23: the Werewolf's holder
            seen.no_trump_offered += 1
            shoot(player, seen, "werewolf", artifacts, size)
    elif "passes" in legal:  # R24: any card of the hand, clicked as in play
        expect(page.locator('[data-testid="pass-panel"]')).to_be_visible()
        shown = page.evaluate(CONTROLS_JS)
        assert sorted(shown["legal"]) == sorted(legal["passes"]), (shown, legal)
        assert shown["focused"] == "hand-card", f"focus is on {shown['focused']!r}"
        shoot(player, seen, "pass", artifacts, size)
        assert move["card"] not in DECLARABLE or set(legal["passes"]) <= set(DECLARABLE)
        seen.passes += 1
        seen.awaiting_received = True
    elif "adjust" in legal:  # R24: the Cloud's winner
        minus = page.locator('[data-testid="adjust-minus"]')
        plus = page.locator('[data-testid="adjust-plus"]')
        expect(plus).to_be_enabled()
        if -1 in legal["adjust"]:
            expect(minus).to_be_enabled()
        else:
            expect(minus).to_be_disabled()
        shoot(player, seen, "cloud", artifacts, size)
        seen.adjusts += 1
    elif "cards" in legal and answer is not None:
        # A Juggler, Cloud or Shapeshifter: clicking it asks first what it plays as.
        page.click(target)
        if move["card"] == "SH":
            wanted = ["declare-as-wizard", "declare-as-jester"]
            seen.shape_choice += 1
        else:
            wanted = [f"declare-suit-{suit}" for suit in SUITS]
            seen.suit_picker += 1
        expect(page.locator(answer)).to_be_visible()
        shown = page.evaluate(CONTROLS_JS)
        assert shown["declare"] == [*wanted, "declare-cancel"], shown
        assert shown["focused"] == wanted[0], f"focus is on {shown['focused']!r}"
        assert page.evaluate("() => WizardTable.view.seq") == seq, "clicking the card sent a move"
        sticking_out = in_viewport_width(page, "#controls button")
        assert not sticking_out, f"{size}: declare buttons off screen: {sticking_out}"
        shoot(player, seen, "declare", artifacts, size)
        target = answer
    _click_move(player, target, describe(move), seq)
    if answer is not None:
        # The trick showed the card as what it was played as.
        shown = f"{move['card']}:{move.get('suit') or move['as']}"
        root = page.locator("html")
        expect(root).to_have_attribute("data-declared-seen", re.compile(rf"\b{shown}\b"))


def play_game(player: Player, game: SpecialGame, seen: Seen, artifacts: Path, size: str) -> int:
    """One seeded game from the API's create to its end, every decision through the page."""
    page = player.page
    game_id = create_special_table(player, game)
    page.goto(f"/games/{game_id}/")
    wait_table_live(player, what="the solo table to start at once")
    page.evaluate(RECORDER_JS)
    tag = page.locator('[data-testid="special-cards"]')
    expect(tag).to_have_count(1)
    expect(tag).to_be_visible()
    for name in ("Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter"):
        expect(tag).to_contain_text(name)
    before = seen.counts()
    while (state := next_decision(player))["status"] == "active":
        if size == "phone":
            round_number = state["round"]["number"]
            assert table_fits_viewport(page), f"round {round_number}: the page scrolls sideways"
        my_decision(player, state, seen, artifacts, size)
    rounds_scored = len(state["scores"])
    assert state["status"] == "finished" and rounds_scored == game.rounds, (state, rounds_scored)
    # The seed dealt the decisions it is chosen for (tests/games/test_e2e_scenarios.py).
    met = {kind for kind, count in seen.counts().items() if count > before[kind]}
    assert met == game.meets - {BOMB, WEREWOLF}, (game, seen)
    check_what_the_table_said(player, game_id, game)
    return game_id


def check_what_the_table_said(player: Player, game_id: int, game: SpecialGame) -> None:
    """A bombed trick (R22) was said to be nobody's, a Werewolf's swap (R23) was announced."""
    rows = player.context.request.get(f"/api/v1/games/{game_id}/events/?page_size=500").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    said = player.page.evaluate("() => window.__said")
    bombed = [r for r in rows if r["type"] == "trick_won" and r["payload"]["seat"] is None]
    assert bool(bombed) == (BOMB in game.meets), (game, bombed)
    if bombed:
        assert any("Nobody takes the trick" in text for text in said["banner"]), said
    swapped = any(r["type"] == "werewolf" for r in rows)
    assert swapped or WEREWOLF not in game.meets, game
    if swapped:
        assert any("Werewolf" in text for text in said["notice"]), said


REPLAY_JS = """() => {
  const slider = document.getElementById("step");
  const found = { frames: Number(slider.max) + 1, declared: [], bombed: [] };
  for (let i = 0; i < found.frames; i++) {
    slider.value = String(i);
    slider.dispatchEvent(new Event("input"));
    if (document.querySelector('#trick [data-declared]')) found.declared.push(i);
    const banner = document.getElementById("trick-banner").textContent;
    if (banner.includes("Nobody")) found.bombed.push(i);
  }
  return found;
}"""


def check_replay(player: Player, game_id: int, artifacts: Path, size: str) -> None:
    """The replay draws every step, declared cards and bombed tricks included."""
    page = player.page
    page.goto(f"/games/{game_id}/replay/")
    expect(page.locator("#step")).to_be_attached()
    found = page.evaluate(REPLAY_JS)
    rows = player.context.request.get(f"/api/v1/games/{game_id}/events/?page_size=500").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert found["frames"] == len(rows), (found, len(rows))
    if any(r["type"] == "play" and ("suit" in r["payload"] or "as" in r["payload"]) for r in rows):
        assert found["declared"], found
    if any(r["type"] == "trick_won" and r["payload"]["seat"] is None for r in rows):
        assert found["bombed"], found
    for what in ("declared", "bombed"):
        if found[what]:
            page.evaluate(
                "(i) => { const s = document.getElementById('step'); s.value = String(i);"
                " s.dispatchEvent(new Event('input')); }",
                found[what][0],
            )
            page.screenshot(path=str(artifacts / f"special-replay-{what}-{size}-{game_id}.png"))


@pytest.mark.parametrize(
    "size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768}], ids=["phone", "laptop"]
)
def test_special_cards_are_played_through_the_table_page(
    browser: Any, server_url: str, artifacts: Path, size: dict[str, int]
) -> None:
    name = "phone" if size["width"] < 600 else "laptop"
    phone = name == "phone"
    player = sign_up(
        browser,
        server_url,
        f"special_{name}",
        viewport=size,
        is_mobile=phone,
        has_touch=phone,
    )
    errors: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(message.text)

    player.page.on("console", console)
    player.page.on("pageerror", lambda error: errors.append(str(error)))
    seen = Seen()
    try:
        with screenshots_on_failure(artifacts, [player]):
            games = [play_game(player, game, seen, artifacts, name) for game in SPECIAL_GAMES]
            assert seen.passes, f"no pass in {len(games)} games: {seen}"
            assert seen.suit_picker + seen.shape_choice, f"no declared card in {len(games)}: {seen}"
            assert seen.received == seen.passes, seen
            for game_id in games:
                check_replay(player, game_id, artifacts, name)
            assert not errors, errors
    finally:
        player.close()
