"""Real-world order spellings (spellings.toml) read on the standard map."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.map import GameMap
from engine.variant_file import load_variant
from parser import OrderError, parse_order

DATA = tomllib.loads((Path(__file__).parent / "spellings.toml").read_text(encoding="utf-8"))
SPELLINGS = [
    pytest.param(text, expected, id=f"{group['style'][:12]}: {text}")
    for group in DATA["spelling"]
    for text, expected in group["cases"]
]
BAD: list[dict[str, Any]] = DATA["bad"]["cases"]


@pytest.fixture(scope="module")
def standard() -> GameMap:
    return load_variant("standard")


def test_enough_spellings() -> None:
    assert len(SPELLINGS) >= 80
    assert len({p.values[0] for p in SPELLINGS}) == len(SPELLINGS), "duplicate spellings"


@pytest.mark.parametrize(("text", "expected"), SPELLINGS)
def test_spelling(standard: GameMap, text: str, expected: str) -> None:
    result = parse_order(text, standard)
    assert not isinstance(result, OrderError), str(result)
    assert str(result) == expected


@pytest.mark.parametrize("case", BAD, ids=[c["text"] for c in BAD])
def test_bad_input(standard: GameMap, case: dict[str, Any]) -> None:
    result = parse_order(case["text"], standard, line=7)
    assert isinstance(result, OrderError), f"parsed as {result}"
    assert result.line == 7
    assert result.word == case["word"]
    assert result.suggestion == (case["suggestion"] or None)
    assert result.source == case["text"].strip()
    if result.word:
        column = result.column - 1
        assert case["text"][column : column + len(result.word)] == result.word
    text = str(result)
    assert text.startswith("line 7: ")
    assert "\n" not in text
    if result.suggestion:
        assert text.endswith(f"(did you mean {result.suggestion}?)")
