"""The sample Draw and Erase of a start mail (engine/diplomap/sample_orders.py),
read from data/sample_orders.toml: each the one expected, and each
succeeding when adjudicated alone from the opening position."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.diplomap.sample_orders import sample_orders
from engine.diplomap.values import MapOrder
from engine.game import adjudicate
from engine.ways_to_play import setup
from tests.engine.diplomap.runner import diplomap_standard

CASES = tomllib.loads((Path(__file__).parent / "data" / "sample_orders.toml")
                      .read_text(encoding="utf-8"))["case"]
MAP = diplomap_standard()
OPENING = setup(MAP, 7)


@pytest.mark.parametrize("case", CASES, ids=[c.get("about", c["powers"][0]) for c in CASES])
def test_the_sample_map_orders(case: dict[str, Any]) -> None:
    occupied = {u.province for u in OPENING.units}
    draw, erase = sample_orders(MAP, case["powers"], occupied)
    assert (str(draw), str(erase)) == (case["draw"], case["erase"])
    for order in (draw, erase):
        assert order is not None
        assert _succeeds(case["powers"][0], order), order


def _succeeds(power: str, order: MapOrder) -> bool:
    resolution = adjudicate(MAP, OPENING, {}, map_orders={power: [order]})
    (fate,) = resolution.facts("map_results")
    return bool(fate.succeeded)


def test_a_power_without_home_provinces_has_no_sample() -> None:
    assert sample_orders(MAP, ["NOBODY"]) == (None, None)
