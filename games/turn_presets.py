"""The lobby's turn-limit presets: a picker beside the number field that fills it in (the
number stays the form's value, so any limit in 5…604800 s can still be typed or sent)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from core import limits

PRESETS: list[tuple[int, Any]] = [
    (20, _("Fast · 20 s")),
    (60, _("Normal · 60 s")),
    (300, _("Relaxed · 5 min")),
    (24 * 3600, _("Daily · 24 h")),
    (3 * 24 * 3600, _("Slow · 3 days")),
]
assert all(limits.MIN_TURN_SECONDS <= s <= limits.MAX_TURN_SECONDS for s, _label in PRESETS)


class TurnLimitInput(forms.NumberInput):
    """The number of seconds, with a select of presets in front (lobby.js keeps them in step;
    without scripts the number alone works)."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        number = super().render(name, value, attrs, renderer)
        current = str(value) if value not in (None, "") else ""
        options = format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            ((s, " selected" if str(s) == current else "", label) for s, label in PRESETS),
        )
        custom = "" if any(str(s) == current for s, _label in PRESETS) else " selected"
        return format_html(
            '<select id="turn-preset" data-for="{}" aria-label="{}">{}'
            '<option value=""{}>{}</option></select> {}',
            (attrs or {}).get("id", ""),
            _("Turn limit"),
            options,
            custom,
            _("Custom (seconds)"),
            number,
        )
