"""Text the site refuses to store or act on: NUL and unpaired surrogate characters, and JSON
nested deeper than any message of the contract."""

from __future__ import annotations

import re
from typing import Any

from core import limits
from core.errors import Invalid

# Decoded JSON joins surrogate pairs into one character, so any surrogate left is unpaired.
_REFUSED = re.compile("[\x00\ud800-\udfff]")


def has_refused_characters(text: str) -> bool:
    """True when `text` holds a NUL or an unpaired surrogate character."""
    return _REFUSED.search(text) is not None


def clean_text(text: str, *, field: str) -> str:
    """`text` itself; raises Invalid when it holds a NUL or an unpaired surrogate."""
    if has_refused_characters(text):
        raise Invalid(
            f"'{field}' holds a NUL or an unpaired surrogate character.",
            fields={field: ["refused character"]},
        )
    return text


def json_problem(value: Any, max_depth: int = limits.JSON_MAX_DEPTH) -> str | None:
    """Why a decoded JSON value is refused (too deep, or refused characters in a string or a
    key), or None when it is fine. Walks without recursion, so any depth is safe."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if has_refused_characters(item):
                return "Text holds a NUL or an unpaired surrogate character."
        elif isinstance(item, dict | list):
            if depth >= max_depth:
                return f"JSON is nested more than {max_depth} levels deep."
            if isinstance(item, dict):
                pending.extend((key, depth) for key in item)
                item = item.values()
            pending.extend((child, depth + 1) for child in item)
    return None
