"""Where a Diplomap line's ends go and how a loop runs
(judge/maps/new_borders.py, judge/maps/loops.py), on shapes worked out by
hand: the judge chooses where along its borders a line runs, and how a
loop is drawn, so that the parts have room for their units and names."""

from __future__ import annotations

import numpy as np
from shapely import LineString, Point, Polygon
from shapely.ops import polylabel

from judge.maps.loops import APART, NECK, loop
from judge.maps.new_borders import best_ends, cut


def _room(part: Polygon) -> float:
    return float(part.exterior.distance(polylabel(part, 0.1)))


def test_a_line_between_two_borders_meeting_at_a_corner_leaves_no_sliver() -> None:
    """A 40 by 40 square, a line from its left side to its bottom side: from
    the sides' middles it cuts off a corner (its room 5.9); moved along the
    sides it cuts the square fairly, each part with room for a disc of 8."""
    square = Polygon([(0, 0), (40, 0), (40, 40), (0, 40)])
    starts = [(0.0, 20.0), *((0.0, float(y)) for y in np.linspace(8, 32, 5))]
    ends = [(20.0, 40.0), *((float(x), 40.0) for x in np.linspace(8, 32, 5))]

    def lack(one: Polygon, two: Polygon) -> float:
        return max(0.0, 10 - _room(one)) + max(0.0, 10 - _room(two))

    corner = cut(square, LineString([starts[0], ends[0]]), starts[0], ends[0])
    assert min(_room(p) for p in corner) < 6
    i, j = best_ends(square, starts, ends, lack)
    parts = cut(square, LineString([starts[i], ends[j]]), starts[i], ends[j])
    assert (i, j) != (0, 0)
    assert min(_room(p) for p in parts) >= 8


def test_a_loop_hangs_from_its_border_round_a_disc_with_room_for_a_unit() -> None:
    """An 80 by 60 rectangle, a loop on its bottom side about (40, 60),
    wanting room for a disc of 12 inside it: it starts and ends on that
    side, keeps off the other sides, holds the disc, and takes less of the
    province than the half-disc holding it would (radius 24)."""
    shape = Polygon([(0, 0), (80, 0), (80, 60), (0, 60)])
    bottom = LineString([(0, 60), (80, 60)])

    def lack(inner: Polygon, outer: Polygon) -> float:
        return max(0.0, 12 - _room(inner))

    line = loop(shape, (34.0, 60.0), (46.0, 60.0), (40.0, 60.0), 40.0, bottom, lack)
    a, b = Point(line.coords[0]), Point(line.coords[-1])
    assert bottom.distance(a) < 0.1 and bottom.distance(b) < 0.1 and a.distance(b) >= NECK
    others = LineString([(0, 60), (0, 0), (80, 0), (80, 60)])
    assert line.distance(others) >= APART
    one, two = cut(shape, line, (a.x, a.y), (b.x, b.y))
    inner = min(one, two, key=lambda p: p.area)
    assert _room(inner) >= 11.5
    assert inner.area < np.pi * 24**2 / 2
