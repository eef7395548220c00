"""What a player is sent when a decision becomes theirs, and when an hour of it is left.

Mail only at correspondence tables (a limit of an hour or more, `core.limits`), and only to an
address the player verified (`accounts.selectors.mail_address_of`): the turn's own mail, and a
reminder when an hour is left at tables whose limit is two hours or more (so the reminder never
follows the turn's mail within the hour). Each kind at most once per turn, and the turn's mail
at most once a table every quarter-hour (TURN_MAIL_GAP): a turn that comes sooner is held, and
the minute sweep mails it once the quarter-hour is over if the decision is still theirs.
Web Push for every table, but for a live table only while the player has no socket open.
Nothing for an away seat (R18): its decisions are made for it within seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from accounts.selectors import mail_address_of
from accounts.standing import is_suspended
from core import limits
from core.errors import NotFound
from games import presence, selectors
from games.models import Game, GameStatus, Seat
from notifications import mail, services, webpush
from notifications.models import Kind, NotificationSettings, Sent

REMINDER_BEFORE = timedelta(hours=1)
REMINDER_MIN_LIMIT = 2 * REMINDER_BEFORE
# A reminder found more than this early (its task ran before the deadline moved) waits.
REMINDER_TOLERANCE = timedelta(minutes=1)
# At most one turn mail a table this often to a player: at a table whose bots answer at once
# their turn comes back every few seconds.
TURN_MAIL_GAP = timedelta(minutes=15)
# How long after its quarter-hour a held turn mail is still looked for by the sweep (it runs
# every minute; a turn whose mail cannot go, e.g. mail turned off, drops out after this).
HELD_SEARCH = timedelta(hours=1)


@dataclass
class Turn:
    game: Game
    seat: Seat
    user: User

    @property
    def correspondence(self) -> bool:
        return bool(self.game.turn_seconds >= limits.CORRESPONDENCE_SECONDS)


@dataclass
class Notices:
    """What the turn's task still has to do: send `push` (if any), and remind the player at
    `remind_at`."""

    push: Push | None = None
    remind_at: datetime | None = None


@dataclass(frozen=True)
class Push:
    """A notice's payload and where it goes: the player's subscriptions and devices."""

    payload: str
    targets: services.PushTargets


def current_turn(*, user_id: int, game_id: int, seq: int) -> Turn | None:
    """The turn, if the game is still at event `seq` with this player (not away) to act."""
    try:
        game = selectors.game_get(game_id)
    except NotFound:
        return None
    if game.status != GameStatus.ACTIVE or game.seq != seq or game.deadline is None:
        return None
    seat = next((s for s in selectors.seats_of(game) if s.number == game.to_act), None)
    if seat is None or seat.user_id != user_id or seat.away:
        return None
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or is_suspended(user):  # a barred player's turns are moved at once
        return None
    return Turn(game, seat, user)


def turn_notify(*, user_id: int, game_id: int, seq: int) -> Notices:
    """The turn's mail (sent here) and what remains for the task: pushes and the reminder."""
    notices = Notices()
    turn = current_turn(user_id=user_id, game_id=game_id, seq=seq)
    if turn is None:
        return notices
    prefs = services.settings_of(turn.user)
    if turn.correspondence and prefs.email_turns:
        _mail_once(turn, Kind.TURN_MAIL)
    wants_push = prefs.push_turns and (turn.correspondence or not presence.is_connected(user_id))
    targets = services.pushes_to(user_id) if wants_push else None
    if targets and services.notice_claim(
        user_id=user_id, game_id=game_id, seq=seq, kind=Kind.TURN_PUSH
    ):
        notices.push = Push(webpush.turn_payload(turn.game, prefs.language), targets)
    if turn.correspondence and turn.game.turn_seconds >= REMINDER_MIN_LIMIT.total_seconds():
        assert turn.game.deadline is not None
        notices.remind_at = turn.game.deadline - REMINDER_BEFORE
    return notices


def remind(*, user_id: int, game_id: int, seq: int) -> tuple[bool, Push | None]:
    """The reminder of a turn still the player's: whether a mail was sent now (_remind_mail),
    and the push left for the task to send (_reminder_push)."""
    turn = current_turn(user_id=user_id, game_id=game_id, seq=seq)
    if turn is None:
        return False, None
    prefs = services.settings_of(turn.user)
    return _remind_mail(turn, prefs), _reminder_push(turn, prefs)


def _remind_mail(turn: Turn, prefs: NotificationSettings) -> bool:
    """The turn's mail if the quarter-hour rule held it and that quarter-hour is over; else the
    reminder, if an hour or less is left and it was not sent yet. True if a mail was sent."""
    if not turn.correspondence:
        return False
    if not prefs.email_turns:
        return False
    if _held(turn) and _mail_once(turn, Kind.TURN_MAIL):
        return True
    return _in_last_hour(turn) and _mail_once(turn, Kind.REMINDER_MAIL)


def _reminder_push(turn: Turn, prefs: NotificationSettings) -> Push | None:
    """The reminder's push, once a turn, when an hour or less is left at a table of two
    hours or more a turn and the player takes pushes somewhere; None otherwise."""
    if not _in_last_hour(turn):
        return None
    targets = services.pushes_to(turn.user.pk) if prefs.push_turns else None
    if not targets or not services.notice_claim(
        user_id=turn.user.pk, game_id=turn.game.pk, seq=turn.game.seq, kind=Kind.REMINDER_PUSH
    ):
        return None
    return Push(webpush.turn_payload(turn.game, prefs.language, reminder=True), targets)


def _in_last_hour(turn: Turn) -> bool:
    """An hour or less is left of a turn at a table of two hours or more a turn."""
    if turn.game.turn_seconds < REMINDER_MIN_LIMIT.total_seconds():
        return False
    assert turn.game.deadline is not None
    left = turn.game.deadline - timezone.now()
    return timedelta(0) < left <= REMINDER_BEFORE + REMINDER_TOLERANCE


# Claims older than the longest turn can no longer stop a second notice: they are pruned.
CLAIMS_KEPT = timedelta(seconds=limits.MAX_TURN_SECONDS) + timedelta(days=1)


def claims_prune() -> int:
    """Forget claims of turns that ended long ago; returns how many."""
    deleted, _ = Sent.objects.filter(created__lt=timezone.now() - CLAIMS_KEPT).delete()
    return deleted


def reminders_due(*, limit: int = 500) -> list[tuple[int, int, int]]:
    """(user, game, seq) of each turn whose last hour has begun and whose reminder is unsent:
    the sweep that stands in for reminder tasks the broker could not hold (days ahead); then
    each turn whose mail was held by the quarter-hour rule and may go now."""
    due = _reminders_due(limit=limit)
    return due + [turn for turn in held_mails_due(limit=limit) if turn not in due]


def held_mails_due(*, limit: int = 500) -> list[tuple[int, int, int]]:
    """(user, game, seq) of each current turn without its mail, at a correspondence table
    where the player's last turn mail went out a quarter-hour or more ago (and not long
    before): the turns the quarter-hour rule held."""
    now = timezone.now()
    player = Seat.objects.filter(game=OuterRef("pk"), number=OuterRef("to_act"), away=False)
    mails = Sent.objects.filter(game=OuterRef("pk"), user=OuterRef("player"), kind=Kind.TURN_MAIL)
    games = (
        Game.objects.filter(
            status=GameStatus.ACTIVE,
            turn_seconds__gte=limits.CORRESPONDENCE_SECONDS,
            deadline__gt=now,
        )
        .annotate(player=Subquery(player.values("user_id")[:1]))
        .filter(player__isnull=False)
        .filter(Exists(mails.filter(created__range=(now - TURN_MAIL_GAP - HELD_SEARCH, now))))
        .filter(~Exists(mails.filter(created__gt=now - TURN_MAIL_GAP)))
        .filter(~Exists(mails.filter(seq=OuterRef("seq"))))
        .order_by("deadline")
        .values_list("player", "pk", "seq")[:limit]
    )
    return [(user_id, game_id, seq) for user_id, game_id, seq in games]


def _reminders_due(*, limit: int) -> list[tuple[int, int, int]]:
    now = timezone.now()
    reminded = Sent.objects.filter(
        game=OuterRef("pk"), seq=OuterRef("seq"), kind=Kind.REMINDER_MAIL
    )
    games = (
        Game.objects.filter(
            status=GameStatus.ACTIVE,
            turn_seconds__gte=REMINDER_MIN_LIMIT.total_seconds(),
            deadline__gt=now,
            deadline__lte=now + REMINDER_BEFORE,
        )
        .filter(~Exists(reminded))
        .order_by("deadline")[:limit]
    )
    due = []
    for game in games:
        if game.to_act is None:
            continue
        seat = Seat.objects.filter(game=game, number=game.to_act, user__isnull=False).first()
        if seat is not None and seat.user_id is not None and not seat.away:
            due.append((seat.user_id, game.pk, game.seq))
    return due


def _held(turn: Turn) -> bool:
    """The turn has no mail yet though the player was mailed for this table before."""
    mails = Sent.objects.filter(user=turn.user, game=turn.game, kind=Kind.TURN_MAIL)
    return not mails.filter(seq=turn.game.seq).exists() and mails.exists()


def _mail_once(turn: Turn, kind: Kind) -> bool:
    """Send the mail of `kind` to the player's verified address unless it was claimed already
    (or, for a turn's mail, one for this table went out within the quarter-hour); a failed
    send gives the claim back (and raises, for the task's retry)."""
    address = mail_address_of(turn.user)
    if address is None:
        return False
    user_id, game_id, seq = turn.user.pk, turn.game.pk, turn.game.seq
    with transaction.atomic():
        if kind == Kind.TURN_MAIL:
            # One player's turn mails are claimed one at a time (the row lock), so two turns
            # of a table that come together cannot both find the quarter-hour free.
            list(User.objects.select_for_update(no_key=True).filter(pk=user_id).values("pk"))
            recent = Sent.objects.filter(
                user_id=user_id,
                game_id=game_id,
                kind=Kind.TURN_MAIL,
                created__gt=timezone.now() - TURN_MAIL_GAP,
            )
            if recent.exists():
                return False
        if not services.notice_claim(user_id=user_id, game_id=game_id, seq=seq, kind=kind):
            return False
    try:
        mail.turn_mail(turn.user, turn.game, address=address, reminder=kind == Kind.REMINDER_MAIL)
    except Exception:
        services.notice_release(user_id=user_id, game_id=game_id, seq=seq, kind=kind)
        raise
    return True
