"""Where a dislodged unit is drawn: beside the unit that dislodged it, in
its own province, clear of the province's borders and of everything else
drawn there (the units, the supply-centre marker, the names).

A fixed shift from the province's unit put it over its attacker, on a
border, or in the next province where the province is narrow (Rome,
Naples). So each location's spot is worked out from its province's
shape, once per board: the spot nearest the board's preferred one (up and
right of the unit, on the artwork) where the dislodged unit has room;
where no spot has, the roomiest, and the unit is drawn as much smaller as
it must be to fit there (Holland's, Denmark's: the artwork's provinces
are small beside its units). The board keeps the spots
(MapDrawing.dislodged); the names are then moved off them, as off the
units and markers (judge/maps/labels.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry

from engine.map import GameMap, Point, UnitKind, province_of
from judge.maps.glyphs import INKED, centre_reach, covered
from judge.maps.labels import Box, circle_box
from judge.maps.room import room_near

# a dislodged unit as judge/maps/pieces.py draws it, in unit sizes: its
# glyph smaller than a unit's, in a ring of this radius and stroke width
GLYPH = 0.8
RING = 0.62
RING_WIDTH = 0.1
REACH = RING + RING_WIDTH * INKED / 2  # how far the ring, on its ink, reaches round its spot
GAP = 0.06  # unit sizes kept between a dislodged unit and the things beside it
SEARCH = 3.0  # unit sizes round the preferred spot, each way, that spots are looked for
LEAST = 0.45  # the smallest a dislodged unit is drawn, of its usual size


@dataclass(frozen=True)
class Aside:
    """Where a location's dislodged unit is drawn, and how large."""

    at: Point
    scale: float = 1.0  # of a dislodged unit's usual size: less where its province is small

    def box(self, size: float) -> Box:
        """What the dislodged unit covers, its ring included; ``size``: a unit's."""
        return circle_box(*self.at, size * REACH * self.scale)


def dislodged_spots(game_map: GameMap, shapes: Mapping[str, BaseGeometry],
                    units: Mapping[str, Point], centres: Mapping[str, Point],
                    names: Sequence[Box], size: float, shift: Point, margin: float,
                    walls: Mapping[str, BaseGeometry] | None = None) -> dict[str, Aside]:
    """Each location's dislodged unit's spot, for the locations whose
    province has a shape. ``units``: where each location's unit stands;
    ``centres``: the supply-centre markers; ``names``: the boxes of the
    names written on the board; ``size``: a unit's size; ``shift``: the
    preferred spot, from the unit, in unit sizes; ``margin``: map units
    the ring keeps off its province's ``walls`` (its outline, unless told:
    an artwork's coast is none, its units stand on it)."""
    things = [covered(_kinds(game_map, location), x, y, size)
              for location, (x, y) in units.items()]
    things += [shapely.Point(x, y).buffer(centre_reach(_worth(game_map, code), size), 8)
               for code, (x, y) in centres.items()]
    things += [shapely.box(*name) for name in names]
    tree = shapely.STRtree(things)
    full = size * REACH
    reach = size * SEARCH + full + size * GAP  # what can come near a spot looked at
    spots: dict[str, Aside] = {}
    placed: list[tuple[str, BaseGeometry]] = []  # the rings so far, by province
    for location, (x, y) in sorted(units.items()):
        province = province_of(location)
        shape = shapes.get(province)
        if shape is None or shape.is_empty:
            continue
        want = (x + size * shift[0], y + size * shift[1])
        window = shapely.box(want[0] - reach, want[1] - reach, want[0] + reach, want[1] + reach)
        # a ring placed in another province may reach over a coast into this one's
        near = [*tree.geometries.take(tree.query(window)),
                *(ring for other, ring in placed if other != province and ring.intersects(window))]
        spot, fits = room_near(shape, want, full, size * SEARCH, margin=margin,
                               walls=None if walls is None else walls.get(province),
                               avoid=shapely.geometrycollections(near), gap=size * GAP)
        spots[location] = Aside(spot, max(fits / full, LEAST))
        placed.append((province, shapely.Point(spot).buffer(full * spots[location].scale, 8)))
    return spots


def _worth(game_map: GameMap, code: str) -> int:
    """A supply centre's value (1 for a part new on a Diplomap board)."""
    province = game_map.provinces.get(code)
    return province.centre.value if province is not None and province.centre else 1


def _kinds(game_map: GameMap, location: str) -> tuple[UnitKind, ...]:
    """The kinds of unit that may stand at a location (any, for a
    location the variant does not know: a part of a Diplomap board)."""
    kinds = tuple(k for k in game_map.kinds if game_map.can_stand(k, location))
    return kinds or game_map.kinds
