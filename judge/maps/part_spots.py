"""Where the unit and the centre marker of a Diplomap part stand on a
redrawn board (judge/maps/redrawn.py), and how far a part falls short of
room for them (judge/maps/new_borders.py draws each line to leave both
parts as little short as it can).

A part's unit stands where it and its name under it fit inside the part
off its borders, nearest the part's pole of inaccessibility (room.py), so
that the name is written where the base map writes names, under the unit;
where the part is too small for both, at the pole. The centre marker
keeps off the part's borders first (it is always drawn, a unit not
always), then as far from the unit and its name as the part allows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from judge.maps.labels import ASCENT, DESCENT, DISLODGED_REACH, UNIT_REACH, Box
from judge.maps.room import Disc, roomiest

Pt = tuple[float, float]

# in unit sizes: how far a unit reaches round its point (UNIT_REACH's widest)
# with a little room, and a centre marker's radius with its ring
UNIT_ROOM = 0.95
CENTRE_ROOM = 0.3
CENTRE_REACH = 0.26 + 0.03  # a centre marker's radius and outline, and a little
MARGIN = 1.5  # points a marker keeps off its part's borders beyond its own reach
CENTRE_KEEP = 0.8  # points a centre marker keeps off them at least (1.3 px: the check asks 1)
SLIVER_WEIGHT = 4.0  # a part's lack of room for a centre marker alone, against other lacks
NAME_MARGIN = 0.8  # points a unit's name under it keeps off the part's borders
NAME_GAP = 0.6  # points between a unit's reach and the top of its name under it
GRID = 1.0  # points between the spots tried for a unit and its name, at least
GRID_CELLS = 40  # and at most this many across a part
CHUNK = 256  # spots tried at a time, nearest the pole first
ARMY_ROOM = 0.5 + 0.06  # unit sizes an army's disc keeps off its part's borders, outline and all
MOVES = 30  # spots a unit is tried at, across its part, to leave its centre marker room
MOVE_GAIN = 1.0  # points further apart a move must put the unit and the centre


def name_below(unit: Pt, unit_size: float, label_size: float) -> Pt:
    """Where a unit's name is written under it (its baseline's middle)."""
    return unit[0], unit[1] + unit_size * UNIT_REACH[3] + NAME_GAP + label_size * ASCENT


def unit_spot(part: BaseGeometry, old: Pt | None, unit_size: float, label_size: float,
              name_width: float, names: Sequence[Box] = ()) -> Pt:
    """Where a part's unit stands: where it stood, if it and its name under
    it fit there clear of the other provinces' ``names``; else where they
    fit nearest the part's pole; else where the unit alone fits clear of
    those names (its name goes beside, judge/maps/new_names.py); else where
    it stood if the unit alone fits there; else at the pole."""
    left, up, right, down = (r * unit_size for r in UNIT_REACH)
    _, below = name_below((0.0, 0.0), unit_size, label_size)
    half = max(left, right, name_width / 2)
    room = part.buffer(-NAME_MARGIN)
    if room.is_empty:
        return roomiest(part)[0]
    shapely.prepare(room)
    written = shapely.union_all([shapely.box(*b) for b in names]) if names else None
    pole, _ = roomiest(part)
    for block in ((-half, -up, half, below + label_size * DESCENT), (-left, -up, right, down)):
        found = _first_fit(room, block, pole, old, written)
        if found is not None:
            return found
    if old is not None and part.buffer(-unit_size * UNIT_ROOM).contains(Point(old)):
        return old
    return pole


def _first_fit(room: BaseGeometry, block: Box, pole: Pt, old: Pt | None,
               written: BaseGeometry | None) -> Pt | None:
    """The first spot, where the unit stood then round the pole nearest
    first, where ``block`` round it lies in ``room`` clear of ``written``."""
    x0, y0, x1, y1 = room.bounds
    step = max(GRID, math.sqrt(room.area) / GRID_CELLS)
    xs, ys = np.meshgrid(np.arange(x0 - block[0], x1 - block[2] + step / 2, step),
                         np.arange(y0 - block[1], y1 - block[3] + step / 2, step))
    xs, ys = xs.ravel(), ys.ravel()
    order = np.argsort(np.hypot(xs - pole[0], ys - pole[1]), kind="stable")
    xs, ys = xs[order], ys[order]
    if old is not None:
        xs, ys = np.concatenate([[old[0]], xs]), np.concatenate([[old[1]], ys])
    for start in range(0, len(xs), CHUNK):
        x, y = xs[start:start + CHUNK], ys[start:start + CHUNK]
        boxes = shapely.box(x + block[0], y + block[1], x + block[2], y + block[3])
        inside = shapely.contains(room, boxes)
        if written is not None:  # a unit on another province's name hides it
            inside &= ~shapely.intersects(written, boxes)
        fits = np.nonzero(inside)[0]
        if len(fits):
            return float(x[fits[0]]), float(y[fits[0]])
    return None


def centre_spot(part: BaseGeometry, old: Pt, unit: Pt, unit_size: float,
                others: Sequence[Disc] = ()) -> Pt:
    """The centre marker's spot: where it was if that is well inside the
    part and clear of the part's unit and of ``others`` (its name, names
    near it, where a displaced unit is drawn); else off the part's borders
    first, where it has room for that (the marker is always drawn, a unit
    not always), then as far off the unit's reach and the others as can be."""
    radius = unit_size * CENTRE_ROOM
    clear = unit_size * UNIT_ROOM + radius
    avoid = [(unit[0], unit[1], clear - radius), *others]
    if part.buffer(-radius - MARGIN).contains(Point(old)) and all(
            math.dist(old, (x, y)) >= r + radius for x, y, r in avoid):
        return old
    return roomiest(part, avoid, keep=radius + CENTRE_KEEP)[0]


def unit_and_centre(part: BaseGeometry, unit: Pt, old_centre: Pt, unit_size: float,
                    label_size: float, name_width: float, shift: Pt,
                    others: Sequence[Disc] = ()) -> tuple[Pt, Pt]:
    """The spots of a part's unit (``unit``, as :func:`unit_spot` gave it)
    and of its centre marker (:func:`centre_spot`, clear too of the unit's
    name under it and of where a dislodged unit is drawn beside it,
    ``shift`` unit sizes away). A part too small for the two apart at those
    spots has its unit moved, its army's disc still off the part's
    borders, as little as leaves them apart, else to where they stand
    furthest apart."""

    def centre_for(at: Pt) -> Pt:
        x, y = name_below(at, unit_size, label_size)
        name = (x - name_width / 2, y - label_size * ASCENT, x + name_width / 2,
                y + label_size * DESCENT)
        ghost = (at[0] + shift[0] * unit_size, at[1] + shift[1] * unit_size,
                 unit_size * DISLODGED_REACH)
        return centre_spot(part, old_centre, at, unit_size, [*box_discs(name), ghost, *others])

    centre = centre_for(unit)
    apart = unit_size * (UNIT_ROOM + CENTRE_ROOM)
    if math.dist(unit, centre) >= apart:
        return unit, centre
    best = (math.dist(unit, centre), unit, centre)
    room = part.buffer(-unit_size * ARMY_ROOM)
    if room.is_empty:
        return unit, centre
    x0, y0, x1, y1 = room.bounds
    step = max(x1 - x0, y1 - y0) / MOVES ** 0.5 or 1.0
    xs, ys = np.meshgrid(np.linspace(x0, x1, math.ceil((x1 - x0) / step) + 1),
                         np.linspace(y0, y1, math.ceil((y1 - y0) / step) + 1))
    inside = shapely.intersects_xy(room, xs.ravel(), ys.ravel())
    spots = sorted(zip(xs.ravel()[inside].tolist(), ys.ravel()[inside].tolist(), strict=True),
                   key=lambda p: math.dist(p, unit))
    for spot in spots:  # the least move that leaves room enough, else the best there is
        moved = centre_for(spot)
        if math.dist(spot, moved) >= apart:
            return spot, moved
        if math.dist(spot, moved) > best[0] + MOVE_GAIN:
            best = (math.dist(spot, moved), spot, moved)
    return best[1], best[2]


def box_discs(box: Box) -> list[Disc]:
    """Discs covering a box (a name's), side by side along it."""
    left, top, right, bottom = box
    high = bottom - top
    count = max(1, math.ceil((right - left) / high))
    step = (right - left) / count
    radius = math.hypot(step, high) / 2
    return [(left + step * (k + 0.5), (top + bottom) / 2, radius) for k in range(count)]


def block_lack(part: Polygon, centre: bool, unit_size: float, label_size: float,
               name_width: float) -> float:
    """How far a part falls short of room for its unit with its name under
    it (the disc holding both, against the largest disc the part holds),
    and for its centre marker beside them if it holds one."""
    left, up, right, _ = (r * unit_size for r in UNIT_REACH)
    _, below = name_below((0.0, 0.0), unit_size, label_size)
    half = max(left, right, name_width / 2)
    high = up + below + label_size * DESCENT
    need = math.hypot(half, high / 2) + NAME_MARGIN
    pole = polylabel(part, 0.5)
    short = max(0.0, need - part.exterior.distance(pole))
    if centre:
        short += _centre_lack(part.difference(pole.buffer(need)), unit_size)
    return short


def _centre_lack(rest: BaseGeometry, unit_size: float) -> float:
    """How far what is left of a part falls short of room for a centre marker."""
    room = 0.0 if rest.is_empty else max(
        p.exterior.distance(polylabel(p, 0.5))
        for p in getattr(rest, "geoms", [rest]) if isinstance(p, Polygon))
    return max(0.0, unit_size * CENTRE_ROOM + MARGIN - room)


def lack(part: Polygon, centre: bool, unit_size: float) -> float:
    """How far a part falls short of room for its unit, and for its centre
    marker beside it if it holds one (the radii of the discs that fit,
    against those they need), a sliver most of all."""
    need = unit_size * UNIT_ROOM
    pole = polylabel(part, 0.5)
    room = part.exterior.distance(pole)
    # a part without room even for a centre marker off its borders is worst
    # of all: a sliver, its marker (if it has one) always on a border, no
    # spot in it for a name's leader to end at
    floor = unit_size * CENTRE_ROOM + CENTRE_KEEP
    short = max(0.0, need - room) + SLIVER_WEIGHT * max(0.0, floor - room)
    if centre:
        short += _centre_lack(part.difference(pole.buffer(need)), unit_size)
    return short
