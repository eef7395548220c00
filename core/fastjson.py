"""JSON text by orjson, for the paths every move takes (socket frames, event rows, the game
row): the same text the json module writes, at a fraction of its cost."""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(value: Any) -> str:
    """`value` as JSON text; dict keys that are numbers become strings, as json.dumps makes
    them. What orjson refuses (a lone surrogate) the json module escapes."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value)


def loads(text: str | bytes) -> Any:
    """The value of JSON text."""
    return orjson.loads(text)
