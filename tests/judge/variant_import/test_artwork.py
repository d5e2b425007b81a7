"""The artwork's points kept to the map's places (judge/variant_import/artwork.py),
cases in data/artwork_points.toml."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge.variant_import.artwork import fill_units, own_codes
from judge.variant_import.board import Province, build_board
from judge.variant_import.chain import read_chain
from judge.variant_import.dpjudge_map import read_map
from judge.variant_import.importer import supply_centres

DATA = Path(__file__).parent / "data"
CASES: list[dict[str, Any]] = tomllib.loads(
    (DATA / "artwork_points.toml").read_text(encoding="utf-8"))["case"]


def _tiny() -> dict[str, Province]:
    dp = read_map(read_chain(DATA / "common" / "tiny.map"))
    return dict(build_board(dp, supply_centres(dp, [])).provinces)


@pytest.mark.parametrize("case", CASES, ids=[c["about"][:40] for c in CASES])
def test_points(case: dict[str, Any]) -> None:
    provinces = _tiny()
    locations = set(provinces) | {f"{p}/{c.code}" for p, v in provinces.items() for c in v.coasts}
    notes: list[Any] = []
    units = own_codes(case["units"], locations, case.get("spellings", {}), "t.ps", notes)
    missing = fill_units(units, case.get("centres", {}), provinces, "t.ps", notes)
    assert units == case["expect"]
    assert missing == case.get("missing", [])
    for text in case.get("notes", []):
        assert text in [n.text for n in notes]
