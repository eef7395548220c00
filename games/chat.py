"""Table chat: players write, everyone at the table reads, moderators hide (kept for review)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from accounts.moderation import audit
from accounts.standing import ensure_can_play
from games import push, selectors
from games.models import ChatMessage, Game
from games.selectors import ChatMessageView
from wizardsite.api import Invalid, NotAPlayer, RateLimited

MAX_LENGTH = 300
RATE_COUNT, RATE_WINDOW = 5, timedelta(seconds=10)  # at most 5 messages in 10 seconds


def chat_post(*, game_id: int, user: User, text: object) -> ChatMessage:
    """A player's message to their table: 1–300 characters after trimming."""
    ensure_can_play(user)
    if not isinstance(text, str):
        raise Invalid("'text' must be a string.", fields={"text": ["not a string"]})
    text = text.strip()
    if not 1 <= len(text) <= MAX_LENGTH:
        raise Invalid(f"A message has 1 to {MAX_LENGTH} characters.", fields={"text": ["1 to 300"]})
    game = selectors.game_get(game_id)
    seat = selectors.seat_of(selectors.seats_of(game), user)
    if seat is None:
        raise NotAPlayer("Only the players of this table can write in its chat.")
    since = timezone.now() - RATE_WINDOW
    if ChatMessage.objects.filter(user=user, created_at__gte=since).count() >= RATE_COUNT:
        raise RateLimited("At most 5 messages in 10 seconds: wait a moment.")
    message = ChatMessage.objects.create(game=game, user=user, seat=seat, text=text)
    shown = chat_view(message)
    transaction.on_commit(
        lambda: push.send(push.game_group(game_id), {"type": "chat.message", "message": shown})
    )
    return message


def chat_hide(*, moderator: User, message: ChatMessage, reason: str = "") -> None:
    """Hide a message for everyone at once; it stays stored for review."""
    with transaction.atomic():
        message.hidden = True
        message.hidden_at = timezone.now()
        message.hidden_by = moderator
        message.save(update_fields=["hidden", "hidden_at", "hidden_by"])
        audit(moderator=moderator, action="hide message", target=message, reason=reason)
        game_id, message_id = message.game_id, message.pk
        transaction.on_commit(
            lambda: push.send(push.game_group(game_id), {"type": "chat.hidden", "id": message_id})
        )


def chat_list(game: Game, after: int = 0) -> QuerySet[ChatMessage]:
    """The visible messages of a table after message id `after`, oldest first."""
    return (
        ChatMessage.objects.filter(game=game, hidden=False, pk__gt=after)
        .select_related("user")
        .order_by("pk")
    )


def chat_view(message: ChatMessage) -> ChatMessageView:
    """A message as the API and the socket send it (text as written: clients escape it)."""
    return {
        "id": message.pk,
        "seat": message.seat,
        "username": message.user.get_username(),
        "text": message.text,
        "at": selectors.iso(message.created_at),
    }
