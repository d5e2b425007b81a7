"""The outlines of the units' glyphs, in unit sizes round the unit's point
(y down): judge/maps/pieces.py draws them, and judge/maps/dislodged.py
keeps a dislodged unit clear of what they cover.

An army is a disc; a fleet a hull under a sail (the hull holds the unit's
own point, so a pixel there is the power's colour); a wing a paper plane
seen from above, a chevron whose own point lies inside it.
"""

from __future__ import annotations

import math

import shapely
from shapely.geometry.base import BaseGeometry

from engine.map import Point, UnitKind

ARMY_RADIUS = 0.46
# a fleet's hull: its top's height and half width, its depth, its bottom's
# width as a share of its top's
_TOP, _HALF, _DEEP, _KEEL = -0.16, 0.72, 0.38, 0.62
FLEET_HULL: tuple[Point, ...] = ((-_HALF, _TOP), (_HALF, _TOP), (_HALF * _KEEL, _TOP + _DEEP),
                                 (-_HALF * _KEEL, _TOP + _DEEP))
FLEET_SAIL: tuple[Point, ...] = ((-0.12, -0.21), (-0.12, -0.76), (0.48, -0.21))
WING: tuple[Point, ...] = ((0.0, -0.6), (0.7, 0.4), (0.0, 0.1), (-0.7, 0.4))
OUTLINE = 0.07  # a unit's outline's width
# a supply-centre marker (render.py, templates/map.svg.j2): its radius (in
# unit sizes), the ring round a centre worth more (Dissolution's) this many
# times as wide, and their edges' width (in map units)
CENTRE_RADIUS, VALUE_RING, CENTRE_EDGE = 0.26, 1.55, 0.7
INKED = 1.8  # an order's line or ring is laid on ink this many times as wide, to show on any colour


def outlines(kind: UnitKind) -> tuple[tuple[Point, ...], ...]:
    """The polygons a fleet's or a wing's glyph is made of (an army's is a disc)."""
    return (FLEET_HULL, FLEET_SAIL) if kind is UnitKind.FLEET else (WING,)


def reach(kind: UnitKind) -> float:
    """How far a glyph of ``kind`` reaches from its point, outline included."""
    if kind is UnitKind.ARMY:
        return ARMY_RADIUS + OUTLINE / 2
    return max(math.hypot(x, y) for outline in outlines(kind) for x, y in outline) + OUTLINE / 2


def centre_reach(worth: int, size: float) -> float:
    """How far a supply-centre marker reaches round its point, its edge included."""
    return size * CENTRE_RADIUS * (VALUE_RING if worth > 1 else 1.0) + CENTRE_EDGE / 2


def covered(kinds: tuple[UnitKind, ...], x: float, y: float, size: float) -> BaseGeometry:
    """What the glyphs of ``kinds`` cover, outline included, at (x, y)."""
    pieces = []
    for kind in kinds:
        if kind is UnitKind.ARMY:
            pieces.append(shapely.Point(x, y).buffer(size * ARMY_RADIUS, 8))
        else:
            pieces += [shapely.Polygon([(x + size * px, y + size * py) for px, py in outline])
                       for outline in outlines(kind)]
    return shapely.union_all(pieces).buffer(size * OUTLINE / 2, 4)
