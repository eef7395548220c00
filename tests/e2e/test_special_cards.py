"""R20–R26 at the table page: a solo game with every special card, played through the page's
own controls at a phone's and a laptop's size. A Juggler, Cloud or Shapeshifter clicked asks
what it plays as, a Juggler's trick asks for a card to pass and then names the one received,
the Cloud's winner raises or lowers their bid, the Werewolf's holder may choose no trump; a
bombed trick is shown won by nobody and the Werewolf's swap as it happens. The replay of the
game steps through every event without an error."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.helpers import (
    Deadline,
    Player,
    _click_move,
    in_viewport_width,
    screenshots_on_failure,
    settle,
    sign_up,
    table_fits_viewport,
    wait_table_live,
)

if TYPE_CHECKING:
    from playwright.sync_api import ConsoleMessage

pytestmark = pytest.mark.e2e

ALL = ["dragon_fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter"]
ROUNDS = 8  # a Juggler in play and one of the three declared cards in your hand: most games
MAX_GAMES = 6  # …and more games until both have come, up to this many
SUITS = ["red", "green", "blue", "yellow"]

MY_TURN_OR_OVER = (
    "() => { const v = window.WizardTable.view;"
    " return v.status !== 'active' || (v.legal !== null && v.to_act === v.you); }"
)

# Installed by the test: every text the trick banner and the table's notice showed.
RECORDER_JS = """() => {
  if (window.__said) return;
  const said = window.__said = { banner: [], notice: [] };
  const follow = (id, list) => {
    const box = document.getElementById(id);
    new MutationObserver(() => {
      const text = box.hidden ? "" : box.textContent;
      if (text && said[list][said[list].length - 1] !== text) said[list].push(text);
    }).observe(box, { attributes: true, childList: true, characterData: true, subtree: true });
  };
  follow("trick-banner", "banner");
  follow("table-notice", "notice");
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

    @property
    def enough(self) -> bool:
        return self.passes > 0 and self.suit_picker + self.shape_choice > 0


def create_special_table(player: Player) -> int:
    """A solo table (4 seats, 3 bots) with every special card, through the API with the page's
    session: the lobby's form does not offer them yet."""
    request = player.context.request
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    headers = {"X-CSRFToken": token, "Referer": player.page.url}
    body = {
        "seats": 4,
        "bots": 3,
        "special_cards": ALL,
        "rounds": ROUNDS,
        "blind_first_round": False,
    }
    response = request.post("/api/v1/games/", data=body, headers=headers)
    assert response.status == 201, f"create: {response.status} {response.text()}"
    game: dict[str, Any] = response.json()
    assert game["special_cards"] == ALL, game
    return int(game["id"])


def shoot(player: Player, seen: Seen, what: str, artifacts: Path, size: str) -> None:
    """A screenshot of the first decision of each kind at this size (test-artifacts/)."""
    if what in seen.shots:
        return
    seen.shots.add(what)
    player.page.screenshot(path=str(artifacts / f"special-{what}-{size}.png"))


def my_decision(player: Player, rng: random.Random, seen: Seen, artifacts: Path, size: str) -> None:
    """One decision through the page's controls, each new kind checked as it shows."""
    page = player.page
    settle(player)
    state = player.view()
    legal = state["legal"]
    seq = state["seq"]
    assert state["to_act"] == state["you"] and legal, state
    if seen.awaiting_received:  # R24: the trick after a pass names the card you received
        notice = page.locator('[data-testid="pass-received"]')
        assert notice.is_visible(), f"no notice of the card received: {player._describe()}"
        card = notice.get_attribute("data-card")
        assert card in (state["hand"] or []), (card, state["hand"])
        assert "You received" in notice.inner_text(), notice.inner_text()
        shoot(player, seen, "received", artifacts, size)
        seen.received += 1
        seen.awaiting_received = False
    if "bids" in legal:
        choice = rng.choice(legal["bids"])
        target, move = f'[data-testid="bid-button"][data-bid="{choice}"]', f"bid {choice}"
    elif "suits" in legal:
        offered = page.locator('[data-testid="trump-none"]').count()
        assert offered == ("none" in legal["suits"]), (legal, offered)
        if offered:  # R23: the Werewolf's holder
            seen.no_trump_offered += 1
            shoot(player, seen, "werewolf", artifacts, size)
        choice = rng.choice(legal["suits"])
        target = (
            '[data-testid="trump-none"]'
            if choice == "none"
            else f'[data-testid="trump-choice"][data-suit="{choice}"]'
        )
        move = f"trump {choice}"
    elif "passes" in legal:  # R24: any card of the hand, clicked as in play
        assert page.locator('[data-testid="pass-panel"]').is_visible()
        shown = page.evaluate(CONTROLS_JS)
        assert sorted(shown["legal"]) == sorted(legal["passes"]), (shown, legal)
        assert shown["focused"] == "hand-card", f"focus is on {shown['focused']!r}"
        shoot(player, seen, "pass", artifacts, size)
        kept = [code for code in legal["passes"] if code not in ("JU", "CL", "SH")]
        choice = rng.choice(kept or legal["passes"])  # a card to declare is kept to be played
        target, move = f'#hand button.legal[data-card="{choice}"]', f"pass {choice}"
        seen.passes += 1
        seen.awaiting_received = True
    elif "adjust" in legal:  # R24: the Cloud's winner
        minus = page.locator('[data-testid="adjust-minus"]')
        plus = page.locator('[data-testid="adjust-plus"]')
        assert plus.is_enabled() and minus.is_enabled() == (-1 in legal["adjust"]), legal
        shoot(player, seen, "cloud", artifacts, size)
        delta = rng.choice(legal["adjust"])
        target = '[data-testid="adjust-plus"]' if delta > 0 else '[data-testid="adjust-minus"]'
        move = f"adjust {delta:+d}"
        seen.adjusts += 1
    else:
        # A Juggler, Cloud or Shapeshifter is played as soon as it may be, until one has been:
        # passed on or held to the end by chance, it would leave the picker untried.
        declarable = [code for code in legal["cards"] if code in ("JU", "CL", "SH")]
        untried = declarable and not seen.suit_picker + seen.shape_choice
        choice = rng.choice(declarable if untried else legal["cards"])
        target, move = f'#hand button.legal[data-card="{choice}"]', f"play {choice}"
        if choice in ("JU", "CL", "SH"):
            page.click(target)  # asks first: nothing is sent yet
            if choice == "SH":
                wanted = ["declare-as-wizard", "declare-as-jester"]
                declared = rng.choice(["wizard", "jester"])
                target = f'[data-testid="declare-as-{declared}"]'
                seen.shape_choice += 1
            else:
                wanted = [f"declare-suit-{suit}" for suit in SUITS]
                declared = rng.choice(SUITS)
                target = f'[data-testid="declare-suit-{declared}"]'
                seen.suit_picker += 1
            page.locator(target).wait_for(state="visible")
            shown = page.evaluate(CONTROLS_JS)
            assert shown["declare"] == [*wanted, "declare-cancel"], shown
            assert shown["focused"] == wanted[0], f"focus is on {shown['focused']!r}"
            assert player.view()["seq"] == seq, "clicking the card sent a move"
            sticking_out = in_viewport_width(page, "#controls button")
            assert not sticking_out, f"{size}: declare buttons off screen: {sticking_out}"
            shoot(player, seen, "declare", artifacts, size)
            move = f"play {choice} as {declared}"
    _click_move(player, target, move, seq)
    if move.startswith(("play JU", "play CL", "play SH")):
        # The trick shows the card as what it was played as (until the trick is swept).
        card, declared = move.split()[1], move.split()[-1]
        page.locator(f'#trick [data-card="{card}"][data-declared="{declared}"]').wait_for(
            state="attached"
        )


def play_game(player: Player, rng: random.Random, seen: Seen, artifacts: Path, size: str) -> int:
    """One game from the API's create to its end, every decision through the page."""
    page = player.page
    game_id = create_special_table(player)
    page.goto(f"/games/{game_id}/")
    state = wait_table_live(player, what="the solo table to start at once")
    page.evaluate(RECORDER_JS)
    tag = page.locator('[data-testid="special-cards"]')
    assert tag.count() == 1 and tag.is_visible(), "the table's facts do not list the cards"
    for name in ("Dragon", "Fairy", "Bomb", "Werewolf", "Juggler", "Cloud", "Shapeshifter"):
        assert name in tag.inner_text(), tag.inner_text()
    deadline = Deadline(600, f"a game with special cards at {size} size")
    while True:
        round_number = state["round"]["number"] if state["round"] else None
        deadline.check(f"round {round_number}, seq {state['seq']}")
        player.wait_js(MY_TURN_OR_OVER, what="the player's turn or the end of the game")
        settle(player)
        state = player.view()
        if state["status"] != "active":
            break
        if size == "phone":
            assert table_fits_viewport(page), f"round {round_number}: the page scrolls sideways"
        my_decision(player, rng, seen, artifacts, size)
        state = player.view()
    rounds_scored = page.evaluate("() => WizardTable.view.scores.length")
    assert state["status"] == "finished" and rounds_scored == ROUNDS, (state, rounds_scored)
    check_what_the_table_said(player, game_id)
    return game_id


def check_what_the_table_said(player: Player, game_id: int) -> None:
    """A bombed trick (R22) was said to be nobody's, a Werewolf's swap (R23) was announced."""
    rows = player.context.request.get(f"/api/v1/games/{game_id}/events/?page_size=500").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    said = player.page.evaluate("() => window.__said")
    bombed = [r for r in rows if r["type"] == "trick_won" and r["payload"]["seat"] is None]
    if bombed:
        assert any("Nobody takes the trick" in text for text in said["banner"]), said
    if any(r["type"] == "werewolf" for r in rows):
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
            page.screenshot(path=str(artifacts / f"special-replay-{what}-{size}.png"))


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
    rng = random.Random(20)
    try:
        with screenshots_on_failure(artifacts, [player]):
            games: list[int] = []
            while not seen.enough and len(games) < MAX_GAMES:
                games.append(play_game(player, rng, seen, artifacts, name))
            assert seen.passes, f"no pass in {len(games)} games: {seen}"
            assert seen.suit_picker + seen.shape_choice, f"no declared card in {len(games)}: {seen}"
            assert seen.received == seen.passes, seen
            check_replay(player, games[-1], artifacts, name)
            assert not errors, errors
    finally:
        player.close()
