"""Error codes in the reader's language, for pages (the API sends code + English message)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from core.errors import Refusal

T = TypeVar("T")

ERROR_TEXT = {
    "not_authenticated": _("Please log in first."),
    "not_a_player": _("You do not sit at this table."),
    "not_a_friend": _("You can invite your friends only: follow each other first."),
    "invite_required": _("This table is private: join it with its invitation link."),
    "reliability_too_low": _(
        "This table asks for a higher reliability than yours: finish the games you start."
    ),
    "blocked": _("You cannot join a table where a player you blocked, or who blocked you, sits."),
    "not_found": _("There is no such game."),
    "not_your_turn": _("It is not your turn."),
    "stale_state": _("The table has moved on; here is the latest state."),
    "game_full": _("This table has started or is full."),
    "game_not_active": _("The game is not running."),
    "illegal_card": _("You cannot play that card now."),
    "illegal_bid": _("That bid is not allowed."),
    "hook_rule": _("The dealer may not make the bids add up to the number of cards."),
    "invalid": _("That request was not understood."),
    "rate_limited": _("Slow down a little."),
    "too_many_open_tables": _("You have many open tables already: start or leave one first."),
    "too_many_bot_games": _("You have many games with bots going already: finish one first."),
    "suspended": _("Your account is suspended."),
    "tournament_not_open": _("This tournament does not take that step now."),
    "tournament_full": _("This tournament is full."),
    "already_seated": _("You have been seated already: your table is waiting for you."),
    "unavailable": _("The server is briefly unavailable. Trying again…"),
}


def error_text(code: str, fallback: str = "") -> str:
    return str(ERROR_TEXT.get(code, fallback or code))


def act(request: HttpRequest, action: Callable[[], T]) -> T | None:
    """Run a service for a page; a refusal becomes a message on the next page instead of an
    error (and None is returned)."""
    try:
        return action()
    except Refusal as error:
        messages.error(request, error_text(error.code, error.message))
        return None
