"""What the notifications do when the games announce something (after its commit)."""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction

from apikit import sending
from core import limits
from games import presence
from notifications.models import NoticeKind
from notifications.notices import notice_add, profile_url, table_url

log = logging.getLogger(__name__)


def on_turn_started(
    sender: Any,
    game_id: int,
    user_id: int,
    seq: int,
    deadline: datetime,
    turn_seconds: int,
    **_: Any,
) -> None:
    """A decision became a person's: a worker decides what to send them, off the move path
    (games send this signal from `transaction.on_commit`, never inside a move's transaction).

    At a live table the only notice is a push to a player with no socket open, so a player at
    a socket costs no task (the task checks again: a socket may close meanwhile). The check
    and the send run off this thread (apikit.sending): a frozen cache or broker never holds up
    the move, and a notice that cannot be queued is lost, never the move's answer. A socket of
    this very process answers at once, and nothing is handed to that thread."""
    live = turn_seconds < limits.CORRESPONDENCE_SECONDS
    if live and presence.connected_here(user_id):
        return
    sending.call(lambda: _queue_notice(user_id, game_id, seq, live=live))


def _queue_notice(user_id: int, game_id: int, seq: int, *, live: bool) -> None:
    from notifications.tasks import turn_notify

    if live and presence.is_connected(user_id):
        return
    try:
        turn_notify.apply_async((user_id, game_id, seq))
    except Exception as error:  # where tasks run eagerly (tests), the task runs right here
        log.warning("turn notice for user %s at game %s not queued: %r", user_id, game_id, error)


def on_invited(
    sender: Any, game_id: int, user_id: int, inviter: str, rematch: bool = False, **_: Any
) -> None:
    """A friend invited the user to a table (or a player of their last game asks for its
    rematch): a notice, and a Web Push where they have no socket open (a socket heard it on
    `ws/me/`), sent off the request's thread."""
    kind = NoticeKind.REMATCH if rematch else NoticeKind.INVITE
    notice_add(user_id=user_id, kind=kind, url=table_url(game_id), name=inviter, game=game_id)
    if presence.connected_here(user_id):
        return
    sending.call(lambda: _queue_invite(user_id, game_id, inviter))


def _queue_invite(user_id: int, game_id: int, inviter: str) -> None:
    from notifications.tasks import invite_notify

    if presence.is_connected(user_id):
        return
    try:
        invite_notify.apply_async((user_id, game_id, inviter))
    except Exception as error:
        log.warning("invitation for user %s to game %s not queued: %r", user_id, game_id, error)


def tables_ready(
    *, game_id: int, user_ids: list[int], tournament: str, round_number: int | None = None
) -> None:
    """A tournament seated these players at a new table: a notice each, in the caller's
    transaction (their open pages take them to the table by it), and each hears it in a worker
    once it commits (a push where no socket is open; a mail at a table of an hour or more a
    turn), off the caller's thread."""
    for user_id in user_ids:
        notice_add(
            user_id=user_id,
            kind=NoticeKind.TOURNAMENT_TABLE,
            url=table_url(game_id),
            tournament=tournament,
            round=round_number,
            game=game_id,
        )
    queue = partial(_queue_tables, game_id, user_ids, tournament)
    transaction.on_commit(lambda: sending.call(queue))


def on_followed(sender: Any, user_id: int, follower: str, **_: Any) -> None:
    """Someone follows the user: a notice with the follower's profile."""
    notice_add(user_id=user_id, kind=NoticeKind.FOLLOW, url=profile_url(follower), name=follower)


def _queue_tables(game_id: int, user_ids: list[int], tournament: str) -> None:
    from notifications.tasks import table_notify

    for user_id in user_ids:
        try:
            table_notify.apply_async((user_id, game_id, tournament))
        except Exception as error:
            log.warning(
                "table notice for user %s at game %s not queued: %r", user_id, game_id, error
            )
