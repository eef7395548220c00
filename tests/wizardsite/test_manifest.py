"""The site installs as an app: its manifest (in the reader's language), the icons it names,
the offline page in each language, and the service worker that shows that page and caches
nothing else."""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.views import serve
from django.http import FileResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.games.helpers import Player

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "es", "cs", "hr"]
SITE_CSS = Path(settings.BASE_DIR) / "static" / "css" / "site.css"


def manifest_in(language: str) -> dict[str, Any]:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    body: dict[str, Any] = response.json()
    return body


def static_file(url: str) -> bytes:
    """The bytes the static files view serves at `url` (tests run no collectstatic)."""
    assert url.startswith(settings.STATIC_URL), url
    path = url.removeprefix(settings.STATIC_URL)
    assert finders.find(path), f"{url} is not a static file"
    response = serve(RequestFactory().get(url), path, insecure=True)
    assert isinstance(response, FileResponse) and response.status_code == 200
    return response.getvalue()


def png_header(content: bytes) -> tuple[int, int, int, bool]:
    """Width, height, colour type and whether a tRNS chunk makes some colour transparent."""
    assert content[:8] == b"\x89PNG\r\n\x1a\n" and content[12:16] == b"IHDR", content[:16]
    width, height, _depth, colour_type = struct.unpack(">IIBB", content[16:26])
    return width, height, colour_type, b"tRNS" in content


def test_the_manifest_describes_a_fullscreen_app_that_opens_on_the_players_games() -> None:
    manifest = manifest_in("en")
    assert manifest["name"] == "Wizard online" and manifest["short_name"] == "Wizard"
    assert manifest["id"] == "/" and manifest["scope"] == "/"
    assert manifest["start_url"] == reverse("my-games") == "/games/mine/"
    assert manifest["display"] == "fullscreen"
    assert manifest["display_override"] == ["fullscreen", "standalone"]
    assert manifest["orientation"] == "any"
    assert manifest["lang"] == "en" and manifest["description"].startswith("Wizard, the trick")
    felt = re.search(r"--felt:\s*(#[0-9a-f]{6})", SITE_CSS.read_text())
    assert felt and manifest["theme_color"] == felt.group(1)
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])


def test_every_icon_is_served_at_its_declared_size_and_the_maskable_one_is_full_bleed() -> None:
    icons = {
        (icon["sizes"], icon.get("purpose", "any")): icon for icon in manifest_in("en")["icons"]
    }
    assert set(icons) == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
        ("any", "any"),
    }
    for (sizes, purpose), icon in icons.items():
        content = static_file(icon["src"])
        if sizes == "any":
            assert icon["type"] == "image/svg+xml" and content.startswith(b"<svg")
            continue
        assert icon["type"] == "image/png"
        width, height, colour_type, transparent_colour = png_header(content)
        assert f"{width}x{height}" == sizes, icon
        if purpose == "maskable":
            # A mask may cut anywhere outside the safe zone: no pixel may be transparent there.
            assert colour_type == 2 and not transparent_colour, icon  # RGB, no alpha


def test_the_start_url_opens_a_signed_in_players_games_and_leads_a_visitor_to_log_in(
    make_player: Callable[..., Player],
) -> None:
    start_url = manifest_in("en")["start_url"]
    visitor = Client().get(start_url)
    assert visitor.status_code == 302 and visitor["Location"].startswith("/accounts/login/")
    client = Client()
    client.force_login(User.objects.get(pk=make_player().user_id))
    assert client.get(start_url).status_code == 200


def test_the_manifest_speaks_the_language_of_the_header_or_of_the_chosen_language() -> None:
    english, spanish = manifest_in("en"), manifest_in("es")
    assert spanish["lang"] == "es"
    assert spanish["description"] == (
        "Wizard, el juego de cartas de bazas: juega en directo contra personas y bots."
    )
    assert spanish["start_url"] == english["start_url"] and spanish["id"] == english["id"]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"  # the language picked in the header
    czech = client.get("/manifest.webmanifest").json()
    assert czech["lang"] == "cs" and czech["description"] != english["description"]


def test_every_page_links_the_manifest_its_colour_and_the_worker_registration() -> None:
    html = Client().get("/").content.decode()
    manifest = manifest_in("en")
    link = re.search(r'<link rel="manifest" href="([^"]+)" crossorigin="use-credentials">', html)
    assert link and link.group(1) == "/manifest.webmanifest"
    theme = re.search(r'<meta name="theme-color" content="([^"]+)">', html)
    assert theme and theme.group(1) == manifest["theme_color"]
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html)
    assert touch and png_header(static_file(touch.group(1)))[:2] == (512, 512)
    assert '<script type="module" src="/static/js/install.js"></script>' in html
    script = static_file("/static/js/install.js").decode()
    assert 'navigator.serviceWorker.register("/sw.js", { scope: "/" })' in script


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_offline_page_speaks_each_language(language: str) -> None:
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/offline/").content.decode()
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get("/offline/")
    assert response.status_code == 200 and response["Content-Language"] == language
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    assert 'data-testid="offline"' in html and f'href="{reverse("my-games")}"' in html
    for text in ("You are offline", "The table needs a connection", "Try again"):
        assert (text in html) == (language == "en"), (language, text)
    assert language == "en" or html != english


def test_the_service_worker_falls_back_to_the_offline_page_and_still_shows_pushes() -> None:
    body = Client().get("/sw.js").content.decode()
    assert 'const OFFLINE_URL = "/offline/";' in body
    assert 'request.mode !== "navigate"' in body
    assert "self.skipWaiting()" in body and "self.clients.claim()" in body
    # Only the offline page, fetched without the player's cookies, ever goes into a cache.
    assert re.findall(r"cache\.(?:put|add|addAll)\(([^,)]+)", body) == ["OFFLINE_URL"]
    assert 'fetch(OFFLINE_URL, { credentials: "omit"' in body
    assert 'addEventListener("push"' in body and "showNotification" in body
    assert 'addEventListener("notificationclick"' in body
