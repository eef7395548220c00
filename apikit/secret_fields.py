"""The fields no admin page may filter, search, sort, list or show, named once (and e-mail
addresses, which only superusers may).

A filter is an oracle: `?seed__startswith=a` answers "is the seed's first character a?", so a
value shown nowhere can still be read a character at a time. A path reaches a field through
any relation (`game__seed`, `created_games__state`, `auth_token` for a token's key).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.db.models.constants import LOOKUP_SEP

# By model label (a proxy counts as its concrete model).
SECRET: Mapping[str, frozenset[str]] = {
    # A game's shuffle seed, its state (every hand, the undealt deck) and its deal rows.
    "games.game": frozenset({"seed", "state", "invite_code"}),
    "games.event": frozenset({"payload"}),
    "tournaments.tournament": frozenset({"invite_code"}),
    # Credentials: a password hash, API tokens, sessions, push subscriptions and devices.
    "auth.user": frozenset({"password"}),
    "authtoken.token": frozenset({"key"}),
    "sessions.session": frozenset({"session_key", "session_data"}),
    "notifications.pushsubscription": frozenset({"endpoint", "p256dh", "auth"}),
    "notifications.device": frozenset({"token"}),
    "axes.accesslog": frozenset({"session_hash"}),
}
# Django's user form shows only a masked summary of the hash (and the link to set a new
# password): it stays on the form, while filtering by the hash is refused like any secret.
SHOWN_MASKED: Mapping[str, frozenset[str]] = {"auth.user": frozenset({"password"})}

# Players' e-mail addresses: superusers only.
SUPERUSER_ONLY: Mapping[str, frozenset[str]] = {
    "auth.user": frozenset({"email"}),
    "accounts.verifiedemail": frozenset({"email"}),
}

AnyUser = AbstractBaseUser | AnonymousUser


def _label(model: type[Model]) -> str:
    return model._meta.concrete_model._meta.label_lower  # type: ignore[union-attr]


def refused(model: type[Model], name: str, user: AnyUser) -> bool:
    """Whether `user` may not see or filter by the field `name` of `model` itself."""
    label = _label(model)
    if name in SECRET.get(label, ()):
        return True
    return name in SUPERUSER_ONLY.get(label, ()) and not getattr(user, "is_superuser", False)


def reaches_refused(model: type[Model], path: str, user: AnyUser) -> bool:
    """Whether the lookup or field path `path` (`game__seed__startswith`) from `model` reads
    a field `user` may not see. A relation compared as a value compares its target's key."""
    through_relation = False
    for part in path.split(LOOKUP_SEP):
        name = model._meta.pk.name if part == "pk" else part
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            break  # a lookup or a transform of what came before it
        if refused(model, field.name, user):
            return True
        if field.related_model is None:
            return False
        model = field.related_model
        through_relation = True
    # Ending on a relation (`auth_token`, `auth_token__startswith`) compares the related key.
    return through_relation and refused(model, model._meta.pk.name, user)


def shown_names(
    model: type[Model], names: Iterable[str], user: AnyUser, *, on_form: bool = False
) -> list[str]:
    """`names` (field paths, `^`/`=`/`@` search prefixes allowed) without those refused."""
    masked = SHOWN_MASKED.get(_label(model), frozenset()) if on_form else frozenset()
    return [
        name
        for name in names
        if name in masked or not reaches_refused(model, name.lstrip("^=@"), user)
    ]
