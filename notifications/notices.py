"""The notices page's rows: what follows, invitations, rematches, tournament tables and lifted
suspensions told a player, kept once their toast or push is gone (API.md "Notices and games to
watch"). The text is written when read, in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

from apikit.schema import DateTime
from games.selectors import iso
from notifications.models import Notice, NoticeKind

KEPT = 200  # a player's newest notices; older ones go as new ones come


class NoticeView(TypedDict):
    id: int
    kind: NoticeKind
    text: str
    url: str
    created_at: DateTime
    read: bool


def notice_add(*, user_id: int, kind: NoticeKind, url: str, **params: Any) -> Notice:
    """Keep one notice for the player (and only their KEPT newest)."""
    notice = Notice.objects.create(user_id=user_id, kind=kind, url=url, params=params)
    newest = Notice.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
    stale = list(newest.values_list("pk", flat=True)[KEPT:])
    if stale:
        Notice.objects.filter(pk__in=stale).delete()
    return notice


def table_url(game_id: int) -> str:
    return reverse("table", kwargs={"game_id": game_id})


def profile_url(username: str) -> str:
    return reverse("profile", kwargs={"username": username})


def notices_of(user_id: int, *, unread: bool = False, kind: str | None = None) -> QuerySet[Notice]:
    """The player's notices, newest first; only the unread ones, or of one kind, if asked."""
    notices = Notice.objects.filter(user_id=user_id)
    if unread:
        notices = notices.filter(read=False)
    if kind is not None:
        notices = notices.filter(kind=kind)
    return notices.order_by("-created_at", "-pk")


def unread_count(user_id: int) -> int:
    return Notice.objects.filter(user_id=user_id, read=False).count()


def notices_read(*, user_id: int, ids: Iterable[int] | None) -> int:
    """Mark these of the player's notices read (None: all of them); others' ids change
    nothing. How many were unread."""
    notices = Notice.objects.filter(user_id=user_id, read=False)
    if ids is not None:
        notices = notices.filter(pk__in=list(ids))
    return notices.update(read=True)


def notice_views(notices: Iterable[Notice]) -> list[NoticeView]:
    return [
        {
            "id": notice.pk,
            "kind": NoticeKind(notice.kind),
            "text": notice_text(notice),
            "url": notice.url,
            "created_at": iso(notice.created_at),
            "read": notice.read,
        }
        for notice in notices
    ]


def notice_text(notice: Notice) -> str:
    """The notice's sentence in the active language."""
    p = {key: str(value) for key, value in notice.params.items()}
    if notice.kind == NoticeKind.FOLLOW:
        return _("%(name)s follows you.") % p
    if notice.kind == NoticeKind.INVITE:
        return _("%(name)s invites you to table %(game)s.") % p
    if notice.kind == NoticeKind.REMATCH:
        return _("%(name)s asks for a rematch: table %(game)s.") % p
    if notice.kind == NoticeKind.TOURNAMENT_TABLE:
        if notice.params.get("round"):
            return _("%(tournament)s, round %(round)s: your table %(game)s is ready.") % p
        return _("%(tournament)s: your table %(game)s is ready.") % p
    if notice.kind == NoticeKind.WARNING:
        return _("A moderator warns you: %(reason)s") % p
    return _("Your suspension has ended: welcome back.")
