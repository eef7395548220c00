"""Tables: create, join, leave, rematch; and a moderator's abort and void.

Each runs in one transaction with the game row locked (games.locks), so it never races a move.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from accounts.standing import ensure_can_play
from core import limits
from core.errors import (
    GameFull,
    GameNotActive,
    Invalid,
    NotAPlayer,
    TooManyBotGames,
    TooManyOpenTables,
)
from games import engine, push, selectors
from games.difficulty import bot_kind_for
from games.enqueue import game_transaction
from games.locks import lock_game
from games.models import Game, GameStatus, Seat
from games.services.moves import start


def game_create(
    *,
    user: User,
    seats: int,
    bots: int = 0,
    turn_seconds: int | None = None,
    hook_rule: bool = True,
    blind_first_round: bool = True,
    bot_kind: str | None = None,
    rematch_of: Game | None = None,
) -> Game:
    """A new table: the creator takes seat 0, bots (`bot_kind`: a difficulty or an engine kind)
    the last seats; full tables start at once."""
    ensure_can_play(user)
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
    bot_kind = bot_kind_for(bot_kind)  # easy, medium, hard, or an engine kind
    seed = engine.new_seed()
    with game_transaction():
        _ensure_room(user, open_table=bots < seats - 1, bot_game=bots > 0)
        game = Game.objects.create(
            created_by=user,
            seats=seats,
            bots=bots,
            turn_seconds=turn_seconds,
            hook_rule=hook_rule,
            blind_first_round=blind_first_round,
            seed=seed,
            commitment=engine.commitment(seed),
            rematch_of=rematch_of,
        )
        Seat.objects.bulk_create(
            [Seat(game=game, number=0, user=user)]
            + [Seat(game=game, number=n, bot_kind=bot_kind) for n in range(seats - bots, seats)]
        )
        if bots == seats - 1:
            start(game)
        else:
            _publish_on_commit(game)
    return game


def game_rematch(*, game_id: int, user: User) -> Game:
    """A new table with the same options for a finished game's players; the first player to
    ask creates it (taking seat 0), the others join it. Asking again returns the same table."""
    with game_transaction():
        game = lock_game(game_id)
        if not game.seat_set.filter(user=user).exists():
            raise NotAPlayer("Only the game's players can start its rematch.")
        if game.status != GameStatus.FINISHED:
            raise GameNotActive("A rematch follows a finished game.")
        rematch = Game.objects.filter(rematch_of=game).first()
        if rematch is None:
            bot_kind = next((s.bot_kind for s in game.seat_set.all() if s.is_bot), None)
            rematch = game_create(
                user=user,
                seats=game.seats,
                bots=game.bots,
                turn_seconds=game.turn_seconds,
                hook_rule=game.hook_rule,
                blind_first_round=game.blind_first_round,
                bot_kind=bot_kind,
                rematch_of=game,
            )
            _publish_on_commit(game)  # the players at the old table see the invitation
            return rematch
    return (
        game_join(game_id=rematch.pk, user=user) if rematch.status == GameStatus.OPEN else rematch
    )


def game_join(*, game_id: int, user: User) -> Game:
    """Take the lowest free seat; the game starts when the last seat fills. Joining a table one
    already sits at is a no-op, so a retried request is harmless."""
    ensure_can_play(user)
    with game_transaction():
        game = lock_game(game_id)
        seats = list(game.seat_set.all())
        if any(seat.user_id == user.pk for seat in seats):
            return game
        if game.status != GameStatus.OPEN:
            raise GameFull("This table has started or ended: no seat is free.")
        taken = {seat.number for seat in seats}
        free = [n for n in range(game.seats) if n not in taken]
        # A seat that fills the table starts the game: only one that leaves it open counts.
        _ensure_room(user, open_table=len(free) > 1, bot_game=False)
        Seat.objects.create(game=game, number=free[0], user=user)
        if len(free) == 1:
            start(game)
        else:
            _publish_on_commit(game)
    return game


def _ensure_room(user: User, *, open_table: bool, bot_game: bool) -> None:
    """Refuse a table past the user's limits at once: MAX_OPEN_TABLES_PER_USER open tables they
    sit at, MAX_BOT_GAMES_PER_USER open or running games with bots where they are the only
    person. Counted under a lock of the user's row, held to the caller's commit, so two
    concurrent creates cannot both pass on the same count."""
    most_open = _limit(settings.MAX_OPEN_TABLES_PER_USER) if open_table else None
    most_bot_games = _limit(settings.MAX_BOT_GAMES_PER_USER) if bot_game else None
    if most_open is None and most_bot_games is None:
        return
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).values_list("pk").get()
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


def game_leave(*, game_id: int, user: User) -> Game:
    """Give up one's seat before the start; a table nobody sits at any more is aborted."""
    with transaction.atomic():
        game = lock_game(game_id)
        seat = game.seat_set.filter(user=user).first()
        if seat is None:
            raise NotAPlayer("You do not sit at this table.")
        if game.status != GameStatus.OPEN:
            raise GameNotActive("Seats can only be left before the game starts.")
        seat.delete()
        if not game.seat_set.filter(user__isnull=False).exists():
            game.status = GameStatus.ABORTED
            game.finished_at = timezone.now()
            game.save(update_fields=["status", "finished_at"])
        push.publish_on_commit(game, selectors.table_seats(game), lobby=True, departed=user.pk)
    return game


def _publish_on_commit(game: Game) -> None:
    """The table changed (seats, status): its sockets and the lobbies hear of it after commit."""
    push.publish_on_commit(game, selectors.table_seats(game), lobby=True)


def game_abort(*, game_id: int) -> Game:
    """Stop an open or running game: status aborted, players told live; it never counts."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status not in (GameStatus.OPEN, GameStatus.ACTIVE):
            raise GameNotActive("Only an open or running game can be aborted.")
        abort_locked(game)
    return game


def abort_locked(game: Game) -> None:
    """Under the game's lock: status aborted, no turn, players and lobbies told after commit."""
    game.status = GameStatus.ABORTED
    game.finished_at = timezone.now()
    game.deadline = None
    game.to_act = None
    game.save(update_fields=["status", "finished_at", "deadline", "to_act"])
    _publish_on_commit(game)


def game_void(*, game_id: int, voided: bool = True) -> bool:
    """Void (or restore) a finished game (R17); False when it already was so."""
    with transaction.atomic():
        game = lock_game(game_id)
        if game.status != GameStatus.FINISHED:
            raise GameNotActive("Only a finished game can be voided.")
        if game.voided == voided:
            return False
        game.voided = voided
        game.save(update_fields=["voided"])
    return True


def turns_expedite(*, user_id: int) -> int:
    """A barred player's pending turns become due now, so the timer plays them (R16).

    Under each game's lock, and only if that player is still the one to act (compare and set):
    a move committed meanwhile has passed the turn to someone else, whose clock stays whole.
    """
    expedited = 0
    games = Game.objects.filter(status=GameStatus.ACTIVE, seat_set__user_id=user_id)
    for game_id in games.values_list("pk", flat=True):
        with transaction.atomic():
            game = lock_game(game_id)
            seat = game.seat_set.filter(user_id=user_id).values_list("number", flat=True).first()
            if game.status == GameStatus.ACTIVE and seat is not None and game.to_act == seat:
                game.deadline = timezone.now()
                game.save(update_fields=["deadline"])
                expedited += 1
    return expedited
