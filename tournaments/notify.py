"""The tournament's socket group (`ws/tournaments/{id}/`): after every change it is sent the
tournament's view, read once where the change is pushed, for every socket to pass on."""

from __future__ import annotations

import logging
from typing import TypedDict

from django.db import DatabaseError

from core import fastjson
from core.errors import NotFound
from games import push
from tournaments import selectors
from tournaments.selectors import TournamentSocketMessage, TournamentView

log = logging.getLogger(__name__)


class TournamentChangedMessage(TypedDict):
    """A TournamentSocketMessage encoded once for anyone, and for the insiders (the creator
    and players, by user id) of a private tournament, whose view holds its code."""

    type: str  # "tournament.changed"
    frame: str
    insider_frame: str | None  # None: the insiders get `frame` too
    insiders: list[int]


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def tournament_changed(tournament_id: int) -> None:
    """After a commit: every socket watching the tournament is sent its view. Best effort,
    like every push: a tournament gone or a database that fails now pushes nothing."""
    try:
        views = selectors.audience_views(selectors.tournament_get(tournament_id))
    except (NotFound, DatabaseError) as error:
        log.warning("tournament %s not pushed: %r", tournament_id, error)
        return
    private = views.insiders_view is not None
    message: TournamentChangedMessage = {
        "type": "tournament.changed",
        "frame": _frame(views.public),
        "insider_frame": None if views.insiders_view is None else _frame(views.insiders_view),
        "insiders": sorted(views.insiders) if private else [],
    }
    push.send(tournament_group(tournament_id), message)


def _frame(view: TournamentView) -> str:
    message: TournamentSocketMessage = {"type": "tournament", "tournament": view}
    return fastjson.dumps(message)
