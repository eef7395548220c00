"""Checks shared by the tests of the literal SQL (games/sql.py): a literal
column list is its model's, a literal SELECT lists what the code slices, an instance made from
a row holds what the ORM's holds."""

from __future__ import annotations

import re
from typing import Any

from django.db.models import (
    BooleanField,
    CharField,
    DateField,
    DateTimeField,
    ForeignKey,
    IntegerField,
    JSONField,
    Model,
    TextField,
)

from games.sql import ModelRow

# Column types whose values both drivers give as the model holds them (games/sql.py).
AS_GIVEN = (IntegerField, CharField, TextField, BooleanField, ForeignKey)


def assert_model_row(row: ModelRow[Any]) -> None:
    """The row lists the model's concrete columns in the model's order, names its datetime and
    JSON columns, and the model has no column of a type it does not convert."""
    fields = row.model._meta.concrete_fields
    assert list(row.columns) == [field.column for field in fields]
    assert list(row.columns) == [field.attname for field in fields]  # Model.from_db's names
    moments = [f.column for f in fields if isinstance(f, DateTimeField)]
    documents = [f.column for f in fields if isinstance(f, JSONField)]
    assert sorted(row.moments) == sorted(moments)
    assert sorted(row.documents) == sorted(documents)
    unconverted = [
        f.column
        for f in fields
        if not isinstance(f, DateTimeField | JSONField)
        and (isinstance(f, DateField) or not isinstance(f, AS_GIVEN))
    ]
    assert unconverted == [], "a column type accounts/sql.py does not convert"


def selected(statement: str) -> list[tuple[str, list[str]]]:
    """A literal SELECT's columns, table alias by table alias, in order."""
    select_list = re.split(r"\bFROM\b", statement)[0]
    found: list[tuple[str, list[str]]] = []
    for alias, column in re.findall(r"\b(\w+)\.(\w+)\b", select_list):
        if not found or found[-1][0] != alias:
            found.append((alias, []))
        found[-1][1].append(column)
    return found


def loaded(instance: Model) -> list[tuple[str, type, object]]:
    """Every concrete field's value of an instance, with its type (a naive datetime, a 0 for
    False or a JSON text would differ from the ORM's)."""
    values = [(f.attname, getattr(instance, f.attname)) for f in instance._meta.concrete_fields]
    return [(name, type(value), value) for name, value in values]
