"""The outlines of the units' glyphs, in unit sizes round the unit's point
(y down), as judge/maps/pieces.py draws them.

An army is a disc; a fleet a hull under a sail (the hull holds the unit's
own point, so a pixel there is the power's colour); a wing a paper plane
seen from above, a chevron whose own point lies inside it.
"""

from __future__ import annotations

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
