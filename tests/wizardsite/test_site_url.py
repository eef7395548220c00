"""Links in mails point to the address `make run` serves: SITE_URL defaults to its port."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from unittest import mock


def site_url(base: ModuleType, **env: str) -> str:
    """SITE_URL as the settings read it from this environment (SITE_URL and WEB_PORT unset
    unless given)."""
    clean = {k: v for k, v in os.environ.items() if k not in {"SITE_URL", "WEB_PORT"}}
    with mock.patch.dict(os.environ, {**clean, **env}, clear=True):
        return str(importlib.reload(base).SITE_URL)


def test_site_url_follows_the_served_port_unless_set() -> None:
    base = importlib.import_module("wizardsite.settings.base")
    try:
        assert site_url(base) == "http://127.0.0.1:8000"
        assert site_url(base, WEB_PORT="18850") == "http://127.0.0.1:18850"
        served = site_url(base, WEB_PORT="18850", SITE_URL="https://wizard.example")
        assert served == "https://wizard.example"
    finally:
        importlib.reload(base)
