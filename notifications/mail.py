"""Turn mails (and a tournament's new table) in the player's language, each with a signed
one-click unsubscribe link."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.models import Game
from notifications import metrics, services

UNSUBSCRIBE_SALT = "notifications.unsubscribe.email_turns"


def unsubscribe_token(user_id: int) -> str:
    """A signed token naming the player whose turn mails one click turns off (no expiry: a
    mail's link works for as long as the mail is kept)."""
    return signing.dumps(user_id, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_user_id(token: str) -> int | None:
    """The player a token names, or None if it was not signed by this site."""
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def language_of(user: User) -> str:
    """The language the player last used on the site, else the site's default."""
    stored = services.settings_of(user).language
    known = {code for code, _ in settings.LANGUAGES}
    return stored if stored in known else settings.LANGUAGE_CODE


def table_mail(user: User, game: Game, *, address: str, tournament: str) -> None:
    """Tell the player at `address` that their next table of `tournament` has started."""
    context = {
        "username": user.get_username(),
        "game_id": game.pk,
        "tournament": tournament,
        "table_url": absolute(reverse("table", args=[game.pk])),
    }
    _send(user, "table", context, address)


def turn_mail(user: User, game: Game, *, address: str, reminder: bool) -> None:
    """Tell the player at `address` (one they verified: `accounts.selectors.mail_address_of`)
    that a decision at `game` is theirs (or, `reminder`, that an hour is left)."""
    context = {
        "username": user.get_username(),
        "game_id": game.pk,
        "deadline": game.deadline,
        "table_url": absolute(reverse("table", args=[game.pk])),
        "reminder": reminder,
    }
    _send(user, "turn", context, address)


def _send(user: User, kind: str, context: dict[str, object], address: str) -> None:
    """The mail `notifications/<kind>_subject.txt` and `_email.txt` in the player's language,
    with the one-click unsubscribe of turn mails."""
    unsubscribe = absolute(reverse("notifications-unsubscribe", args=[unsubscribe_token(user.pk)]))
    context = {**context, "unsubscribe_url": unsubscribe}
    with translation.override(language_of(user)):
        subject = render_to_string(f"notifications/{kind}_subject.txt", context)
        body = render_to_string(f"notifications/{kind}_email.txt", context)
    EmailMessage(
        subject=" ".join(subject.split()),
        body=body,
        to=[address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",  # RFC 8058
        },
    ).send()
    metrics.notice_sent("mail")
