"""Preset chat: a row of phrases and emotes that each reader sees in their own language, so
players without a common language can still greet each other."""

from __future__ import annotations

from typing import TypedDict

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


class ChatPreset(TypedDict):
    key: str
    text: str


PRESETS: dict[str, str | Promise] = {
    "hello": _("Hello!"),
    "good_luck": _("Good luck!"),
    "well_played": _("Well played!"),
    "thanks": _("Thanks!"),
    "oops": _("Oops!"),
    "sorry": _("Sorry!"),
    "hurry_up": _("Hurry up, please."),
    "one_more": _("One more game?"),
    "bye": _("Bye!"),
    "thumbs_up": "👍",
    "laugh": "😄",
    "wow": "😮",
}


def text_of(key: str, language: str | None = None) -> str:
    """The preset's text in `language` (the active one when None)."""
    if language is None:
        return str(PRESETS[key])
    with translation.override(language):
        return str(PRESETS[key])


def presets(language: str | None = None) -> list[ChatPreset]:
    return [{"key": key, "text": text_of(key, language)} for key in PRESETS]
