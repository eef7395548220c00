"""The API's JSON parser: a malformed body is a ParseError (400 `invalid`), never a 500."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from core.text import json_problem


class SafeJSONParser(JSONParser):
    """DRF's JSONParser, refusing JSON nested too deep and NUL or unpaired surrogates in text."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deep.") from None
        problem = json_problem(data)
        if problem is not None:
            raise ParseError(f"JSON parse error - {problem}")
        return data
