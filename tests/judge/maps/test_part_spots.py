"""Where a Diplomap part's unit and centre marker stand
(judge/maps/part_spots.py), on shapes worked out by hand. The board's
sizes: units 13 points high, names 6 (judge/maps/board.py)."""

from __future__ import annotations

import math

from shapely import Point, Polygon, box

from judge.maps.labels import ASCENT, DESCENT, UNIT_REACH
from judge.maps.part_spots import (
    CENTRE_KEEP,
    CENTRE_ROOM,
    NAME_MARGIN,
    UNIT_ROOM,
    centre_spot,
    name_below,
    unit_and_centre,
    unit_spot,
)

UNIT, LABEL, WIDTH = 13.0, 6.0, 20.0


def test_a_unit_stands_where_its_name_fits_under_it() -> None:
    """A 40 by 26 rectangle: at its pole (20, 13) the name under the unit
    would cross the bottom border; the unit (reaching 10.66 up) and its name
    (down to 12.5 below the unit) fit between y = 11.46 and 12.7."""
    part = Polygon([(0, 0), (40, 0), (40, 26), (0, 26)])
    x, y = unit_spot(part, None, UNIT, LABEL, WIDTH)
    assert 0.8 + UNIT * UNIT_REACH[1] - 0.01 <= y <= 12.7 + 0.01
    assert abs(x - 20) <= 1.0
    nx, ny = name_below((x, y), UNIT, LABEL)
    name = box(nx - WIDTH / 2, ny - LABEL * ASCENT, nx + WIDTH / 2, ny + LABEL * DESCENT)
    assert part.buffer(-NAME_MARGIN + 0.01).contains(name)


def test_a_unit_keeps_its_spot_when_it_and_its_name_fit_there() -> None:
    part = Polygon([(0, 0), (100, 0), (100, 60), (0, 60)])
    assert unit_spot(part, (30.0, 20.0), UNIT, LABEL, WIDTH) == (30.0, 20.0)


def test_a_centre_marker_keeps_off_its_borders_before_it_keeps_off_the_unit() -> None:
    """A 40 by 12 rectangle with its unit in the middle: the marker keeps
    its radius and a margin off the outline, then goes as far from the
    unit as that allows (an end of the rectangle)."""
    part = Polygon([(0, 0), (40, 0), (40, 12), (0, 12)])
    spot = centre_spot(part, (20.0, 6.0), (20.0, 6.0), UNIT)
    keep = UNIT * CENTRE_ROOM + CENTRE_KEEP
    assert part.exterior.distance(Point(spot)) >= keep - 0.01
    assert math.dist(spot, (20.0, 6.0)) >= 20 - keep - 0.5


def test_a_unit_moves_over_to_leave_its_centre_marker_room() -> None:
    """A 30 by 16 part: the marker cannot stand clear of a unit at the
    pole (10.7 apart at best); the unit moves towards one end, its army's
    disc still inside, till the two stand a unit's reach and the marker's
    radius apart (16.25)."""
    part = Polygon([(0, 0), (30, 0), (30, 16), (0, 16)])
    unit, centre = unit_and_centre(part, (15.0, 8.0), (15.0, 8.0), UNIT, LABEL, WIDTH,
                                   (0.55, -0.55))
    assert math.dist(unit, centre) >= UNIT * (UNIT_ROOM + CENTRE_ROOM)
    assert part.exterior.distance(Point(unit)) >= UNIT * 0.5
    assert part.exterior.distance(Point(centre)) >= UNIT * CENTRE_ROOM


def test_a_unit_keeps_off_a_neighbours_name() -> None:
    """A 100 by 60 rectangle whose unit stood at (50, 30), where a
    neighbour's name (written at the base board's place, which a split does
    not move) now lies: the unit and its name go elsewhere, clear of it."""
    part = Polygon([(0, 0), (100, 0), (100, 60), (0, 60)])
    written = (40.0, 20.0, 60.0, 40.0)
    x, y = unit_spot(part, (50.0, 30.0), UNIT, LABEL, WIDTH, [written])
    left, up, right, _ = (r * UNIT for r in UNIT_REACH)
    nx, ny = name_below((x, y), UNIT, LABEL)
    unit_and_name = box(min(x - left, nx - WIDTH / 2), y - up, max(x + right, nx + WIDTH / 2),
                        ny + LABEL * DESCENT)
    assert not unit_and_name.intersects(box(*written))


def test_a_unit_without_room_for_its_name_still_keeps_off_a_neighbours_name() -> None:
    """A 40 by 26 rectangle: the unit fits, its name (50 wide) under it does
    not; a neighbour's name lies over its left third: the unit stands right."""
    part = Polygon([(0, 0), (40, 0), (40, 26), (0, 26)])
    written = (0.0, 0.0, 14.0, 26.0)
    x, y = unit_spot(part, (7.0, 13.0), UNIT, LABEL, 50.0, [written])
    left, up, right, down = (r * UNIT for r in UNIT_REACH)
    assert not box(x - left, y - up, x + right, y + down).intersects(box(*written))
