"""A mail's closing after its orders (parser/closing.py): vectors in
data/closing.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.variant_file import load_variant
from parser.closing import closing_start

CASES = tomllib.loads((Path(__file__).parent / "data" / "closing.toml").read_text())["case"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_closing_start(case: dict[str, Any]) -> None:
    lines = list(enumerate(case["lines"], start=1))
    got = closing_start(lines, load_variant(case["variant"]), case.get("after_orders", False))
    assert (0 if got is None else got + 1) == case["start"]
