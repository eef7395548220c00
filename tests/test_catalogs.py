"""Every translation catalog is complete: no fuzzy or empty entry in any language, Python or
JavaScript, and every translation keeps its placeholders (a lost %(name)s breaks the page)."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parents[1] / "locale"
CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


@dataclass
class Entry:
    fields: dict[str, str] = field(default_factory=dict)
    fuzzy: bool = False
    obsolete: bool = False


def entries(path: Path) -> list[Entry]:
    """The catalog's entries (the header, msgid "", left out)."""
    found: list[Entry] = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry = Entry()
        key = None
        for line in block.strip().splitlines():
            if line.startswith("#~"):
                entry.obsolete = True
            elif line.startswith("#,") and "fuzzy" in line:
                entry.fuzzy = True
            elif re.match(r"^(msgid|msgstr|msgctxt|msgid_plural|msgstr\[\d+\]) ", line):
                key, _, literal = line.partition(" ")
                entry.fields[key] = ast.literal_eval(literal)
            elif line.startswith('"') and key is not None:
                entry.fields[key] += ast.literal_eval(line)
        if entry.fields.get("msgid") and not entry.obsolete:
            found.append(entry)
    return found


def translations(entry: Entry) -> list[str]:
    return [value for key, value in entry.fields.items() if key.startswith("msgstr")]


def test_every_language_has_both_catalogs() -> None:
    languages = {path.parts[-3] for path in CATALOGS}
    assert languages >= {"es", "cs", "hr"}
    for language in languages:
        for domain in ("django", "djangojs"):
            po = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
            assert po.exists() and po.with_suffix(".mo").exists(), po


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_no_fuzzy_or_empty_entry(path: Path) -> None:
    found = entries(path)
    assert found, f"{path} has no entries"
    fuzzy = [e.fields["msgid"] for e in found if e.fuzzy]
    empty = [e.fields["msgid"] for e in found if not all(translations(e))]
    assert not fuzzy, f"{path}: fuzzy entries {fuzzy}"
    assert not empty, f"{path}: untranslated entries {empty}"


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parts[-3]}/{p.name}")
def test_translations_keep_their_placeholders(path: Path) -> None:
    for entry in entries(path):
        wanted = set(PLACEHOLDER.findall(entry.fields["msgid"]))
        for text in translations(entry):
            assert set(PLACEHOLDER.findall(text)) == wanted, (path, entry.fields["msgid"], text)


def test_a_fuzzy_entry_is_caught(tmp_path: Path) -> None:
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n\n#, fuzzy\nmsgid "Lobby"\nmsgstr "Lobi"\n\nmsgid "Bid"\nmsgstr ""\n'
    )
    found = entries(po)
    assert [e.fuzzy for e in found] == [True, False]
    assert translations(found[1]) == [""]
