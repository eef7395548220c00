"""Play now (R28): a player asks to be seated, cancels, and the matcher seats waiting seeks at
new tables; a live seek ends once its player has had no socket open for 30 seconds.

The matcher runs at once when a seek arrives and in the sweep every second. It locks the
waiting seeks of one speed and deck with SKIP LOCKED, so two processes never seat one seek
twice: whatever one of them holds, the other passes over until the next sweep.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.selectors import blocked_pairs
from accounts.standing import ensure_can_play, lock_active
from core.errors import AlreadySeated, NotFound
from games import engine
from games.models import Visibility
from games.outcome import Outcome
from games.presence import last_seen, online
from games.push import SeatedMessage, me_group, send_many
from games.services import seated_game
from league.models import Pool, Rating
from league.ratings import display, initial_skill
from seeks import matching
from seeks.models import LIVE_BELOW, SEATED_KEPT, Deck, Seek

log = logging.getLogger(__name__)

ABSENT_SECONDS = 30  # R28: a live seek ends when its player has had no socket this long
_shuffle = random.SystemRandom().shuffle  # R28: seat order at the new table is random


def seek_create(
    *, user: User, turn_seconds: int, sizes: Sequence[int], deck: str, bots_after: int | None
) -> Seek:
    """R28: the player's seek, replacing any earlier one; matched at once."""
    ensure_can_play(user)
    with transaction.atomic(durable=True):
        lock_active(user)  # two seeks at once from one player: one replaces the other
        Seek.objects.filter(user=user).delete()
        seek = Seek.objects.create(
            user=user,
            turn_seconds=turn_seconds,
            sizes=sorted(set(sizes)),
            deck=Deck(deck),
            bots_after=bots_after,
            rating=_rating(user.pk, Deck(deck)),
        )
    seeks_match(turn_seconds=turn_seconds, deck=deck)
    seek.refresh_from_db()
    return seek


def seek_cancel(*, user: User) -> None:
    """The player's waiting seek ends; a seated one cannot (its table is waiting)."""
    with transaction.atomic(durable=True):
        seek = Seek.objects.select_for_update().filter(user=user).first()
        if seek is None or seek.gone(timezone.now()):
            raise NotFound("You have no seek.")
        if seek.seated_at is not None:
            raise AlreadySeated("You have been seated already.")
        seek.delete()


def seek_forget(*, user: User) -> None:
    """In the caller's transaction: the player's seek ends (their account is suspended or
    deleted), so nobody is seated with them."""
    Seek.objects.filter(user=user).delete()


def seeks_sweep() -> int:
    """The sweep (every second): ends absent players' live seeks and seated ones past keeping,
    then matches every speed and deck with seeks waiting. Returns the tables opened."""
    now = timezone.now()
    Seek.objects.filter(seated_at__lt=now - SEATED_KEPT).delete()
    _end_absent(now)
    groups = Seek.objects.filter(seated_at=None).values_list("turn_seconds", "deck").distinct()
    opened = 0
    for turn_seconds, deck in sorted(groups):
        try:
            opened += seeks_match(turn_seconds=turn_seconds, deck=deck)
        except Exception:  # one group's fault never stops the others' matching
            log.exception("Seeks of %s s, %s could not be matched", turn_seconds, deck)
    return opened


def seeks_match(*, turn_seconds: int, deck: str) -> int:
    """R28: seat what the waiting seeks of this speed and deck allow now; the tables opened."""
    outcomes: list[tuple[Outcome, list[Seek]]] = []
    with transaction.atomic(durable=True):
        waiting = list(
            Seek.objects.select_for_update(skip_locked=True)
            .filter(seated_at=None, turn_seconds=turn_seconds, deck=deck)
            .select_related("user")
            .order_by("created_at", "pk")
        )
        now = timezone.now()
        by_id = {seek.pk: seek for seek in waiting}
        apart = blocked_pairs(seek.user_id for seek in waiting)
        for table in matching.tables(
            [_waiting(seek) for seek in waiting],
            now.timestamp(),
            lambda a, b: frozenset((a, b)) in apart,
        ):
            seated = [by_id[pk] for pk in table.seeks]
            outcomes.append((_open_table(seated, table.bots, now), seated))
    for outcome, seated in outcomes:
        send_many([(me_group(seek.user_id), _seated(outcome.game.pk, seek)) for seek in seated])
    return len(outcomes)


def _seated(game_id: int, seek: Seek) -> SeatedMessage:
    return {"type": "me.seated", "game": game_id, "seek": seek.pk}


def _open_table(seated: list[Seek], bots: int, now: datetime) -> Outcome:
    """A new table of these seeks' players (and medium bots), in random seat order."""
    first = seated[0]
    players: list[User | None] = [seek.user for seek in seated] + [None] * bots
    _shuffle(players)
    outcome = seated_game(
        users=players,
        turn_seconds=first.turn_seconds,
        hook_rule=True,  # R28: the full game with R8 and R9
        blind_first_round=True,
        rounds="full",
        special_cards=list(engine.SPECIAL_OPTIONS) if first.deck == Deck.ANNIVERSARY else [],
        visibility=Visibility.PUBLIC,
    )
    for seek in seated:
        seek.game, seek.seated_at = outcome.game, now
    Seek.objects.bulk_update(seated, ["game", "seated_at"])
    return outcome


def _waiting(seek: Seek) -> matching.Waiting:
    return matching.Waiting(
        seek=seek.pk,
        player=seek.user_id,
        sizes=frozenset(seek.sizes),
        since=seek.created_at.timestamp(),
        rating=seek.rating,
        bots_after=seek.bots_after,
    )


def _end_absent(now: datetime) -> None:
    """R28: a live seek whose player has had no socket open for ABSENT_SECONDS ends (one who
    never opened one: counted from the seek's start)."""
    live = Seek.objects.filter(seated_at=None, turn_seconds__lt=LIVE_BELOW)
    players = dict(live.values_list("user_id", "created_at"))
    if not players:
        return
    here = online(players)
    seen = last_seen(set(players) - here)
    cutoff = now.timestamp() - ABSENT_SECONDS
    absent = [
        user_id
        for user_id, asked in players.items()
        if user_id not in here and max(seen.get(user_id, 0.0), asked.timestamp()) <= cutoff
    ]
    if absent:
        live.filter(user_id__in=absent).delete()


def _rating(user_id: int, deck: Deck) -> float:
    """The player's rating in the deck's pool (R27) as the league shows it; a new player's."""
    pool = Pool.ANNIVERSARY if deck == Deck.ANNIVERSARY else Pool.CLASSIC
    found = Rating.objects.filter(user_id=user_id, pool=pool).values_list("ordinal", flat=True)
    ordinal = found.first()
    return display(ordinal if ordinal is not None else initial_skill().ordinal)
