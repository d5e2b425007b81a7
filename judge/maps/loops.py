"""Where a Diplomap loop runs (§II.G.2: a border drawn from one border
back to the same, "inside" a province): a line hanging from the border
round a disc inside the province, as a loop drawn by hand hangs, made
as small as leaves the loop and the rest of the province room for their
units and names (judge/maps/redrawn.py says how much). Geometry as in
judge/maps/new_borders.py."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import shapely
from shapely import LineString, MultiLineString, Point, Polygon, unary_union
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import linemerge, polylabel

from judge.maps.new_borders import LACK_STEP, clear_of_borders, cut, inwards

Pt = tuple[float, float]

LOOP_STEP = 3.0  # points between the radii of the loops tried
LOOP_REACH = (1.5, 2.2, 3.0)  # how far a loop's disc's middle lies from its border, in radii
DEPTHS = (0.6, 0.4, 0.2, 0.0)  # the same for a loop's circle meeting its border, in radii
NECK = 4.0  # points: the least radius of a loop's disc, and twice the least way to it
ON_BORDER = 0.6  # points: a loop's ends lie this near the border it is drawn on
APART = 1.0  # points a loop keeps off its province's outline but at its ends


def loop(shape: Polygon, a: Pt, b: Pt, middle: Pt, widest: float,
         on: BaseGeometry | None = None,
         lack: Callable[[Polygon, Polygon], float] = lambda inner, outer: 0.0) -> LineString:
    """A loop's line round a disc inside the shape, hanging from one of its
    borders (``on``, if known) at ``a`` and ``b``, ``middle`` between them,
    as a loop drawn by hand hangs: from each end straight to the disc and
    round its far side; or, where the border is too ragged for straight
    ways to the disc (a coast's inlets), the arc of a circle a little in
    from ``middle``, its ends wherever it meets the border. With the border
    it encloses the loop's part, a bulb that holds a unit and its name on
    less of the province than a half-disc would. The disc lies square to
    the border or towards the shape's pole, as near it as will do. The
    smallest loop, up to ``widest`` in radius, that leaves the loop and the
    rest of the province the room they need (``lack``: how far the inner
    and outer parts fall short of it) and keeps off the province's other
    borders; else the one falling least short; else the widest half-disc
    about ``middle``."""
    pole = polylabel(shape, 0.5)
    normal = inwards(shape, middle)
    towards = (pole.x - middle[0], pole.y - middle[1])
    norm = math.hypot(*towards) or 1.0
    towards = (towards[0] / norm, towards[1] / norm)
    between = (normal[0] + towards[0], normal[1] + towards[1])
    norm = math.hypot(*between) or 1.0
    ways = [normal, (between[0] / norm, between[1] / norm), towards]
    best: tuple[tuple[float, bool, float], LineString] | None = None
    radius = NECK
    inner_room = shape.buffer(-APART)  # where a loop runs, but at its ends
    shapely.prepare(inner_room)
    while radius <= widest:
        for line, centre in _loops(shape, inner_room, a, b, middle, radius, ways, on):
            (x0, y0), (x1, y1) = line.coords[0], line.coords[-1]
            one, two = cut(shape, line, (x0, y0), (x1, y1))
            inner, outer = (one, two) if one.distance(Point(centre)) <= \
                two.distance(Point(centre)) else (two, one)
            short = round(lack(inner, outer) / LACK_STEP) * LACK_STEP
            clear = clear_of_borders(shape, line, (x0, y0), (x1, y1))
            if short == 0 and clear:
                return line
            key = (short, not clear, radius)
            if best is None or key < best[0]:
                best = (key, line)
        radius += LOOP_STEP
    if best is not None:
        return best[1]
    # no room for a loop to keep off the outline: the arc about ``middle``
    # of the widest circle meeting the outline on the loop's border alone
    for wide in np.arange(widest, 0.4, -0.5).tolist():
        arcs = _arcs(shape, Point(middle).buffer(wide, 32))
        near = min(arcs, key=lambda p: p.distance(Point(middle)), default=None)
        if near is not None and (on is None or max(
                on.distance(Point(e)) for e in (near.coords[0], near.coords[-1])) <= ON_BORDER):
            return near
    return LineString([a, b])


def _loops(shape: Polygon, inner_room: BaseGeometry, a: Pt, b: Pt, middle: Pt, radius: float,
           ways: Sequence[Pt], on: BaseGeometry | None) -> Iterator[tuple[LineString, Pt]]:
    """The loops of one radius that run inside the shape, each with its
    disc's middle: round a disc from ``a`` and ``b``, then arcs of circles
    about points a little in from ``middle``."""
    for reach in LOOP_REACH:
        for way in ways:
            centre = (middle[0] + way[0] * radius * reach, middle[1] + way[1] * radius * reach)
            line = _round(a, b, Point(centre).buffer(radius, 32))
            if line is not None and _apart(inner_room, line):
                yield line, centre
    for depth in DEPTHS:
        way = ways[0]
        centre = (middle[0] + way[0] * radius * depth, middle[1] + way[1] * radius * depth)
        far = Point(centre[0] + way[0] * radius, centre[1] + way[1] * radius)
        arcs = _arcs(shape, Point(centre).buffer(radius, 48))
        if not arcs or not shape.contains(far):
            continue
        arc = min(arcs, key=lambda p: p.distance(far))  # the arc round the bulb
        ends = arc.coords[0], arc.coords[-1]
        if math.dist(*ends) >= NECK and _apart(inner_room, arc) and (on is None or max(
                on.distance(Point(e)) for e in ends) <= ON_BORDER):
            yield arc, centre


def _apart(inner_room: BaseGeometry, line: LineString) -> bool:
    """Whether a loop keeps off its province's outline (``inner_room`` is
    the province shrunk by APART) but at its ends: one touching it
    elsewhere would cut the province in three."""
    coords = shapely.get_coordinates(shapely.segmentize(line, 1.0))
    ends = np.minimum(np.hypot(*(coords - coords[0]).T), np.hypot(*(coords - coords[-1]).T))
    middle = coords[ends > NECK / 2]
    return len(middle) < 2 or bool(inner_room.contains(LineString(middle)))


def _round(a: Pt, b: Pt, disc: Polygon) -> LineString | None:
    """From ``a`` straight to the disc, round its far side, straight to
    ``b``: the hull of the disc and the two points, less the side from
    ``a`` to ``b``. None if the disc reaches either point."""
    if disc.distance(Point(a)) < NECK / 2 or disc.distance(Point(b)) < NECK / 2:
        return None
    hull = unary_union([disc, Point(a), Point(b)]).convex_hull
    if not isinstance(hull, Polygon):
        return None
    ring = list(orient(hull, 1.0).exterior.coords)[:-1]
    i = min(range(len(ring)), key=lambda k: math.dist(ring[k], a))
    j = min(range(len(ring)), key=lambda k: math.dist(ring[k], b))
    if i == j:
        return None
    forward = ring[i:j + 1] if i < j else ring[i:] + ring[:j + 1]
    backward = ring[j:i + 1] if j < i else ring[j:] + ring[:i + 1]
    way = forward if len(forward) >= len(backward) else list(reversed(backward))
    return LineString(way)


def _arcs(shape: Polygon, disc: Polygon) -> list[LineString]:
    arcs = disc.exterior.intersection(shape)
    if isinstance(arcs, MultiLineString):
        arcs = linemerge(arcs)
    return [p for p in getattr(arcs, "geoms", [arcs])
            if isinstance(p, LineString) and not p.is_empty]
