"""Where a Diplomap part's new name goes (judge/maps/new_names.py): inside
its part off its borders and clear of what is drawn, else beside it with a
leader line into it; the cases of data/new_names.toml, worked out by hand."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from shapely import LineString, Point, Polygon, box

from judge.maps.new_names import (
    LEADER_INSET,
    MARGIN,
    Surroundings,
    Wanted,
    name_box,
    place_names,
)

DATA = Path(__file__).parent / "data" / "new_names.toml"
CASES = tomllib.loads(DATA.read_text("utf-8"))["case"]
SIZE = 6.0


def _area(outline: list[list[float]]) -> Polygon:
    """An outline; one that comes back to its first point and goes on is
    an outline with a hole (the rest of the points)."""
    points = [tuple(p) for p in outline]
    if points[0] in points[1:-1]:
        end = points.index(points[0], 1)
        return Polygon(points[:end], [points[end + 1:]])
    return Polygon(points)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_a_new_name_goes_inside_its_part_or_beside_it_with_a_leader(case: dict[str, Any]) -> None:
    areas = {code: _area(outline) for code, outline in case["areas"].items()}
    drawn = {kind: [tuple(b) for b in case.get(kind, [])] for kind in ("units", "centres")}
    around = Surroundings(areas, drawn["units"], [], drawn["centres"], size=SIZE)
    code, part = case["part"], areas[case["part"]]
    want = Wanted(part, tuple(case["want"]), case["bold"], kin=frozenset(case.get("kin", [])))
    placed = place_names({code: want}, around)[code]
    written = box(*name_box(code, *placed.at, SIZE, case["bold"]))
    assert not any(written.intersects(box(*b)) for b in drawn["units"] + drawn["centres"])
    if "at" in case:
        assert placed.at == pytest.approx(tuple(case["at"]), abs=0.01)
    if case["expect"] == "inside":
        assert placed.leader is None
        assert part.buffer(-MARGIN + 0.01).contains(written)
        return
    assert placed.leader is not None
    start, end = placed.leader
    home = areas[case["home"]]
    assert home.buffer(-MARGIN + 0.01).contains(written)
    assert part.buffer(-LEADER_INSET + 0.01).contains(Point(end))
    assert written.distance(Point(start)) < 1.0
    leader = LineString([start, end])
    assert not any(leader.intersects(box(*b)) for b in drawn["units"] + drawn["centres"])
