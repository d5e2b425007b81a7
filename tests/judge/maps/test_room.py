"""The roomiest spot of a shape (judge/maps/room.py), against the cases of
data/room.toml worked out by hand."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from shapely import Point, Polygon

from judge.maps.room import roomiest

CASES = tomllib.loads((Path(__file__).parent / "data" / "room.toml").read_text("utf-8"))["case"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_the_roomiest_spot_is_furthest_from_the_outline_and_the_discs(
        case: dict[str, Any]) -> None:
    shape = Polygon(case["outline"])
    avoid = [tuple(d) for d in case["avoid"]]
    (x, y), room = roomiest(shape, avoid, case.get("keep", 0.0))
    assert room == pytest.approx(case["room"], abs=case["within"])
    if case.get("slide"):  # anywhere on the middle line with the same room will do
        assert y == pytest.approx(case["spot"][1], abs=case["within"])
        assert shape.exterior.distance(Point(x, y)) >= case["room"] - case["within"]
    elif case.get("corners"):  # the shape is a square: any corner's way is as good
        mx, my = (sum(c[k] for c in case["outline"]) / 4 for k in (0, 1))
        wx, wy = case["spot"]
        assert abs(x - mx) == pytest.approx(abs(wx - mx), abs=case["within"])
        assert abs(y - my) == pytest.approx(abs(wy - my), abs=case["within"])
    else:
        assert (x, y) == pytest.approx(tuple(case["spot"]), abs=case["within"])
    for dx, dy, radius in avoid:
        assert Point(x, y).distance(Point(dx, dy)) - radius >= room - 1e-9
    assert shape.exterior.distance(Point(x, y)) >= case.get("keep", 0.0) - 1e-9
