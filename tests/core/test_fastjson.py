"""core.fastjson writes what json.dumps would have, so a socket frame or an event row reads
back the same whichever wrote it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from core import fastjson

SAMPLES: list[Any] = [
    {"seq": 7, "hands": {"1": ["W", "B12"], "2": []}, "auto": False, "bid": None},
    {0: "seat keys that are numbers", 12: [1.5, -3]},
    ["Zauberer", "čarobnjak", "mago", "🃏"],
]


@pytest.mark.parametrize("value", SAMPLES)
def test_dumps_reads_back_as_json_dumps_does(value: Any) -> None:
    assert json.loads(fastjson.dumps(value)) == json.loads(json.dumps(value))
    assert fastjson.loads(fastjson.dumps(value)) == json.loads(json.dumps(value))


def test_a_lone_surrogate_is_escaped_not_refused() -> None:
    text = fastjson.dumps({"name": "\ud800"})
    assert text == json.dumps({"name": "\ud800"}) and json.loads(text) == {"name": "\ud800"}


def test_loads_takes_bytes_and_text() -> None:
    assert fastjson.loads(b'{"a": [1]}') == fastjson.loads('{"a": [1]}') == {"a": [1]}
