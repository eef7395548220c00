"""After a change to a game has committed: its pushes, its tasks and its signals, in one place.

The services call `dispatch` with the Outcome they return, once their transaction is over.
Tasks are named, not imported: games.tasks import the services, which must not import them."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from celery import current_app

from apikit import sending
from games import push
from games.models import Game
from games.outcome import Outcome
from games.signals import game_finished, turn_started

BOT_STEP = "games.tasks.bot_step"
TURN_EXPIRE = "games.tasks.turn_expire"


def dispatch(outcome: Outcome) -> None:
    """Push the change to every audience, send the next step's task (a bot's or the blind
    trick's) and the turn timer's, if its deadline is near; then the signals."""
    if not outcome.changed:
        return
    game = outcome.game
    tasks = outcome.step_delay_ms is not None or outcome.timer_due is not None
    push.send_many(push.messages_of(outcome), then=partial(_send_tasks, outcome) if tasks else None)
    turn = outcome.turn
    if turn is not None and not turn.again:
        turn_started.send(
            sender=Game,
            game_id=game.pk,
            user_id=turn.user_id,
            seq=game.seq,
            deadline=turn.deadline,
            turn_seconds=game.turn_seconds,
        )
    if outcome.finished:
        game_finished.send(sender=Game, game_id=game.pk)


def _send_tasks(outcome: Outcome) -> None:
    game = outcome.game
    if outcome.step_delay_ms is not None:
        send_step(game.pk, game.seq, outcome.step_delay_ms)
    if outcome.timer_due is not None:
        expire_at(game.pk, game.seq, outcome.timer_due)


def send_step(game_id: int, seq: int, delay_ms: int) -> None:
    """The task of a bot's decision or the blind trick's next card, if the game is at `seq`."""
    sending.send(current_app.tasks[BOT_STEP], (game_id, seq), countdown=delay_ms / 1000)


def expire_at(game_id: int, seq: int, deadline: datetime) -> None:
    """The turn timer's task at a deadline (R16), if the game is still at `seq` then."""
    sending.send(current_app.tasks[TURN_EXPIRE], (game_id, seq), eta=deadline)
