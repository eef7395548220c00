"""The header's language select switches the site to Croatian."""

from __future__ import annotations

import ast
from typing import Any

import pytest
from django.utils import translation

from tests.e2e.helpers import ROOT, WAIT_MS

pytestmark = pytest.mark.e2e

HR_CATALOG = ROOT / "locale" / "hr" / "LC_MESSAGES" / "django.po"


def po_translation(path: Any, msgid: str) -> str:
    """The msgstr of `msgid` in a .po file; "" when missing, empty or fuzzy (not compiled)."""
    for entry in path.read_text(encoding="utf-8").split("\n\n"):
        lines = entry.strip().splitlines()
        fuzzy = any(line.startswith("#,") and "fuzzy" in line for line in lines)
        fields: dict[str, str] = {}
        key = None
        for line in lines:
            if line.startswith(("msgid ", "msgstr ", "msgctxt ", "msgid_plural ")):
                key, _, literal = line.partition(" ")
                fields[key] = ast.literal_eval(literal)
            elif line.startswith('"') and key is not None:
                fields[key] += ast.literal_eval(line)
        if fields.get("msgid") == msgid and "msgctxt" not in fields:
            return "" if fuzzy else fields.get("msgstr", "")
    return ""


def test_language_select_switches_to_croatian(browser: Any, server_url: str) -> None:
    context = browser.new_context(base_url=server_url)
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        page.goto("/lobby/")
        nav_lobby = page.locator('header.site nav a[href="/lobby/"]')
        assert page.locator("html").get_attribute("lang") == "en"
        english = nav_lobby.inner_text()
        assert english == "Lobby"

        with page.expect_navigation():
            page.locator("#language").select_option("hr")
        assert page.url.endswith("/lobby/"), f"the switch should come back to the page: {page.url}"
        assert page.locator("html").get_attribute("lang") == "hr"
        assert page.locator("#language").input_value() == "hr"
        shown = nav_lobby.inner_text()

        expected = po_translation(HR_CATALOG, "Lobby")
        if expected:
            assert shown == expected != english, (
                f"{HR_CATALOG} translates 'Lobby' as {expected!r} but the page shows {shown!r}:"
                " is locale/hr/LC_MESSAGES/django.mo compiled (manage.py compilemessages)?"
            )
        else:
            with translation.override("hr"):
                compiled = translation.gettext("Lobby")
            assert compiled != "Lobby", (
                f"no Croatian translation of 'Lobby': its msgstr in {HR_CATALOG} is empty and"
                " the compiled hr catalog returns it untranslated; the page shows"
                f" {shown!r} for 'Lobby' with html lang=hr"
            )
    finally:
        context.close()
