"""Tables: create, join, leave, a bot for a free seat, rematch; and a moderator's abort and void.

Each runs in one transaction with the game row locked (games.locks), so it never races a move.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from accounts.selectors import blocked_ids
from accounts.standing import ensure_can_play, lock_active
from core import limits
from core.errors import (
    Blocked,
    GameFull,
    GameNotActive,
    Invalid,
    InviteRequired,
    NotAPlayer,
    ReliabilityTooLow,
    TooManyBotGames,
    TooManyOpenTables,
)
from games import engine, selectors
from games.difficulty import bot_kind_for
from games.dispatch import dispatch, expire_at
from games.fixed_seeds import table_seed
from games.locks import Table, lock_table
from games.models import Game, GameStatus, Seat, Spectators, Visibility, round_format
from games.outcome import Outcome
from games.services.invitations import invite_users
from games.services.moves import start
from games.signals import game_voided


def game_create(
    *,
    user: User,
    seats: int,
    bots: int = 0,
    turn_seconds: int | None = None,
    hook_rule: bool = True,
    blind_first_round: bool = True,
    bot_kind: str | None = None,
    visibility: str = Visibility.PUBLIC,
    spectators: str = Spectators.EVERYONE,
    min_reliability: int = 0,
    rounds: str | int = "full",
    special_cards: Sequence[str] = (),
) -> Outcome:
    """A new table: the creator takes seat 0, bots (`bot_kind`: a difficulty or an engine kind)
    the last seats; full tables start at once. `min_reliability` keeps out players who often
    leave their games (selectors.reliability); `rounds` (R19) and `special_cards` (R20, the
    API's names) are its variant."""
    options = check_options(
        seats=seats,
        bots=bots,
        turn_seconds=turn_seconds,
        hook_rule=hook_rule,
        blind_first_round=blind_first_round,
        rounds=rounds,
        special_cards=special_cards,
    )
    if not 0 <= min_reliability <= 100:
        raise Invalid("'min_reliability' is 0 to 100.", fields={"min_reliability": ["0 to 100"]})
    options = replace(
        options,
        visibility=Visibility(visibility),
        spectators=Spectators(spectators),
        min_reliability=min_reliability,
    )
    with transaction.atomic(durable=True):
        outcome = _create(user, options, bot_kind)
    dispatch(outcome)
    return outcome


def check_options(
    *,
    seats: int,
    bots: int = 0,
    turn_seconds: int | None,
    hook_rule: bool,
    blind_first_round: bool,
    rounds: str | int,
    special_cards: Sequence[str],
) -> TableOptions:
    """A table's options checked (R2, R16, R19, R20); `rounds` and `special_cards` as the
    table stores them. Raises Invalid naming the field."""
    options = _options(seats, bots, turn_seconds, hook_rule, blind_first_round)
    try:
        engine.round_numbers(seats, rounds)  # type: ignore[arg-type]  # checked here
    except ValueError as error:
        raise Invalid(f"{error}.", fields={"rounds": [str(error)]}) from None
    try:
        codes = engine.special_cards(list(special_cards))
    except engine.Invalid as error:
        raise Invalid(error.message, fields={"special_cards": [error.message]}) from None
    return replace(options, rounds=str(rounds), special_cards=tuple(engine.special_options(codes)))


@dataclass(frozen=True)
class TableOptions:
    seats: int
    bots: int
    turn_seconds: int
    hook_rule: bool
    blind_first_round: bool
    visibility: Visibility = Visibility.PUBLIC
    spectators: Spectators = Spectators.EVERYONE
    min_reliability: int = 0
    rounds: str = "full"  # R19, as Game.rounds stores it
    special_cards: tuple[str, ...] = ()  # R20, the API's names in R20's order


def _options(
    seats: int, bots: int, turn_seconds: int | None, hook_rule: bool, blind_first_round: bool
) -> TableOptions:
    """A new table's options, checked (R2, R16)."""
    turn_seconds = turn_seconds if turn_seconds is not None else settings.TURN_SECONDS_DEFAULT
    seat_range = f"{limits.MIN_SEATS} to {limits.MAX_SEATS}"
    if not limits.MIN_SEATS <= seats <= limits.MAX_SEATS:  # R2
        raise Invalid(f"A table has {seat_range} seats (R2).", fields={"seats": [seat_range]})
    if not limits.MIN_BOTS <= bots <= limits.max_bots(seats):
        bot_range = f"{limits.MIN_BOTS} to {limits.max_bots(seats)}"
        raise Invalid(f"Bots fill {bot_range} seats.", fields={"bots": [bot_range]})
    if not limits.MIN_TURN_SECONDS <= turn_seconds <= limits.MAX_TURN_SECONDS:  # R16
        turn_range = f"{limits.MIN_TURN_SECONDS} to {limits.MAX_TURN_SECONDS}"
        raise Invalid(
            f"The turn limit is {turn_range} seconds (R16).", fields={"turn_seconds": [turn_range]}
        )
    return TableOptions(seats, bots, turn_seconds, hook_rule, blind_first_round)


def guided_game_start(*, user: User) -> Outcome:
    """A guided game for learning: three easy bots, no blind first round, five minutes a
    decision, and a hint on each decision (games.guide)."""
    options = _options(4, 3, GUIDED_TURN_SECONDS, hook_rule=True, blind_first_round=False)
    with transaction.atomic(durable=True):
        outcome = _create(user, options, "easy", guided=True)
    dispatch(outcome)
    return outcome


GUIDED_TURN_SECONDS = 300


def _create(
    user: User,
    options: TableOptions,
    bot_kind: str | None,
    rematch_of: Game | None = None,
    *,
    guided: bool = False,
) -> Outcome:
    """In the caller's transaction: the new table, started if full."""
    lock_active(user)
    ensure_can_play(user)
    bot_kind = bot_kind_for(bot_kind)  # easy, medium, hard, or an engine kind
    seats, bots = options.seats, options.bots
    _ensure_room(user, open_table=bots < seats - 1, bot_game=bots > 0)
    seed = table_seed()
    game = Game.objects.create(
        created_by=user,
        seats=seats,
        bots=bots,
        turn_seconds=options.turn_seconds,
        hook_rule=options.hook_rule,
        blind_first_round=options.blind_first_round,
        seed=seed,
        commitment=engine.commitment(seed),
        rematch_of=rematch_of,
        guided=guided,
        visibility=options.visibility,
        spectators=options.spectators,
        min_reliability=options.min_reliability,
        rounds=options.rounds,
        special_cards=list(options.special_cards),
    )
    Seat.objects.bulk_create(
        [Seat(game=game, number=0, user=user)]
        + [Seat(game=game, number=n, bot_kind=bot_kind) for n in range(seats - bots, seats)]
    )
    table = lock_table(game.pk)
    return start(table) if bots == seats - 1 else _changed(table)


def seated_game(
    *,
    users: Sequence[User | None],
    turn_seconds: int,
    hook_rule: bool,
    blind_first_round: bool,
    rounds: str,
    special_cards: Sequence[str],
    visibility: str = Visibility.PUBLIC,
) -> Outcome:
    """In the caller's transaction: a table of these people in this order (None: a medium
    bot's seat), started at once (a tournament's table, T1, or Play now's, R28: an ordinary
    game). Its Outcome is dispatched once the caller's transaction commits. Raises Invalid
    for options no table may have."""
    bots = sum(user is None for user in users)
    options = _options(len(users), bots, turn_seconds, hook_rule, blind_first_round)
    creator = next(user for user in users if user is not None)
    try:
        engine.round_numbers(len(users), round_format(rounds))  # R19
    except ValueError as error:
        raise Invalid(f"{error}.", fields={"rounds": [str(error)]}) from None
    seed = table_seed()
    game = Game.objects.create(
        created_by=creator,
        seats=options.seats,
        bots=bots,
        turn_seconds=options.turn_seconds,
        hook_rule=options.hook_rule,
        blind_first_round=options.blind_first_round,
        seed=seed,
        commitment=engine.commitment(seed),
        visibility=Visibility(visibility),
        rounds=rounds,
        special_cards=list(special_cards),
    )
    medium = bot_kind_for("medium")
    Seat.objects.bulk_create(
        [
            Seat(game=game, number=number, user=user, bot_kind="" if user else medium)
            for number, user in enumerate(users)
        ]
    )
    outcome = start(lock_table(game.pk))
    transaction.on_commit(partial(dispatch, outcome))
    return outcome


def game_rematch(*, game_id: int, user: User) -> Outcome:
    """A new table with the same options for a finished game's players; the first player to
    ask creates it (taking seat 0), the others join it. Asking again returns the same table."""
    with transaction.atomic(durable=True):
        table = lock_table(game_id)
        game = table.game
        if table.seat_of(user.pk) is None:
            raise NotAPlayer("Only the game's players can start its rematch.")
        if game.status != GameStatus.FINISHED:
            raise GameNotActive("A rematch follows a finished game.")
        rematch = Game.objects.filter(rematch_of=game).first()
        if rematch is None:
            options = TableOptions(
                game.seats,
                game.bots,
                game.turn_seconds,
                game.hook_rule,
                game.blind_first_round,
                Visibility(game.visibility),  # the rematch keeps who may find, watch
                Spectators(game.spectators),  # and join it
                game.min_reliability,
                game.rounds,
                tuple(game.special_cards),
            )
            bot_kind = next((s.bot_kind for s in table.seats if s.is_bot), None)
            outcome = _create(user, options, bot_kind, rematch_of=game)
            invited = _changed(table)  # the players at the old table see the invitation
        else:
            rematch_table, invited = lock_table(rematch.pk), None
            invite = rematch.invite_code  # a player of the finished game needs no link
            opened = rematch.status == GameStatus.OPEN
            outcome = _join(rematch_table, user, invite) if opened else _unchanged(rematch_table)
    if invited is not None:
        dispatch(invited)
    dispatch(outcome)
    if invited is not None:  # and on ws/me/ (or Web Push) wherever they are
        people = {s.user_id for s in table.seats if s.user_id is not None}
        others = sorted(people - blocked_ids(user.pk) - {user.pk})
        invite_users(outcome.game.pk, user, others, rematch=True)
    return outcome


def game_join(*, game_id: int, user: User, invite: str | None = None) -> Outcome:
    """Take the lowest free seat; the game starts when the last seat fills. Joining a table one
    already sits at is a no-op, so a retried request is harmless. A private table needs its
    invitation code; nobody joins a table where someone they blocked, or who blocked them,
    sits."""
    with transaction.atomic(durable=True):
        outcome = _join(lock_table(game_id), user, invite)
    dispatch(outcome)
    return outcome


def _join(table: Table, user: User, invite: str | None = None) -> Outcome:
    game = table.game
    if table.seat_of(user.pk) is not None:
        return _unchanged(table)
    lock_active(user)
    ensure_can_play(user)
    private = game.visibility == Visibility.PRIVATE
    if (
        private
        and not hmac.compare_digest(invite or "", game.invite_code)
        and not selectors.is_invited(game, user)
    ):
        raise InviteRequired("This table is private: join it with its invitation code.")
    if blocked_ids(user.pk) & {seat.user_id for seat in table.seats}:
        raise Blocked("A player at this table blocked you, or you blocked them.")
    if game.status != GameStatus.OPEN:
        raise GameFull("This table has started or ended: no seat is free.")
    if game.min_reliability and _reliability(user) < game.min_reliability:
        raise ReliabilityTooLow(
            f"This table asks for a reliability of {game.min_reliability}% at least."
        )
    taken = {seat.number for seat in table.seats}
    free = [n for n in range(game.seats) if n not in taken]
    # A seat that fills the table starts the game: only one that leaves it open counts.
    _ensure_room(user, open_table=len(free) > 1, bot_game=False)
    Seat.objects.create(game=game, number=free[0], user=user)
    table = lock_table(game.pk)
    return start(table) if len(free) == 1 else _changed(table)


def game_add_bot(*, game_id: int, user: User) -> Outcome:
    """The table's creator, seated at it, gives its lowest free seat to a bot (of the kind its
    bots are, else the default one); the seat that fills the table starts the game. A table
    with a bot is no league game (R17)."""
    with transaction.atomic(durable=True):
        table = lock_table(game_id)
        game = table.game
        if game.created_by_id != user.pk or table.seat_of(user.pk) is None:
            raise NotAPlayer("Only the table's creator, seated at it, gives a seat to a bot.")
        if game.status != GameStatus.OPEN:
            raise GameFull("This table has started or ended: no seat is free.")
        lock_active(user)
        alone = not any(s.user_id not in (None, user.pk) for s in table.seats)
        _ensure_room(user, open_table=False, bot_game=alone and game.bots == 0)
        taken = {seat.number for seat in table.seats}
        free = [n for n in range(game.seats) if n not in taken]
        kind = next((seat.bot_kind for seat in table.seats if seat.is_bot), None)
        Seat.objects.create(game=game, number=free[0], bot_kind=bot_kind_for(kind))
        game.bots += 1
        game.save(update_fields=["bots"])
        table = lock_table(game.pk)
        outcome = start(table) if len(free) == 1 else _changed(table)
    dispatch(outcome)
    return outcome


RELIABILITY_UNKNOWN = 80  # a player with too few games yet counts as this (API.md)


def _reliability(user: User) -> int:
    known = selectors.reliability(user.pk)
    return RELIABILITY_UNKNOWN if known is None else known


def _ensure_room(user: User, *, open_table: bool, bot_game: bool) -> None:
    """Refuse a table past the user's limits at once: MAX_OPEN_TABLES_PER_USER open tables they
    sit at, MAX_BOT_GAMES_PER_USER open or running games with bots where they are the only
    person. Counted under the lock of the user's row the caller holds to its commit
    (lock_active), so two concurrent creates cannot both pass on the same count."""
    most_open = _limit(settings.MAX_OPEN_TABLES_PER_USER) if open_table else None
    most_bot_games = _limit(settings.MAX_BOT_GAMES_PER_USER) if bot_game else None
    if most_open is None and most_bot_games is None:
        return
    if most_open is not None and _open_tables(user).count() >= most_open:
        raise TooManyOpenTables(
            f"You sit at {most_open} open tables already, the most one may: "
            "start or leave one first."
        )
    if most_bot_games is not None and _bot_games(user).count() >= most_bot_games:
        raise TooManyBotGames(
            f"You have {most_bot_games} games with bots going already, the most one may: "
            "finish or resign one first."
        )


def _limit(most: int) -> int | None:
    """A per-user limit from settings; None when off (0, or rate limits disabled)."""
    return most if most > 0 and settings.RATE_LIMITS_ENABLED else None


def _open_tables(user: User) -> QuerySet[Game]:
    return Game.objects.filter(status=GameStatus.OPEN, seat_set__user=user)


def _bot_games(user: User) -> QuerySet[Game]:
    """Open or running games with bots at which `user` is the only person."""
    other_people = Seat.objects.filter(game=OuterRef("pk"), user__isnull=False).exclude(user=user)
    return Game.objects.filter(
        status__in=(GameStatus.OPEN, GameStatus.ACTIVE), bots__gt=0, seat_set__user=user
    ).exclude(Exists(other_people))


def game_leave(*, game_id: int, user: User) -> Outcome:
    """Give up one's seat before the start; a table nobody sits at any more is aborted."""
    with transaction.atomic(durable=True):
        table = lock_table(game_id)
        game, seat = table.game, table.seat_of(user.pk)
        if seat is None:
            raise NotAPlayer("You do not sit at this table.")
        if game.status != GameStatus.OPEN:
            raise GameNotActive("Seats can only be left before the game starts.")
        outcome = leave_locked(table, seat, user)
    dispatch(outcome)
    return outcome


def leave_locked(table: Table, seat: Seat, user: User) -> Outcome:
    """Under the lock of an open table: `user` gives up their seat (see game_leave)."""
    game = table.game
    seat.delete()
    seats = [other for other in table.seats if other.number != seat.number]
    if not any(other.user_id is not None for other in seats):
        game.status = GameStatus.ABORTED
        game.finished_at = timezone.now()
        game.save(update_fields=["status", "finished_at"])
    return replace(_changed(table), seats=seats, departed=frozenset({user.pk}))


def _changed(table: Table) -> Outcome:
    """The table changed (seats, status): its sockets and the lobbies hear of it."""
    return Outcome(table.game, table.seats, table.game.engine_state(), lobby=True)


def _unchanged(table: Table) -> Outcome:
    return Outcome(table.game, table.seats, table.game.engine_state(), changed=False)


def game_abort(*, game_id: int) -> Outcome:
    """Stop an open or running game: status aborted, players told live; it never counts."""
    with transaction.atomic(durable=True):
        table = lock_table(game_id)
        if table.game.status not in (GameStatus.OPEN, GameStatus.ACTIVE):
            raise GameNotActive("Only an open or running game can be aborted.")
        outcome = abort_locked(table)
    dispatch(outcome)
    return outcome


def abort_locked(table: Table) -> Outcome:
    """Under the game's lock: status aborted, no turn; players and lobbies are to hear of it."""
    game = table.game
    game.status = GameStatus.ABORTED
    game.finished_at = timezone.now()
    game.deadline = None
    game.to_act = None
    game.save(update_fields=["status", "finished_at", "deadline", "to_act"])
    return _changed(table)


def game_void(*, game_id: int, voided: bool = True) -> bool:
    """Void (or restore) a finished game (R17); False when it already was so."""
    with transaction.atomic():
        game = lock_table(game_id).game
        if game.status != GameStatus.FINISHED:
            raise GameNotActive("Only a finished game can be voided.")
        if game.voided == voided:
            return False
        game.voided = voided
        game.save(update_fields=["voided"])
        transaction.on_commit(
            partial(game_voided.send, sender=Game, game_id=game_id, voided=voided)
        )
    return True


def presence_told(user_id: int) -> None:
    """A user's first socket opened or their last one closed: each table they sit at, open or
    running, pushes fresh views, whose `online` says so."""
    statuses = (GameStatus.OPEN, GameStatus.ACTIVE)
    games = Game.objects.filter(status__in=statuses, seat_set__user_id=user_id)
    for game in games.select_related("created_by"):
        seats = list(game.seat_set.select_related("user"))
        dispatch(Outcome(game=game, seats=seats, state=game.engine_state()))


def turns_expedite(*, user_id: int) -> int:
    """A barred player's pending turns become due now, and the timer's task for each is sent at
    once (R16); the sweep stays the safety net.

    Under each game's lock, and only if that player is still the one to act (compare and set):
    a move committed meanwhile has passed the turn to someone else, whose clock stays whole.
    """
    expedited = 0
    games = Game.objects.filter(status=GameStatus.ACTIVE, seat_set__user_id=user_id)
    for game_id in games.values_list("pk", flat=True):
        with transaction.atomic():
            table = lock_table(game_id)
            game, seat = table.game, table.seat_of(user_id)
            if game.status != GameStatus.ACTIVE or seat is None or game.to_act != seat.number:
                continue
            game.deadline = timezone.now()
            game.save(update_fields=["deadline"])
        expire_at(game.pk, game.seq, game.deadline)
        expedited += 1
    return expedited
