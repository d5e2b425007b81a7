"""The roomiest spot of a shape, and the spot with room nearest one wanted
(judge/maps/room.py), against the cases of data/room.toml worked out by hand."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from shapely import LineString, Point, Polygon, unary_union

from judge.maps.room import room_near, roomiest

DATA = tomllib.loads((Path(__file__).parent / "data" / "room.toml").read_text("utf-8"))
CASES = DATA["case"]


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


@pytest.mark.parametrize("case", DATA["near"], ids=lambda c: c["name"])
def test_the_spot_with_room_nearest_the_one_wanted(case: dict[str, Any]) -> None:
    avoid = unary_union([Point(x, y).buffer(r, 64) for x, y, r in case.get("avoid", [])])
    walls = LineString(case["walls"]) if "walls" in case else None
    (x, y), room = room_near(Polygon(case["outline"]), tuple(case["want"]), case["reach"],
                             case["search"], margin=case.get("margin", 0.0), walls=walls,
                             avoid=None if avoid.is_empty else avoid)
    assert room == pytest.approx(case["room"], abs=case["within"])
    wx, wy = case["spot"]
    if case.get("mirror"):  # either side of the spot wanted is as near
        wx = wx if abs(x - wx) < abs(x - (2 * case["want"][0] - wx)) else 2 * case["want"][0] - wx
    assert (x, y) == pytest.approx((wx, wy), abs=case["within"])
