"""The interactive API docs work under the site's CSP: Swagger UI draws the schema and the
browser's console shows no error (no refused script, worker, image or request)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.helpers import WAIT_MS

pytestmark = pytest.mark.e2e


def test_api_docs_draw_the_schema_without_a_console_error(browser: Any, server_url: str) -> None:
    context = browser.new_context(base_url=server_url)
    context.set_default_timeout(WAIT_MS)
    problems: list[str] = []
    try:
        page = context.new_page()
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("requestfailed", lambda r: problems.append(f"failed {r.url}"))
        page.on(
            "response",
            lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
        )
        page.goto("/api/v1/docs/")
        page.locator(".swagger-ui .opblock").first.wait_for()
        assert page.locator(".swagger-ui .opblock").count() > 20
        page.wait_for_load_state("networkidle")
        assert not problems, problems
    finally:
        context.close()
