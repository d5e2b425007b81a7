"""What `judge variant check` reports for a broken copy of a variant file:
the cases of data/variant_check_breaks.toml, each a slip a GM could make
transcribing a location index, with every problem expected exactly."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.variant_file import VariantError, parse_variant

DATA = Path(__file__).parent / "data" / "variant_check_breaks.toml"
VARIANTS = Path(__file__).parents[2] / "engine" / "variants"
CASES = tomllib.loads(DATA.read_text(encoding="utf-8"))["cases"]


def broken(case: dict[str, Any]) -> str:
    text = (VARIANTS / f"{case['base']}.toml").read_text(encoding="utf-8")
    for old, new in case["replace"]:
        assert old in text, (case["name"], old)
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_check_reports_exactly_the_problem(case: dict[str, Any]) -> None:
    try:
        parse_variant(broken(case), f"{case['base']}.toml")
        found: list[str] = []
    except VariantError as error:
        found = [f"{p.where}: {p.message}" for p in error.problems]
        # every problem inside a table points at its line; one of a table
        # that is missing altogether ("provinces: ... has no table") cannot
        assert all(p.line is not None for p in error.problems if "." in p.where), \
            error.problems
    assert found == case["problems"]
