"""Walking every registered admin: its models, the field paths from them to named fields
(through relations), and the filters on those paths it answers instead of refusing."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.db.models import Model
from django.test import Client
from django.urls import reverse

LOOKUPS = ("startswith", "icontains", "regex", "exact", "gt")

Names = Mapping[str, frozenset[str]]  # field names by model label


def registered() -> list[type[Model]]:
    return [model for model in apps.get_models() if admin.site.is_registered(model)]


def changelist(model: type[Model]) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def change_page(model: type[Model], pk: object) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[pk])


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _label(model: type[Model]) -> str:
    return model._meta.concrete_model._meta.label_lower  # type: ignore[union-attr]


def paths_to(
    model: type[Model],
    names: Names,
    hops: int = 2,
    prefix: str = "",
    seen: frozenset[type[Model]] = frozenset(),
) -> Iterator[str]:
    """Every field path from `model`, through at most `hops` relations to models not yet on
    the path, that reads one of `names`: the field itself, or a relation compared by such a
    key (`auth_token`)."""
    seen = seen | {model}
    for field in model._meta.get_fields():
        path = prefix + field.name
        if field.name in names.get(_label(model), ()):
            yield path
        related = field.related_model
        if related is None or isinstance(related, str):
            continue
        if related._meta.pk.name in names.get(_label(related), ()):  # type: ignore[union-attr]
            yield path
        if hops and related not in seen:
            yield from paths_to(related, names, hops - 1, f"{path}__", seen)


def answered_lookups(client: Client, names: Names) -> tuple[int, list[tuple[str, str, int]]]:
    """How many filters were tried (each path to `names` from each registered admin, with
    each of LOOKUPS), and those answered otherwise than with 400 (or 403: a model the client
    may not view at all)."""
    tried = 0
    answered = []
    for model in registered():
        for path in sorted(set(paths_to(model, names))):
            for lookup in LOOKUPS:
                tried += 1
                response = client.get(changelist(model), {f"{path}__{lookup}": "x"})
                if response.status_code not in (400, 403):
                    answered.append((model._meta.label, f"{path}__{lookup}", response.status_code))
    return tried, answered
