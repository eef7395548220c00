"""A rating history as a small inline SVG, drawn on the server (no chart library, no CDN)."""

from __future__ import annotations

from django.utils.html import format_html
from django.utils.safestring import SafeString

from league.selectors import RatingPoint

WIDTH, HEIGHT, PAD = 360, 120, 8


def rating_chart(history: list[RatingPoint], label: str) -> SafeString | str:
    """A line through the rating after each league game; empty without at least two."""
    values = [point["rating"] for point in history]
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD):.1f}"
        for i, value in enumerate(values)
    )
    return format_html(
        '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        '<rect x="0" y="0" width="{w}" height="{h}" fill="#fffdf8" stroke="#d8d2c4"/>'
        '<polyline fill="none" stroke="#5a3ea8" stroke-width="2" points="{points}"/>'
        '<text x="{pad}" y="14" font-size="11" fill="#5b6470">{high}</text>'
        '<text x="{pad}" y="{bottom}" font-size="11" fill="#5b6470">{low}</text></svg>',
        w=WIDTH,
        h=HEIGHT,
        label=label,
        points=points,
        pad=PAD + 2,
        high=f"{high:.1f}",
        low=f"{low:.1f}",
        bottom=HEIGHT - PAD - 2,
    )
