"""The table page in each of its phases, for the accessibility checks: a player's run of solo
games with every special card (R20–R25), the page opened for each step still to check and
every other decision sent through the API with the page's session, which is much quicker
than watching it played out. A step passing on its own (a trick's end, a round's summary) is
held on screen while it is checked."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tests.e2e.axe_checks import Checks
from tests.e2e.helpers import (
    WAIT_MS,
    Player,
    _click_move,
    create_table,
    rest_view,
    view_when_mine,
)

if TYPE_CHECKING:
    from playwright.sync_api import Page

PHASES = [
    "waiting-room",
    "bidding",
    "playing",
    "trick-end",
    "round-summary",
    "trump-choice",
    "suit-picker",
    "shapeshifter-choice",
    "pass-choice",
    "pass-received",
    "cloud-adjust",
    "game-over",
]
SPECIAL_CARDS = ["dragon_fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter"]
ROUNDS = 10
# A rare step (your own Shapeshifter, Werewolf or Cloud) comes about once in 67 cards dealt to
# you: 8 games of 55 tricks each leave one unseen in well under 1 % of runs; 1 to 3 games do.
MAX_GAMES = 8
SUITS = ["red", "green", "blue", "yellow"]
DECLARES = {"JU": "suit", "CL": "suit", "SH": "as"}  # R24, R25: what playing it names

# Installed before the table's scripts. A trick's end shows for 0.6 s at the fast pace and a
# round's summary for 2.5 s, less than axe may take on a busy machine: while `hold` is set, the
# page's timers of 50 ms or more wait (its animation pace, the summary's countdown), so the
# step stays on screen until checked. `want` names the steps still to check, each with the
# element that shows it; the first to appear is `caught`, and holds the page at once.
HOLD_JS = """
(() => {
  const realTimeout = window.setTimeout.bind(window);
  const realClear = window.clearTimeout.bind(window);
  const realInterval = window.setInterval.bind(window);
  const state = window.__a11y = { hold: false, want: [], caught: null, setTimeout: realTimeout };
  const pending = new Map();  // the id handed out -> the timer now pending for it
  window.setTimeout = (fn, ms, ...args) => {
    if (typeof fn !== "function" || !(ms >= 50)) return realTimeout(fn, ms, ...args);
    let id = null;
    const run = () => {
      if (state.hold) { pending.set(id, realTimeout(run, 50)); return; }
      pending.delete(id);
      fn(...args);
    };
    id = realTimeout(run, ms);
    pending.set(id, id);
    return id;
  };
  window.clearTimeout = (id) => {
    realClear(pending.has(id) ? pending.get(id) : id);
    pending.delete(id);
  };
  window.setInterval = (fn, ms, ...args) => (typeof fn !== "function" || !(ms >= 50)
    ? realInterval(fn, ms, ...args) : realInterval(() => { if (!state.hold) fn(...args); }, ms));
  const look = () => {
    if (state.caught) return;
    const shown = state.want.find(([, selector]) => {
      const box = document.querySelector(selector);
      return box && !box.hidden;
    });
    if (shown) { state.caught = shown[0]; state.hold = true; }
  };
  const watch = { attributes: true, attributeFilter: ["hidden"], childList: true, subtree: true };
  document.addEventListener("DOMContentLoaded",
    () => new MutationObserver(look).observe(document.body, watch));
})();
"""
# The steps that show on their own, between your moves, and the element each shows in.
PASSING_STEPS = {"trick-end": "#trick-banner", "round-summary": "#round-summary"}

MY_TURN_OR_OVER = (
    "() => { const v = window.WizardTable && window.WizardTable.view;"
    " return !!v && (v.status !== 'active' || (v.legal !== null && v.to_act === v.you)); }"
)
SETTLED_JS = "() => !!window.WizardTable && !window.WizardTable.busy"


@dataclass
class Table:
    """A player's run of games against bots at one size: the page is on the table only for the
    steps still to check, the rest goes through the API."""

    player: Player
    checks: Checks
    rng: random.Random
    game_id: int = 0
    on_page: bool = False
    awaiting_received: bool = False

    @property
    def page(self) -> Page:
        return self.player.page

    def unseen(self, phase: str) -> bool:
        return phase not in self.checks.done

    def check(self, phase: str) -> None:
        if self.unseen(phase):
            self.checks.run(phase, self.page)

    # -- the page ----------------------------------------------------------------------------
    def open_page(self) -> None:
        if self.on_page:
            return
        self.page.goto(f"/games/{self.game_id}/")
        self.on_page = True
        wanted = [[name, sel] for name, sel in PASSING_STEPS.items() if self.unseen(name)]
        self.page.evaluate("(want) => { window.__a11y.want = want; }", wanted)

    def leave_page(self) -> None:
        if self.on_page:
            self.page.goto("about:blank")
            self.on_page = False

    def catch_passing_steps(self) -> None:
        """A step the page holds (a trick's end, a round's summary) is checked and let go."""
        caught = self.page.evaluate("() => window.__a11y.caught")
        if not caught:
            return
        self.check(caught)
        self.page.evaluate(
            """(name) => { const s = window.__a11y;
                 s.want = s.want.filter(([n]) => n !== name); s.caught = null; s.hold = false; }""",
            caught,
        )

    def settle(self) -> None:
        """Until the page has played out every event, checking what it holds on the way and
        continuing a round's summary already checked."""
        summary = self.page.locator("#round-summary:not([hidden]) #summary-continue")
        end = time.monotonic() + WAIT_MS / 1000 * 3
        while True:
            self.catch_passing_steps()
            if self.page.evaluate(SETTLED_JS):
                return
            assert time.monotonic() < end, f"the table never settled: {self.player._describe()}"
            if summary.count() and not self.page.evaluate("() => window.__a11y.hold"):
                summary.click(timeout=1000)
            time.sleep(0.05)

    def wait_my_turn_on_page(self) -> dict[str, Any]:
        end = time.monotonic() + WAIT_MS / 1000 * 3
        while not self.page.evaluate(MY_TURN_OR_OVER):
            assert time.monotonic() < end, f"not my turn: {self.player._describe()}"
            self.catch_passing_steps()
            time.sleep(0.05)
        self.settle()
        return self.player.view()

    # -- decisions -----------------------------------------------------------------------------
    def wants_page(self, view: dict[str, Any]) -> bool:
        """Whether this decision shows something still to check."""
        legal = view["legal"]
        if self.awaiting_received or any(
            self.unseen(p) for p in ("bidding", "playing", "trick-end", "round-summary")
        ):
            return True
        if "suits" in legal:
            return self.unseen("trump-choice")
        if "passes" in legal:
            return self.unseen("pass-choice")
        if "adjust" in legal:
            return self.unseen("cloud-adjust")
        cards = legal.get("cards", [])
        return bool(
            ("SH" in cards and self.unseen("shapeshifter-choice"))
            or ({"JU", "CL"} & set(cards) and self.unseen("suit-picker"))
            or ("CL" in cards and self.unseen("cloud-adjust"))
        )

    def card_to_play(self, view: dict[str, Any]) -> str:
        """A card that brings a step still to check: a card to declare, a Cloud played to win
        (or a Wizard onto a trick holding the Cloud); else any legal card."""
        cards: list[str] = view["legal"]["cards"]
        if "SH" in cards and self.unseen("shapeshifter-choice"):
            return "SH"
        if "CL" in cards and (self.unseen("cloud-adjust") or self.unseen("suit-picker")):
            return "CL"
        if "JU" in cards and self.unseen("suit-picker"):
            return "JU"
        trick = [c["card"] for c in view["round"]["trick"]["cards"]]
        wizards = [c for c in cards if c.startswith("W")]
        if "CL" in trick and wizards and self.unseen("cloud-adjust"):
            return wizards[0]
        plain = [c for c in cards if c not in DECLARES]
        return str(self.rng.choice(plain or cards))

    def declared(self, card: str, view: dict[str, Any]) -> str:
        """What a Juggler, Cloud or Shapeshifter is played as: the trump or the suit led, to
        win the trick (a Cloud's winner changes their bid, R24); a Shapeshifter as a Wizard."""
        if card == "SH":
            return "wizard"
        round_ = view["round"]
        return str(round_["trump"] or round_["trick"].get("lead_suit") or self.rng.choice(SUITS))

    def api_move(self, view: dict[str, Any]) -> None:
        legal = view["legal"]
        if "bids" in legal:
            move: dict[str, Any] = {"type": "bid", "bid": self.rng.choice(legal["bids"])}
        elif "suits" in legal:
            move = {"type": "trump", "suit": self.rng.choice(legal["suits"])}
        elif "passes" in legal:
            plain = [c for c in legal["passes"] if c not in DECLARES]
            move = {"type": "pass", "card": (plain or legal["passes"])[0]}
        elif "adjust" in legal:
            move = {"type": "adjust", "delta": self.rng.choice(legal["adjust"])}
        else:
            card = self.card_to_play(view)
            move = {"type": "play", "card": card}
            if card in DECLARES:
                move[DECLARES[card]] = self.declared(card, view)
        move["seq"] = view["seq"]
        request = self.player.context.request
        answer = request.post(
            f"/api/v1/games/{self.game_id}/moves/", data=move, headers=api_headers(self.player)
        )
        assert answer.ok, f"{move}: {answer.status} {answer.text()}"

    def page_move(self) -> None:
        """One decision through the page's controls, each step checked the first time."""
        self.wait_my_turn_on_page()
        view = rest_view(self.player, self.game_id)  # the page's view, in full
        legal, seq, page = view["legal"], view["seq"], self.page
        if self.awaiting_received:  # R24: the trick after a pass names the card received
            self.awaiting_received = False
            if page.locator('[data-testid="pass-received"]').is_visible():
                self.check("pass-received")
        if "bids" in legal:
            self.check("bidding")
            bid = self.rng.choice(legal["bids"])
            target, move = f'[data-testid="bid-button"][data-bid="{bid}"]', f"bid {bid}"
        elif "suits" in legal:
            self.check("trump-choice")
            suit = self.rng.choice(legal["suits"])
            target = (
                '[data-testid="trump-none"]'
                if suit == "none"
                else f'[data-testid="trump-choice"][data-suit="{suit}"]'
            )
            move = f"trump {suit}"
        elif "passes" in legal:
            page.locator('[data-testid="pass-panel"]').wait_for()
            self.check("pass-choice")
            plain = [c for c in legal["passes"] if c not in DECLARES]
            card = (plain or legal["passes"])[0]
            target, move = f'#hand button.legal[data-card="{card}"]', f"pass {card}"
            self.awaiting_received = True
        elif "adjust" in legal:
            page.locator('[data-testid="adjust-panel"]').wait_for()
            self.check("cloud-adjust")
            delta = self.rng.choice(legal["adjust"])
            target = '[data-testid="adjust-plus"]' if delta > 0 else '[data-testid="adjust-minus"]'
            move = f"adjust {delta:+d}"
        else:
            self.check("playing")
            card = self.card_to_play(view)
            target, move = f'#hand button.legal[data-card="{card}"]', f"play {card}"
            if card in DECLARES:  # it asks first what the card plays as
                page.click(target)
                declared = self.declared(card, view)
                kind = "as" if card == "SH" else "suit"
                target = f'[data-testid="declare-{kind}-{declared}"]'
                page.locator(target).wait_for()
                self.check("shapeshifter-choice" if card == "SH" else "suit-picker")
                move = f"play {card} as {declared}"
        _click_move(self.player, target, move, seq)

    def play_game(self) -> None:
        """A game with every special card to its end: each step still to check on the page,
        every other decision through the API."""
        self.leave_page()
        self.game_id = create_special_table(self.player)
        while True:
            if self.on_page:  # what it holds on the way is checked
                self.wait_my_turn_on_page()
            view = view_when_mine(self.player, self.game_id)
            if view["status"] != "active":
                break
            if self.wants_page(view):
                self.open_page()
                self.page_move()
            else:
                self.leave_page()
                self.api_move(view)
        if self.unseen("game-over"):
            self.leave_page()
            self.open_page()
            self.page.locator('[data-testid="game-over"]').wait_for()
            self.check("game-over")

    def waiting_room(self) -> None:
        """A table of three with one bot waits for a second person; leave it afterwards."""
        self.leave_page()
        create_table(self.player, seats=3, bots=1)
        self.page.locator("#waiting-room").wait_for()
        self.check("waiting-room")
        self.page.locator("#leave-button").click()
        self.page.wait_for_url("**/lobby/")


def create_special_table(player: Player) -> int:
    """A solo table of three seats with every special card (R20), through the API."""
    body = {
        "seats": 3,
        "bots": 2,
        "special_cards": SPECIAL_CARDS,
        "rounds": ROUNDS,
        "blind_first_round": False,
    }
    request = player.context.request
    response = request.post("/api/v1/games/", data=body, headers=api_headers(player))
    assert response.status == 201, f"create: {response.status} {response.text()}"
    return int(response.json()["id"])


def api_headers(player: Player) -> dict[str, str]:
    """The CSRF header the API wants from a browser session."""
    token = next(c["value"] for c in player.context.cookies() if c["name"] == "csrftoken")
    return {"X-CSRFToken": token, "Referer": player.page.url}
