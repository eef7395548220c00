"""The site installs as an app in Chromium: a page is controlled by the service worker after one
reload, the manifest parses and names icons and a start page that answer, Chromium finds
nothing missing for installing it, and without a network a page shows the offline page in the
player's language, with nothing of the player in it and nothing else in the cache."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from tests.e2e.helpers import LAUNCH_ARGS, WAIT_MS, Player, screenshots_on_failure, sign_up

pytestmark = pytest.mark.e2e

WORKER_READY_JS = (
    "() => navigator.serviceWorker.ready.then((registration) => !!registration.active)"
)
# What the service worker keeps: every cache, by name, with the addresses it holds.
CACHES_JS = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
  }
  return kept;
}"""
# In the service worker: once it sees the network again (at once when it already does).
WORKER_ONLINE_JS = """(ms) => navigator.onLine || new Promise((resolve, reject) => {
  self.addEventListener("online", () => resolve(true), { once: true });
  setTimeout(() => reject(new Error("the service worker never saw the network again")), ms);
})"""
OFFLINE_LANGUAGE_JS = """async () => {
  const page = await caches.match("/offline/", { ignoreVary: true });
  return page ? page.headers.get("Content-Language") : null;
}"""


def in_language(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


def app_manifest(page: Any) -> dict[str, Any]:
    """The manifest as Chromium fetched and parsed it for this page (DevTools protocol)."""
    answer: dict[str, Any] = page.context.new_cdp_session(page).send("Page.getAppManifest")
    assert answer["url"].endswith("/manifest.webmanifest"), answer["url"]
    assert answer["errors"] == [], answer["errors"]
    manifest: dict[str, Any] = json.loads(answer["data"])
    return manifest


def controlled_after_reload(page: Any) -> None:
    page.goto("/")
    assert page.evaluate(WORKER_READY_JS)
    page.reload()
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")


def back_online(player: Player, load: Callable[[], object]) -> None:
    """The network back, then a page loaded from it: Chromium lifts its offline emulation for
    the service worker after the page's, so the load waits until the worker is online too (it
    would get the offline page meanwhile)."""
    player.context.set_offline(False)
    for worker in player.context.service_workers:
        worker.evaluate(WORKER_ONLINE_JS, WAIT_MS)
    load()
    expect(player.page.locator('[data-testid="offline"]')).to_have_count(0)


def test_the_worker_shows_the_offline_page_in_the_players_language_and_keeps_nothing_else(
    browser: Any, server_url: str, artifacts: Path
) -> None:
    player: Player = sign_up(browser, server_url, "installer")
    page = player.page
    try:
        with screenshots_on_failure(artifacts, [player]):
            controlled_after_reload(page)
            manifest = app_manifest(page)
            for icon in manifest["icons"]:
                response = page.request.get(icon["src"])
                assert response.status == 200, icon
                assert response.headers["content-type"] == icon["type"], icon
            assert {icon["type"] for icon in manifest["icons"]} >= {"image/png"}
            start = page.request.get(manifest["start_url"], max_redirects=0)
            assert start.status == 200 and start.headers["content-type"].startswith("text/html")

            page.goto(manifest["start_url"])
            page.goto("/lobby/")
            assert page.evaluate(CACHES_JS) == {"wizard-offline-v1": ["/offline/"]}

            player.context.set_offline(True)
            page.goto("/games/mine/")
            offline = page.locator('[data-testid="offline"]')
            assert offline.locator("h1").inner_text() == "You are offline"
            assert player.username not in page.content()  # kept without the player's cookies

            # The player picks Czech: the next page tells the worker, which fetches it anew.
            back_online(player, lambda: page.goto("/lobby/"))
            with page.expect_navigation():
                page.locator("#language").select_option("cs")
            expect(page.locator("html")).to_have_attribute("data-offline", "cs")
            assert page.evaluate(OFFLINE_LANGUAGE_JS) == "cs"
            assert page.evaluate(CACHES_JS) == {"wizard-offline-v1": ["/offline/"]}  # one copy
            player.context.set_offline(True)
            page.goto("/leaderboard/")
            assert offline.locator("h1").inner_text() == in_language("cs", "You are offline")
            assert page.locator("html").get_attribute("lang") == "cs"
            assert player.username not in page.content()  # fetched while signed in: still none

            def try_again() -> None:
                with page.expect_navigation():
                    offline.get_by_role("link").click()

            back_online(player, try_again)
            page.wait_for_url("**/games/mine/")
    finally:
        player.close()


def test_chromium_finds_nothing_missing_to_install_the_site(
    browser: Any, server_url: str, chromium_path: str, tmp_path: Path
) -> None:
    # A profile on disk: Playwright's other contexts are incognito ones, where Chromium never
    # offers to install a site ("in-incognito"); a player's own browser is not.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=chromium_path,
        headless=True,
        args=LAUNCH_ARGS,
        base_url=server_url,
    )
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.pages[0] if context.pages else context.new_page()
        controlled_after_reload(page)
        manifest = app_manifest(page)
        assert manifest["start_url"] == "/games/mine/" and manifest["display"] == "fullscreen"
        errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
        assert errors["installabilityErrors"] == [], errors
    finally:
        context.close()
