"""The create-tournament form of the pages: the API's options (API.md "Tournaments")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core import limits
from games import engine
from games.forms import blind_first_round_field, hook_rule_field, special_cards_field
from games.turn_presets import TurnLimitInput
from tournaments.serializers import LATE, MOST_AHEAD, MOST_ROUNDS

LOCAL_MINUTE = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> sends


def _rounds_choices() -> list[tuple[str, Any]]:
    numbered: list[tuple[str, Any]] = [("1", _("Round 1 only: one card each"))]
    numbered += [
        (str(n), _("Rounds 1 to %(n)d only") % {"n": n}) for n in range(2, MOST_ROUNDS + 1)
    ]
    return [
        ("full", _("The whole game: one card more each round")),
        ("odd", _("Odd rounds only (1, 3, 5 …), as in championship finals")),
        *numbered,
    ]


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=[
            ("swiss", _("Swiss: a fixed number of rounds, leaders meet leaders")),
            ("arena", _("Arena: a fixed time, a new table as soon as you are free")),
        ],
        initial="swiss",
    )
    starts_at = forms.DateTimeField(
        label=_("Starts at"),
        input_formats=[LOCAL_MINUTE, "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_MINUTE),
        help_text=_("In your time zone; at most 60 days ahead. Its creator may start it earlier."),
    )
    # Minutes east of UTC as the page's script finds them (JavaScript's getTimezoneOffset is
    # west); without scripts the server's time zone is assumed.
    utc_offset = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=-16 * 60, max_value=16 * 60
    )
    table_size = forms.TypedChoiceField(
        label=_("Players at a table"),
        choices=[(n, str(n)) for n in range(3, 7)],
        coerce=int,
        initial=4,
        help_text=_("A table may seat one more or one fewer so that everyone plays."),
    )
    rounds = forms.IntegerField(
        label=_("Rounds (Swiss)"), min_value=1, max_value=15, initial=5, required=False
    )
    minutes = forms.IntegerField(
        label=_("Duration in minutes (arena)"),
        min_value=10,
        max_value=1440,
        initial=60,
        required=False,
    )
    turn_seconds = forms.IntegerField(
        label=_("Turn limit (seconds)"),
        min_value=limits.MIN_TURN_SECONDS,
        max_value=limits.MAX_TURN_SECONDS,
        initial=60,
        widget=TurnLimitInput(),
    )
    rounds_format = forms.ChoiceField(
        label=_("Rounds of each game"), choices=_rounds_choices, initial="full"
    )
    special_cards = special_cards_field()
    hook_rule = hook_rule_field()
    blind_first_round = blind_first_round_field()
    visibility = forms.ChoiceField(
        label=_("Who may find the tournament"),
        choices=[
            ("public", _("Everyone: it is listed on the tournaments page")),
            ("private", _("Private: only those with its invitation link")),
        ],
        initial="public",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["turn_seconds"].initial = settings.TURN_SECONDS_DEFAULT
        soon = timezone.localtime() + timedelta(hours=1)
        self.fields["starts_at"].initial = soon.replace(second=0, microsecond=0)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        offset = data.pop("utc_offset", None)
        starts_at = data.get("starts_at")
        if isinstance(starts_at, datetime) and offset is not None:
            naive = starts_at.replace(tzinfo=None)  # the reader's wall clock, not the server's
            data["starts_at"] = (naive - timedelta(minutes=offset)).replace(tzinfo=UTC)
        starts_at = data.get("starts_at")
        now = timezone.now()
        if isinstance(starts_at, datetime) and not now - LATE <= starts_at <= now + MOST_AHEAD:
            self.add_error("starts_at", _("Choose a time from now to 60 days ahead."))
        swiss = data.get("format") == "swiss"
        needed = "rounds" if swiss else "minutes"
        if data.get(needed) is None and needed not in self.errors:
            self.add_error(needed, _("This format needs it."))
        data.pop("minutes" if swiss else "rounds", None)
        rounds_format = data.get("rounds_format") or "full"
        data["rounds_format"] = int(rounds_format) if rounds_format.isdigit() else rounds_format
        # R20's order, as the API gives them back.
        data["special_cards"] = engine.special_options(
            engine.special_cards(data.get("special_cards") or [])
        )
        return data
