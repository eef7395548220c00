"""How a table's turn limit reads on a page: seconds for a live table, minutes, hours or days
for longer ones (`{{ t.turn_seconds|per_turn }}`)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext, gettext_lazy

register = template.Library()

_MINUTE, _HOUR, _DAY = 60, 3600, 86400


@register.filter
def per_turn(seconds: int) -> str:
    """ "20 s per turn", "5 min per turn", "24 h per turn", "3 d per turn" (whole units only;
    a limit that is no whole number of a larger unit is said in the smaller one)."""
    if seconds >= _DAY * 2 and seconds % _DAY == 0:
        return gettext("%(n)s d per turn") % {"n": seconds // _DAY}
    if seconds >= _HOUR and seconds % _HOUR == 0:
        return gettext("%(n)s h per turn") % {"n": seconds // _HOUR}
    if seconds >= _MINUTE * 2 and seconds % _MINUTE == 0:
        return gettext("%(n)s min per turn") % {"n": seconds // _MINUTE}
    return gettext("%(s)s s per turn") % {"s": seconds}


@register.filter
def round_format(rounds: str | int) -> str:
    """R19 at a glance: "" for the whole game, "odd rounds" or "rounds 1–5"."""
    if str(rounds) == "full":
        return ""
    if rounds == "odd":
        return gettext("odd rounds")
    return gettext("rounds 1–%(n)s") % {"n": rounds}


SPECIAL_CARD_NAMES = {
    "dragon_fairy": gettext_lazy("Dragon & Fairy"),
    "bomb": gettext_lazy("Bomb"),
    "werewolf": gettext_lazy("Werewolf"),
    "juggler": gettext_lazy("Juggler"),
    "cloud": gettext_lazy("Cloud"),
    "shapeshifter": gettext_lazy("Shapeshifter"),
}


@register.filter
def special_cards(names: list[str] | None) -> str:
    """R20 at a glance: the special cards a table plays with, "" for the classic game."""
    return ", ".join(str(SPECIAL_CARD_NAMES[name]) for name in names or ())
