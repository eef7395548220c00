"""Table chat: players write, moderators hide (kept for review). Reads are in selectors."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from accounts.standing import ensure_can_play
from core import limits
from core.errors import Invalid, NotAPlayer, NotFound, RateLimited
from core.text import clean_text
from games import chat_presets, push, selectors
from games.models import ChatMessage


def chat_post(
    *, game_id: int, user: User, text: object = None, preset: object = None
) -> ChatMessage:
    """A player's message to their table, within the length and flood limits: their own
    `text` or one of the `preset` phrases (games.chat_presets)."""
    ensure_can_play(user)
    text, preset = _message(text, preset)
    game = selectors.game_get(game_id)
    seats = selectors.seats_of(game)
    seat = selectors.seat_of(seats, user)
    if seat is None:
        raise NotAPlayer("Only the players of this table can write in its chat.")
    with transaction.atomic():
        # The writer's row is locked while counting, so parallel posts cannot all pass.
        User.objects.select_for_update().filter(pk=user.pk).values_list("pk").get()
        since = timezone.now() - limits.CHAT_RATE_WINDOW
        if (
            ChatMessage.objects.filter(user=user, created_at__gte=since).count()
            >= limits.CHAT_RATE_COUNT
        ):
            seconds = int(limits.CHAT_RATE_WINDOW.total_seconds())
            raise RateLimited(
                f"At most {limits.CHAT_RATE_COUNT} messages in {seconds} seconds: wait a moment.",
                retry_after=seconds,
            )
        message = ChatMessage.objects.create(
            game=game, user=user, seat=seat, text=text, preset=preset
        )
        shown = selectors.chat_view(message)
        groups = push.players_of(seats, game_id)  # the chat is the players' alone
        transaction.on_commit(
            lambda: push.send_many(
                [(group, {"type": "chat.message", "message": shown}) for group in groups]
            )
        )
    return message


def _message(text: object, preset: object) -> tuple[str, str]:
    """The text to store and the preset's key ("" for free text); exactly one is given."""
    if (text is None) == (preset is None):
        raise Invalid("Send either 'text' or 'preset'.", fields={"text": ["text or preset"]})
    if preset is not None:
        if not isinstance(preset, str) or preset not in chat_presets.PRESETS:
            keys = ", ".join(chat_presets.PRESETS)
            raise Invalid(f"'preset' is one of {keys}.", fields={"preset": ["unknown preset"]})
        return chat_presets.text_of(preset, "en"), preset
    if not isinstance(text, str):
        raise Invalid("'text' must be a string.", fields={"text": ["not a string"]})
    text = clean_text(text, field="text").strip()
    length = f"1 to {limits.CHAT_MAX_LENGTH}"
    if not 1 <= len(text) <= limits.CHAT_MAX_LENGTH:
        raise Invalid(f"A message has {length} characters.", fields={"text": [length]})
    return text, ""


def chat_hide(*, message_id: int, moderator: User) -> ChatMessage:
    """Hide a message for everyone at once; it stays stored for review."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise NotFound(f"There is no message {message_id}.")
        if not message.hidden:
            message.hidden = True
            message.hidden_at = timezone.now()
            message.hidden_by = moderator
            message.save(update_fields=["hidden", "hidden_at", "hidden_by"])
            groups = push.players_of(list(message.game.seat_set.all()), message.game_id)
            transaction.on_commit(
                lambda: push.send_many(
                    [(group, {"type": "chat.hidden", "id": message_id}) for group in groups]
                )
            )
    return message
