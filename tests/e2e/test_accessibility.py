"""WCAG 2.2 AA as axe-core checks it, on every page a player uses and on the table in every
phase of a game, at a laptop's and a phone's size: no violation of a rule tagged wcag2a,
wcag2aa, wcag21a, wcag21aa or wcag22aa (contrast, names, roles, target sizes…).

Each page is named in PAGES and each table phase in PHASES; a test fails unless it checked
every one. The table is played through the page's own controls in seeded two-round games
(tests/e2e/table_scenarios.py) that between them reach every phase, the rare ones too (a card
of your own to declare, the Werewolf, the Juggler's pass, the Cloud's change)."""

from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
from django.template.loader import render_to_string

from tests.e2e.axe_checks import SIZES, Checks, context_options
from tests.e2e.helpers import (
    ARTIFACTS,
    PASSWORD,
    Player,
    screenshots_on_failure,
    sign_up,
)
from tests.e2e.page_waits import open_reviewed_replay
from tests.e2e.table_phases import PHASES, play_scenario, waiting_room
from tests.e2e.table_scenarios import REVIEW_SCENARIO, TABLE_SCENARIOS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytestmark = pytest.mark.e2e


# ---- the pages ------------------------------------------------------------------------------

PAGES = [
    "home",
    "sign-up",
    "log-in",
    "password-reset",
    "password-reset-done",
    "password-reset-confirm",
    "verify-email",
    "site-menu",
    "lobby",
    "my-games",
    "rules",
    "how-to-play",
    "replay",
    "review",
    "profile",
    "profile-of-another",
    "notification-settings",
    "account",
    "password-change",
    "friends",
    "leaderboard-classic",
    "leaderboard-anniversary",
    "tournaments",
    "tournament-new",
    "tournament",
    "invitation",
    "forbidden-403",
    "unavailable-503",
    "offline",
    "notices",
]


@dataclass
class Site:
    """The people and things the pages show: a signed-up player, a visitor, another player's
    name, a finished game with its review, a private table of the other player."""

    me: Player
    visitor: Page
    other: str = ""
    finished_game: int = 0
    private_game: int = 0
    invite: str = ""
    tournament: str = ""


def finished_game(player: Player) -> int:
    """A two-round game against two bots, played to its end on the table page; the player
    was signed up with REVIEW_SCENARIO's seed."""
    return play_scenario(player, REVIEW_SCENARIO, on_shown=lambda phase: None)


def register(context: BrowserContext, username: str) -> None:
    """Another player, through the API (no page needed)."""
    body = {"username": username, "password": PASSWORD, "email": f"{username}@example.com"}
    response = context.request.post("/api/v1/accounts/register/", data=body)
    assert response.status == 201, response.text()


def private_table_of_another(site: Site, browser: Browser, server_url: str) -> None:
    """A private table that the other player waits at: not open to `me` (the 403 page) but
    through its invitation link."""
    other = browser.new_context(base_url=server_url)
    try:
        login = other.request.post(
            "/api/v1/accounts/token/", data={"username": site.other, "password": PASSWORD}
        )
        assert login.ok, login.text()
        headers = {"Authorization": f"Token {login.json()['token']}"}
        body = {"seats": 3, "bots": 1, "visibility": "private"}
        response = other.request.post("/api/v1/games/", data=body, headers=headers)
        assert response.status == 201, response.text()
        site.private_game, site.invite = int(response.json()["id"]), response.json()["invite"]
    finally:
        other.close()


def mailed_link(email: str, path: str) -> str:
    """The newest link under `path` mailed to `email`: the web server's console mail backend
    writes each mail to its log, followed by a line of dashes, before it answers the request
    that sent it (so the page that asked for it has loaded by now)."""
    node = os.environ.get("PYTEST_XDIST_WORKER", "main")
    log = ARTIFACTS / f"e2e-{node}-web.log"
    pattern = re.compile(r"https?://[^/\s]+(" + re.escape(path) + r"\S+)")
    mails = log.read_text(errors="replace").split("-" * 79) if log.exists() else []
    links = [
        found.group(1)
        for mail in mails
        if f"To: {email}" in mail
        for found in [pattern.search(mail)]
        if found
    ]
    assert links, f"no mail to {email} with a link to {path} in {log}"
    return links[-1]


def create_tournament(page: Page) -> str:
    """Fill in the creation form; the new tournament's path."""
    form = page.locator('[data-testid="tournament-form"]')
    form.locator("#id_name").fill("Open cup")
    form.locator("#id_format").select_option("swiss")
    form.locator("#id_table_size").select_option("3")
    form.locator("#id_rounds").fill("1")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/tournaments/*/")
    return "/" + page.url.split("/", 3)[3]


def step_replay(page: Page, *, until: str) -> None:
    """Step the replay on until `until` matches something on its table."""
    for _ in range(200):
        if page.locator(until).count():
            return
        page.locator("#next").click()
    raise AssertionError(f"the replay never showed {until}")


def visit(site: Site, name: str) -> Page:
    """Opens page `name` in its state to check; the page to check."""
    me, visitor = site.me.page, site.visitor
    simple = {
        "home": (visitor, "/"),
        "sign-up": (visitor, "/accounts/signup/"),
        "log-in": (visitor, "/accounts/login/"),
        "password-reset": (visitor, "/accounts/password_reset/"),
        "lobby": (me, "/lobby/"),
        "my-games": (me, "/games/mine/"),
        "rules": (me, "/rules/"),
        "how-to-play": (me, "/how-to-play/"),
        "profile": (me, f"/players/{site.me.username}/"),
        "profile-of-another": (me, f"/players/{site.other}/"),
        "account": (me, "/accounts/email/"),
        "password-change": (me, "/accounts/password_change/"),
        "friends": (me, "/friends/"),
        "leaderboard-classic": (me, "/leaderboard/?pool=classic"),
        "leaderboard-anniversary": (me, "/leaderboard/?pool=anniversary"),
        "tournaments": (me, "/tournaments/"),
        "tournament-new": (me, "/tournaments/new/"),
        "offline": (me, "/offline/"),
        "notices": (me, "/notices/"),
    }
    if name in simple:
        page, path = simple[name]
        response = page.goto(path)
        assert response is not None and response.ok, f"{name}: {path} answered {response}"
        return page
    if name == "password-reset-done":
        visitor.goto("/accounts/password_reset/")
        visitor.fill("#id_email", f"{site.me.username}@example.com")
        visitor.click("main form button[type=submit]")
        visitor.wait_for_url("**/password_reset/done/")
        return visitor
    if name == "password-reset-confirm":  # the mailed link opens the new password's form
        visitor.goto(mailed_link(f"{site.me.username}@example.com", "/accounts/reset/"))
        visitor.locator("#id_new_password1").wait_for()
        return visitor
    if name == "verify-email":  # the sign-up's mail: its link shows a button to confirm
        me.goto(mailed_link(f"{site.me.username}@example.com", "/accounts/verify/"))
        return me
    if name == "site-menu":  # a phone folds the menu behind its button: open it
        me.goto("/lobby/")
        toggle = me.locator('[data-testid="menu-toggle"]')
        if toggle.is_visible():
            toggle.click()
        me.locator("#site-nav").get_by_role("link", name="Rules").wait_for()
        return me
    if name == "invitation":  # the link the other player sends to their private table
        me.goto(f"/i/{site.invite}/")
        me.locator('[data-testid="invitation"]').wait_for()
        return me
    if name == "notification-settings":  # a section of the own profile page
        me.goto(f"/players/{site.me.username}/#notifications")
        me.locator("#notification-settings").wait_for()
        return me
    if name == "replay":  # a step with cards in the trick
        me.goto(f"/games/{site.finished_game}/replay/")
        step_replay(me, until='#trick [data-testid="trick-card"]')
        return me
    if name == "review":  # the hard bot's opinion of a decision, and its list
        open_reviewed_replay(me, site.finished_game)
        me.locator('[data-testid="mistakes"]').wait_for()
        step_replay(me, until="#opinion:not([hidden])")
        return me
    if name == "tournament":  # joined: the standings list the player
        me.goto(site.tournament)
        me.locator('[data-testid="tournament-join"]').click()
        me.locator('[data-testid="tournament-withdraw"]').wait_for()
        return me
    if name == "forbidden-403":
        response = me.goto(f"/games/{site.private_game}/")
        assert response is not None and response.status == 403, response
        return me
    if name == "unavailable-503":  # what the site answers while the database is down
        visitor.goto("/")
        visitor.set_content(render_to_string("503.html"))
        assert visitor.locator("h1").inner_text() == "Back in a moment"
        return visitor
    raise AssertionError(f"no way to open page {name}")


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_passes_axe(browser: Browser, server_url: str, size: str) -> None:
    name = f"pages_{size}_{uuid.uuid4().hex[:6]}"
    me = sign_up(browser, server_url, name, seed=REVIEW_SCENARIO.seed, **context_options(size))
    visitor_context = browser.new_context(base_url=server_url, **context_options(size))
    visitor = visitor_context.new_page()
    site = Site(me=me, visitor=visitor, other=f"other_{name}")
    checks = Checks(size)
    try:
        with screenshots_on_failure(ARTIFACTS, [me]):
            register(visitor_context, site.other)
            private_table_of_another(site, browser, server_url)
            site.finished_game = finished_game(me)
            for page_name in PAGES:
                page = visit(site, page_name)
                checks.run(page_name, page)
                if page_name == "tournament-new":
                    site.tournament = create_tournament(page)
            checks.assert_clean(PAGES)
    finally:
        visitor_context.close()
        me.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_every_phase_of_the_table_passes_axe(browser: Browser, server_url: str, size: str) -> None:
    checks = Checks(size)
    name = f"table_{size}_{uuid.uuid4().hex[:6]}"

    def check(phase: str) -> None:  # each phase the first time it shows
        if phase not in checks.done:
            checks.run(phase, player.page)

    for number, scenario in enumerate(TABLE_SCENARIOS):
        player = sign_up(
            browser, server_url, f"{name}_{number}", seed=scenario.seed, **context_options(size)
        )
        try:
            with screenshots_on_failure(ARTIFACTS, [player]):
                if number == 0:
                    waiting_room(player, check)
                play_scenario(player, scenario, check)
        finally:
            player.close()
    checks.assert_clean(list(PHASES))
