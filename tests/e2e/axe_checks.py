"""axe-core in the browser tests: the WCAG 2.x A and AA rules run on a page as it is, and a
report of what they found that names the page, the size, each rule and where it failed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.e2e.helpers import ARTIFACTS

if TYPE_CHECKING:
    from playwright.sync_api import Page

SIZES = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}

# Until the page's finite animations (a card flying in, a panel popping up) have run out: a
# half-faded frame would be judged on colours nobody reads.
ANIMATIONS_DONE_JS = """async () => {
  const running = document.getAnimations().filter((a) => {
    const timing = a.effect ? a.effect.getComputedTiming() : null;
    return a.playState === "running" && timing && Number.isFinite(timing.endTime);
  });
  await Promise.all(running.map((a) => a.finished.catch(() => null)));
}"""


def context_options(size: str) -> dict[str, Any]:
    """A laptop's window, or a phone's (touch, mobile viewport) as the other phone tests use."""
    phone = size == "phone"
    return {"viewport": SIZES[size], "is_mobile": phone, "has_touch": phone}


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations of the WCAG 2.x A and AA rules on the page as it is now."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    page.evaluate(ANIMATIONS_DONE_JS)
    violations: list[dict[str, Any]] = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    return violations


def describe(name: str, size: str, violations: list[dict[str, Any]]) -> str:
    """Each violation's rule, impact and help, and where on the page it was found."""
    lines = [f"{name} at {size} size ({SIZES[size]['width']}×{SIZES[size]['height']}):"]
    for violation in violations:
        lines.append(f"  {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            lines.append(f"    {' '.join(str(t) for t in node['target'])}")
    return "\n".join(lines)


@dataclass
class Checks:
    """What was checked at one size, and what axe found."""

    size: str
    done: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def run(self, name: str, page: Page) -> None:
        found = axe_violations(page)
        self.done.append(name)
        if found:
            self.problems.append(describe(name, self.size, found))
            page.screenshot(path=str(ARTIFACTS / f"a11y-{name}-{self.size}.png"))

    def assert_clean(self, wanted: list[str]) -> None:
        missing = [name for name in wanted if name not in self.done]
        assert not self.problems, "\n\n".join(self.problems)
        assert not missing, f"not checked at {self.size} size: {missing}"
