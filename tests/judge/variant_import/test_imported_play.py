"""Maps imported from DPJudge's own files played as DPJudge's map page says
(data/imported_play.toml): the weak straits and the Arctic of loeb9.map,
the Cape of Good Hope of 1900.map."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.map import GameMap
from engine.variant_file import parse_variant
from judge.variant_import.importer import import_map
from judge.variant_import.ship import SOURCES
from tests.engine.case_runner import run_case

CASES = tomllib.loads((Path(__file__).parent / "data" / "imported_play.toml")
                      .read_text(encoding="utf-8"))["case"]


@cache
def _imported(name: str) -> GameMap:
    result = import_map(SOURCES / name)
    assert result.text is not None, result.refusal
    return parse_variant(result.text, name)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_imported_map_plays(case: dict[str, Any]) -> None:
    run_case(case, _imported(case["map"]))
