"""A player whose account is deleted leaves every table: R18's resignation where a game runs,
a plain leave where it has not started; their chat text (but evidence under an open report,
until it closes) and invitations go. A suspended player leaves the tables that have not
started, and is away where a game runs (R18: the medium bot plays their seat)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet

from games.dispatch import dispatch
from games.locks import lock_table
from games.models import ChatMessage, Game, GameStatus, Invitation
from games.outcome import Outcome
from games.services.away import away_locked, resign_locked
from games.services.moves import apply_overdue
from games.services.tables import leave_locked


def seats_vacate(*, user: User, resign: bool = True) -> list[Outcome]:
    """In the caller's transaction, each table locked in id order: the user resigns every
    running game (R18; alone with bots, it is aborted), or with `resign` False is away there
    (a suspension: they may come back if it is lifted; alone with bots, it is aborted all the
    same), and leaves every open table. Each outcome is dispatched once the caller's
    transaction commits."""
    outcomes: list[Outcome] = []
    running = (GameStatus.OPEN, GameStatus.ACTIVE)
    game_ids = Game.objects.filter(status__in=running, seat_set__user=user).order_by("pk")
    for game_id in list(game_ids.values_list("pk", flat=True)):
        table = lock_table(game_id)
        seat = table.seat_of(user.pk)
        if seat is None or table.game.status not in running:  # it changed meanwhile
            continue
        if table.game.status == GameStatus.OPEN:
            outcomes.append(leave_locked(table, seat, user))
            continue
        overdue, _ = apply_overdue(table)  # as at a resignation: expired turns first (R16)
        if table.game.status != GameStatus.ACTIVE:
            outcomes.extend([overdue] if overdue is not None else [])
            continue
        alone = sum(not other.is_bot for other in table.seats) == 1
        outcome = resign_locked(table, seat) if resign or alone else away_locked(table, seat)
        outcomes.append(overdue.then(outcome) if overdue is not None else outcome)
    for outcome in outcomes:
        transaction.on_commit(partial(dispatch, outcome))
    return outcomes


def traces_erase(*, user: User, reported_messages: QuerySet[Any], evidence: QuerySet[Any]) -> None:
    """In the caller's transaction: the user's chat messages are deleted, those a report
    points at (`reported_messages`, a query of message ids) kept with their text blanked but
    for `evidence` (those an open report points at), whose text stays until chat_text_erase;
    invitations to or from them are withdrawn."""
    mine = ChatMessage.objects.filter(user=user)
    mine.exclude(pk__in=reported_messages).delete()
    chat_text_erase(messages=mine.exclude(pk__in=evidence))
    Invitation.objects.filter(user=user).delete()
    Invitation.objects.filter(sender=user).delete()


def chat_text_erase(*, messages: QuerySet[ChatMessage]) -> None:
    """Blank the text of a deleted account's messages (the rows stay for the reports)."""
    messages.update(text="", preset="")
