"""The create-table form of the lobby."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core import limits
from games import engine
from games.difficulty import difficulty_of
from games.templatetags.turns import SPECIAL_CARD_NAMES
from games.turn_presets import TurnLimitInput


def special_cards_field(**extra: Any) -> forms.MultipleChoiceField:
    """R20's special cards as checkboxes (the lobby's and the tournament form's)."""
    return forms.MultipleChoiceField(
        label=_("Special cards (anniversary edition)"),
        choices=list(SPECIAL_CARD_NAMES.items()),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        **extra,
    )


def hook_rule_field() -> forms.BooleanField:
    """R8, on by default."""
    return forms.BooleanField(
        label=_("Hook rule: the bids may not add up to the number of cards"),
        required=False,
        initial=True,
    )


def blind_first_round_field() -> forms.BooleanField:
    """R9, on by default."""
    return forms.BooleanField(
        label=_("Blind first round: see everyone's card but your own"),
        required=False,
        initial=True,
    )


def _first_rounds(n: int) -> str:
    return gettext("Rounds 1 to %(n)d only") % {"n": n}


# Translated when shown, in the reader's language (a `%` on a lazy text would translate it
# once, at import, in the default language).
first_rounds_label = lazy(_first_rounds, str)


class DifficultyChoiceField(forms.ChoiceField):
    """Easy, medium or hard; an engine kind posted by an older page (`heuristic`) still works."""

    def valid_value(self, value: Any) -> bool:
        return value in engine.BOTS or super().valid_value(value)


class TableForm(forms.Form):
    seats = forms.TypedChoiceField(
        label=_("Seats"),
        choices=[(n, str(n)) for n in range(limits.MIN_SEATS, limits.MAX_SEATS + 1)],
        coerce=int,
        initial=4,
    )
    bots = forms.TypedChoiceField(
        label=_("Bots"),
        choices=[
            (n, str(n)) for n in range(limits.MIN_BOTS, limits.max_bots(limits.MAX_SEATS) + 1)
        ],
        coerce=int,
        initial=0,
        help_text=_("Bots take the last seats. All but one seat → a solo game that starts now."),
    )
    bot_kind = DifficultyChoiceField(
        label=_("Bot strength"),
        choices=[("easy", _("Easy")), ("medium", _("Medium")), ("hard", _("Hard"))],
        initial="medium",
    )
    turn_seconds = forms.IntegerField(
        label=_("Turn limit (seconds)"),
        min_value=limits.MIN_TURN_SECONDS,
        max_value=limits.MAX_TURN_SECONDS,
        initial=60,
        widget=TurnLimitInput(),
        help_text=_("An hour or more makes a correspondence table, played over days."),
    )
    rounds = forms.ChoiceField(
        label=_("Rounds"),
        choices=[
            ("full", _("The whole game: one card more each round")),
            ("odd", _("Odd rounds only (1, 3, 5 …), as in championship finals")),
            *((str(n), first_rounds_label(n)) for n in (3, 5, 7, 10)),
        ],
        initial="full",
        required=False,
    )
    special_cards = special_cards_field(
        help_text=_("Each one is shuffled into the deck; games with them rate separately."),
    )
    hook_rule = hook_rule_field()
    blind_first_round = blind_first_round_field()
    visibility = forms.ChoiceField(
        label=_("Who may find the table"),
        choices=[
            ("public", _("Everyone: it is listed in the lobby")),
            ("private", _("Private: only those with its invitation link")),
        ],
        initial="public",
        required=False,  # the quick "play against bots" form leaves both out
    )
    spectators = forms.ChoiceField(
        label=_("Who may watch"),
        choices=[
            ("everyone", _("Everyone")),
            ("friends", _("Friends of a player")),
            ("players", _("The players only")),
        ],
        initial="everyone",
        required=False,
    )
    min_reliability = forms.IntegerField(
        label=_("Minimum reliability of players joining (%)"),
        help_text=_("The share of their recent games they finished; 0 lets anyone join."),
        min_value=0,
        max_value=100,
        initial=0,
        required=False,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["turn_seconds"].initial = settings.TURN_SECONDS_DEFAULT
        self.fields["bot_kind"].initial = difficulty_of(settings.DEFAULT_BOT) or "medium"

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        data["visibility"] = data.get("visibility") or "public"
        data["spectators"] = data.get("spectators") or "everyone"
        data["min_reliability"] = data.get("min_reliability") or 0
        rounds = data.get("rounds") or "full"  # up to 10 rounds: every table has as many (R2)
        data["rounds"] = int(rounds) if rounds.isdigit() else rounds
        # R20's order, as the API gives them back.
        data["special_cards"] = engine.special_options(
            engine.special_cards(data.get("special_cards") or [])
        )
        seats, bots = data.get("seats"), data.get("bots")
        if seats is not None and bots is not None and bots > limits.max_bots(seats):
            self.add_error(
                "bots",
                _("At most %(n)d bots at %(seats)d seats.")
                % {"n": limits.max_bots(seats), "seats": seats},
            )
        return data
