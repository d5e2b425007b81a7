"""Drawing a Diplomap board: the variant's board with the borders the
players drew and erased (Diplomap, rule text ru12 by Michael Harvath,
CC BY-SA 4.0; the changes are engine/diplomap/values.py's Split, Merge and
Rename records, in Diplomap's part of the position, engine/diplomap/state.py).

The base board's picture is drawn once per process (render.py); a changed
board is that picture with a *patch* laid over it, under the owners'
colours: erased stretches of border painted over in the merged province's
colour, the new border lines, the names of provinces that are gone covered
and the new provinces' names written. The patch is worked out once per
board and process (cached here), and render.py draws it once per board
and PNG width, so a phase on a changed board costs what one on the
variant's board does.

Where the lines run is judge/maps/new_borders.py's; where new names go,
judge/maps/labels.py's.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from shapely import LineString, MultiLineString, Point, Polygon, unary_union
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge, polylabel, substring

from engine.diplomap.values import EDGE, Anchor, MapChange, Merge, Rename, Split
from engine.map import GameMap, Terrain, province_of
from judge.maps.board import (
    BORDER,
    LAND,
    SEA,
    SIMPLIFY,
    MapDrawing,
    area_data,
    number,
    with_dislodged,
)
from judge.maps.dislodged import Aside
from judge.maps.labels import DISLODGED_REACH, Box, circle_box, unit_box
from judge.maps.loops import loop
from judge.maps.new_borders import (
    BaseShapes,
    Pt,
    across,
    base_shapes,
    best_ends,
    border,
    border_key,
    cut,
    ends_on_borders,
    largest,
    outline_of,
    seen_along,
)
from judge.maps.new_names import (
    Placed,
    Surroundings,
    Wanted,
    cover_name,
    name_box,
    name_width,
    names_patch,
    place_names,
)
from judge.maps.part_spots import (
    CENTRE_KEEP,
    CENTRE_REACH,
    CENTRE_ROOM,
    block_lack,
    box_discs,
    centre_spot,
    lack,
    name_below,
    unit_and_centre,
    unit_spot,
)

LOOP_SPREAD = 0.15  # a loop starting and ending at one point encloses this much of its border
LOOP_WIDEST = 3.0  # unit sizes: the largest radius of a loop's bulb
NAME_WEIGHT = 0.25  # a loop's lack of room for its name, against its parts' lack of room for units
ERASE_TRIM = 1.2  # points left at each end of an erased stretch, where other borders meet it
ERASE_WIDTH = 2.2  # wider than the artwork's borders (1) and coasts (0.6)
LINE_WIDTH = 1.0  # as the artwork's borders (judge/maps/board.py)
# how far along its border a line's end may be drawn (fractions of the border),
# in how many steps, and how far from another end on the same border
SLIDE, SLIDE_STEPS, SLIDE_GAP = (0.2, 0.8), 5, 0.1


@dataclass(frozen=True)
class Redrawn:
    """A changed board, ready for render.py."""

    board: MapDrawing  # the base board's fields for the board in force
    patch: str  # SVG drawn over the base board's picture
    hidden: frozenset[str]  # base provinces whose names the base picture shows but are gone
    lines: Mapping[int, tuple[Pt, ...]] = field(default_factory=dict)  # each line as drawn
    shapes: Mapping[str, BaseGeometry] = field(default_factory=dict)  # province in force -> shape
    centre_base: Mapping[str, str] = field(default_factory=dict)  # centre -> base province
    # where a unit of a province that is gone stood: orders given on the board
    # before a change, and units displaced by a split, still name them
    former: Mapping[str, Pt] = field(default_factory=dict)
    # a new name written beside its part: its leader, from the name to a spot inside the part
    leaders: Mapping[str, tuple[Pt, Pt]] = field(default_factory=dict)


# -- the board in force, change by change ----------------------------------------

def _path(line: BaseGeometry) -> str:
    words = []
    for piece in getattr(line, "geoms", [line]):
        coords = list(piece.coords)
        if len(coords) >= 2:
            words.append("M" + "L".join(f"{number(x)} {number(y)}" for x, y in coords))
    return "".join(words)


def _overlap(one: Box, two: Box) -> bool:
    return one[0] < two[2] and two[0] < one[2] and one[1] < two[3] and two[1] < one[3]


class _Redrawing:
    """The board in force being built up from the base board, change by change."""

    def __init__(self, game_map: GameMap, board: MapDrawing, base: BaseShapes | None,
                 names: Mapping[str, Pt], changes: Sequence[MapChange] = ()) -> None:
        self.map = game_map
        self.names = names  # where the base board writes each name
        self.base = base
        self.board = board
        self.water = {code: prov.terrain is Terrain.WATER
                      for code, prov in game_map.provinces.items()}
        self.codes = set(game_map.provinces)  # the provinces in force
        self.shapes: dict[str, BaseGeometry] = dict(base.shapes) if base else {}
        self.full: dict[str, BaseGeometry] = (
            {c: base.full.get(c, s) for c, s in base.shapes.items()} if base else {})
        self.units: dict[str, Pt] = dict(board.units)
        self.centres: dict[str, Pt] = dict(board.centres)
        self.centre_base = {code: code for code in board.centres}
        self.areas: dict[str, str] = dict(board.areas)
        self.lines: dict[int, LineString] = {}
        self.drawn: list[str] = []  # the patch's lines and paint, in the order of the changes
        self.new: set[str] = set()  # provinces the base board has no name for
        self.origin: dict[str, frozenset[str]] = {}  # a new province's base provinces
        self.former: dict[str, Pt] = {}  # every location's unit point, gone or not
        self.ends = ends_on_borders(changes)

    # where a line ends
    def _anchor(self, anchor: Anchor, at: float, shape: BaseGeometry) -> Pt:
        outline = outline_of(largest(shape))
        spot: Point | None = None
        if anchor.neighbour.startswith("LINE:"):
            line = self.lines.get(int(anchor.neighbour.split(":", 1)[1]))
            if line is not None:
                spot = line.interpolate(at, normalized=True)
        elif self.base is not None:
            try:
                stretch = border(self.base, anchor.province, anchor.neighbour)
                # the board's edge is straight: its middle by length is the one seen
                spot = stretch.interpolate(at, normalized=True) \
                    if EDGE in (anchor.province, anchor.neighbour) else seen_along(stretch, at)
            except (KeyError, ValueError):  # not a base border: the nearest point will do
                other = self.base.shapes.get(anchor.neighbour)
                spot = outline.interpolate(outline.project(
                    polylabel(other, 0.5) if isinstance(other, Polygon) else Point(0, 0)))
        if spot is None:
            spot = outline.interpolate(0.0)
        on = outline.interpolate(outline.project(spot))  # exactly on the province's outline
        return on.x, on.y

    def split(self, change: Split) -> None:
        self.former.update(self.units)
        old = change.province
        first, second = change.parts
        if self.base is None or old not in self.shapes:
            self._split_schematic(change)
            return
        shape = largest(self.shapes[old])
        start, end = change.start.at, change.end.at
        if change.loop and abs(end - start) < LOOP_SPREAD / 2:  # a loop touching at a point
            start, end = max(0.0, start - LOOP_SPREAD), min(1.0, end + LOOP_SPREAD)
        a = self._anchor(change.start, start, shape)
        b = self._anchor(change.end, end, shape)
        holder = change.centre

        def short(one: Polygon, two: Polygon) -> float:
            size = self.board.unit_size
            return math.hypot(lack(one, holder == first, size), lack(two, holder == second, size))

        if change.loop:
            board = self.board

            def rooms(inner: Polygon, outer: Polygon) -> float:
                # room for the units first; the loop is the judge's to draw, so
                # room too for the loop's name under its unit, where it can be had
                size = board.unit_size
                width = name_width(first, board.label_size, holder == first)
                return math.hypot(lack(inner, holder == first, size),
                                  lack(outer, holder == second, size)) + NAME_WEIGHT * block_lack(
                    inner, holder == first, size, board.label_size, width)

            middle = self._anchor(change.start, (start + end) / 2, shape)
            line = loop(shape, a, b, middle, board.unit_size * LOOP_WIDEST,
                        self._stretch(change.start), rooms)
            (ax, ay), (bx, by) = line.coords[0], line.coords[-1]  # where the arc meets the border
            a, b = (ax, ay), (bx, by)
        else:
            starts = [(None, a), *self._slid(change.start, shape)]
            ends = [(None, b), *self._slid(change.end, shape)]
            i, j = best_ends(shape, [p for _, p in starts], [p for _, p in ends], short)
            (moved_a, a), (moved_b, b) = starts[i], ends[j]
            self._moved(change.start, moved_a)
            self._moved(change.end, moved_b)
            line = across(shape, a, b, short)
        clipped = line.intersection(shape.buffer(0.05))  # never drawn outside its province
        if isinstance(clipped, MultiLineString):
            clipped = linemerge(clipped)
        shown: BaseGeometry = line
        if isinstance(clipped, LineString) and not clipped.is_empty:
            # kept running from start to end: a later line's anchor on it counts from its start
            x, y, *_ = clipped.coords[0]
            if math.dist((x, y), a) > math.dist((x, y), b):
                clipped = clipped.reverse()
            line = shown = clipped
        elif not clipped.is_empty:
            shown = clipped
        one, two = cut(shape, line, a, b)
        self.lines[change.line] = line
        dash = ' stroke-dasharray="3 1.5"' if self.water.get(old) else ""
        self.drawn.append(f'<path class="drawn-border" data-line="{change.line}" '
                          f'data-province="{old}" d="{_path(shown)}" fill="none" '
                          f'stroke="{BORDER}" stroke-width="{LINE_WIDTH}"{dash}/>')
        full = self.full.pop(old, shape)
        pieces: dict[str, list[BaseGeometry]] = {first: [], second: []}
        for piece in getattr(full, "geoms", [full]):
            if piece.intersects(shape.buffer(-0.5)):
                pieces[first].append(piece.intersection(one))
                pieces[second].append(piece.intersection(two))
            else:  # an island of the province: it goes with the nearer part
                near = first if piece.distance(one) <= piece.distance(two) else second
                pieces[near].append(piece)
        del self.shapes[old]
        for code, part in ((first, one), (second, two)):
            self.shapes[code] = part
            self.full[code] = unary_union([p for p in pieces[code] if not p.is_empty] or [part])
        self._share_points(old, {first: one, second: two}, change.centre)
        self._replace(old, change.parts)

    def _stretch(self, anchor: Anchor) -> BaseGeometry | None:
        """The stretch of base border an anchor is on, if it is one."""
        if self.base is None or anchor.neighbour.startswith("LINE:"):
            return None
        try:
            return border(self.base, anchor.province, anchor.neighbour)
        except (KeyError, ValueError):
            return None

    def _slid(self, anchor: Anchor, shape: BaseGeometry) -> list[tuple[float | None, Pt]]:
        """Other spots along its border a line's end may be drawn at, each
        with its fraction of the border: the border's middle stretch, short
        of every other end drawn or to be drawn on it (the engine cut the
        border there, so a later line's end on the border's other piece
        must stay on that piece)."""
        if anchor.neighbour.startswith("LINE:"):
            return []
        key, at = border_key(anchor)
        others = list(self.ends.get(key, []))
        if at in others:
            others.remove(at)
        low = max([SLIDE[0], *(o + SLIDE_GAP for o in others if o < at)])
        high = min([SLIDE[1], *(o - SLIDE_GAP for o in others if o > at)])
        if high <= low:
            return []
        flip = key[0] != anchor.province
        return [(f, self._anchor(anchor, 1 - f if flip else f, shape))
                for f in np.linspace(low, high, SLIDE_STEPS).tolist() if abs(f - at) > 1e-6]

    def _moved(self, anchor: Anchor, to: float | None) -> None:
        """A line's end drawn at fraction ``to`` of its border, not where the
        engine put it: later lines keep to their side of it."""
        if to is not None:
            key, at = border_key(anchor)
            ends = self.ends[key]
            ends[ends.index(at)] = to

    def _share_points(self, old: str, parts: Mapping[str, BaseGeometry],
                      holder: str | None) -> None:
        """Units, coasts and the centre marker of a split province, each in its
        part and clear of its borders, so that a marker shows which part it is in."""
        board = self.board
        point = self.units.pop(old, None)
        spot = self.centres.pop(old, None)
        if spot is not None and (holder is None or holder not in parts):
            holder = min(parts, key=lambda c: parts[c].distance(Point(spot)))
        # the other provinces' names near the province keep their places: no unit on them
        whole = unary_union(list(parts.values()))
        near = [name_box(code, x, y, board.label_size, code in self.centres)
                for code, (x, y) in self.names.items() if code in self.codes and code != old
                and whole.distance(Point(x, y)) < board.unit_size * 3]
        for code, part in parts.items():
            width = name_width(code, board.label_size, code == holder and spot is not None)
            self.units[code] = unit_spot(part, point, board.unit_size, board.label_size, width,
                                         near)
        for location in [loc for loc in self.units if province_of(loc) == old]:
            at = self.units.pop(location)
            code = min(parts, key=lambda c: parts[c].distance(Point(at)))
            self.units[f"{code}/{location.split('/', 1)[1]}"] = at
        if spot is not None and holder is not None:
            self.centre_base[holder] = self.centre_base.pop(old, old)
            # clear of the names near it too
            size = board.unit_size
            names = [name_box(code, x, y, board.label_size, code in self.centres)
                     for code, (x, y) in self.names.items()
                     if code in self.codes and code != old
                     and parts[holder].distance(Point(x, y)) < size * 2]
            self.units[holder], self.centres[holder] = unit_and_centre(
                parts[holder], self.units[holder], spot, size, board.label_size,
                name_width(holder, board.label_size, True), board.dislodged_shift,
                [d for box in names for d in box_discs(box)])
        if point is not None:
            # a unit displaced by the split is drawn, until it chooses its part
            # (§III.B), where the unit of the part it stood in stands: the part's
            # name is clear of that spot, and of the spot it is drawn at
            # dislodged, if that spot covers no name of the base board's
            home = self.units[min(parts, key=lambda c: parts[c].distance(Point(point)))]
            dx, dy = board.dislodged_shift  # where a dislodged unit is drawn, roughly
            ghost = circle_box(home[0] + board.unit_size * dx, home[1] + board.unit_size * dy,
                               board.unit_size * DISLODGED_REACH)
            if not any(_overlap(ghost, name_box(code, x, y, board.label_size, code in self.centres))
                       for code, (x, y) in self.names.items()
                       if code in self.codes and code != old):
                self.former[old] = home

    def _split_schematic(self, change: Split) -> None:
        """No shapes: the parts stand either side of the province's disc."""
        old = change.province
        x, y = self.units.pop(old, (0.0, 0.0))
        shift = self.board.unit_size * 0.6
        for sign, code in ((-1, change.parts[0]), (1, change.parts[1])):
            self.units[code] = (x + sign * shift, y)
            if old in self.areas:
                self.areas[code] = self.areas[old]
        for location in [loc for loc in self.units if province_of(loc) == old]:
            self.units[f"{change.parts[0]}/{location.split('/', 1)[1]}"] = \
                self.units.pop(location)
        if old in self.centres:
            holder = change.centre or change.parts[0]
            self.centres[holder] = self.centres.pop(old)
            self.centre_base[holder] = self.centre_base.pop(old, old)
        self.areas.pop(old, None)
        self._replace(old, change.parts)

    def _replace(self, old: str | tuple[str, ...], new: tuple[str, ...]) -> None:
        gone = (old,) if isinstance(old, str) else old
        for code in new:
            self.water[code] = any(self.water.get(g, False) for g in gone)
            self.origin[code] = frozenset().union(*(self.origin.get(g, {g}) for g in gone))
        for code in gone:
            self.codes.discard(code)
            self.areas.pop(code, None)
            self.new.discard(code)
        self.codes.update(new)
        self.new.update(new)

    def merge(self, change: Merge) -> None:
        self.former.update(self.units)
        a, b = change.provinces
        into = change.into
        if a in self.shapes and b in self.shapes:
            shared = self.shapes[a].boundary.intersection(self.shapes[b].buffer(0.15))
            merged = linemerge(shared) if isinstance(shared, MultiLineString) else shared
            trimmed = [substring(piece, ERASE_TRIM, piece.length - ERASE_TRIM)
                       for piece in getattr(merged, "geoms", [merged])
                       if piece.geom_type == "LineString" and piece.length > 2 * ERASE_TRIM]
            colour = SEA if self.water.get(a) else LAND
            if trimmed:
                self.drawn.append(f'<path class="erased" data-provinces="{a} {b}" '
                                  f'd="{_path(unary_union(trimmed))}" fill="none" '
                                  f'stroke="{colour}" stroke-width="{ERASE_WIDTH}"/>')
            self.shapes[into] = largest(
                unary_union([self.shapes.pop(a), self.shapes.pop(b)]).buffer(0.05).buffer(-0.05))
            self.full[into] = unary_union([self.full.pop(a, self.shapes[into]),
                                           self.full.pop(b, self.shapes[into])])
        keeper = a if a in self.centres or b not in self.centres else b
        spots = [self.units.pop(code) for code in (keeper, a if keeper == b else b)
                 if code in self.units]
        if spots and self.base is None and len(spots) == 2:  # a schematic: between the discs
            self.units[into] = ((spots[0][0] + spots[1][0]) / 2, (spots[0][1] + spots[1][1]) / 2)
        elif spots:
            self.units[into] = spots[0]
        for location in [loc for loc in self.units if province_of(loc) in (a, b)]:
            self.units[f"{into}/{location.split('/', 1)[1]}"] = self.units.pop(location)
        if keeper in self.centres:
            self.centres[into] = self.centres.pop(keeper)
            self.centre_base[into] = self.centre_base.pop(keeper, keeper)
            shape, unit = self.shapes.get(into), self.units.get(into)
            keep = self.board.unit_size * CENTRE_ROOM + CENTRE_KEEP
            if shape is not None and unit is not None and \
                    shape.boundary.distance(Point(self.centres[into])) < keep:
                # the artwork's spot, unless it is near a border of the merged
                # province (Belgium's marker by Holland's border)
                self.centres[into] = centre_spot(largest(shape), self.centres[into], unit,
                                                 self.board.unit_size)
        if self.base is None and a in self.areas:
            self.areas[into] = self.areas[a] + self.areas.get(b, "")
        self._replace((a, b), (into,))

    def rename(self, change: Rename) -> None:
        self.former.update(self.units)
        old, new = change.code, change.new_code
        for shapes in (self.shapes, self.full):
            if old in shapes:
                shapes[new] = shapes.pop(old)
        for points in (self.units, self.centres):
            if old in points:
                points[new] = points.pop(old)
        for texts in (self.centre_base, self.areas):
            if old in texts:
                texts[new] = texts.pop(old)
        for location in [loc for loc in self.units if province_of(loc) == old]:
            self.units[f"{new}/{location.split('/', 1)[1]}"] = self.units.pop(location)
        areas = self.areas.pop(new, None)  # _replace drops the old code's, kept here
        self._replace(old, (new,))
        if areas is not None:
            self.areas[new] = areas

    def redrawn(self, names: Mapping[str, Pt]) -> Redrawn:
        """The board in force; ``names``: where the base board writes each name."""
        board = self.board
        for code in self.codes:  # the changed provinces' areas (land only, as the base's)
            if code in self.full and not self.water.get(code) and (
                    code in self.new or code not in board.areas):
                self.areas[code] = area_data(self.full[code].simplify(SIMPLIFY))
        kept = {code: (float(x), float(y)) for code, (x, y) in names.items()
                if code in self.codes}
        hidden = frozenset(code for code in names if code not in self.codes)
        # the dislodged units' spots: the base board's in the provinces it had;
        # each new part's once the new names are written, clear of them (below)
        board = replace(board, units=self.units, centres=self.centres,
                        dislodged={loc: spot for loc, spot in board.dislodged.items()
                                   if loc in self.units and province_of(loc) not in self.new})
        placed = self._place_names(kept, board)
        patch = [cover_name(code, names[code], board.label_size, self.base.shapes, self.water)
                 for code in sorted(hidden)] if self.base is not None else []
        patch += self.drawn
        patch.append(names_patch(placed, set(self.centres), board.label_size))
        changed = replace(board, areas=self.areas,
                          labels=kept | {code: p.at for code, p in placed.items()})
        if self.base is not None:
            changed = with_dislodged(self.map, changed, {code: self.shapes[code]
                                                         for code in self.new
                                                         if code in self.shapes})
            changed = replace(changed, dislodged={**self._displaced(changed),
                                                  **changed.dislodged})
        return Redrawn(changed, f'<g class="redrawn">{"".join(patch)}</g>', hidden,
                       {n: tuple((x, y) for x, y, *_ in line.coords)
                        for n, line in self.lines.items()},
                       {c: s for c, s in self.shapes.items() if c in self.codes},
                       {c: b for c, b in self.centre_base.items() if c in self.centres},
                       {loc: p for loc, p in self.former.items() if loc not in self.units},
                       {c: p.leader for c, p in placed.items() if p.leader is not None})

    def _displaced(self, board: MapDrawing) -> dict[str, Aside]:
        """A unit displaced from a province that is gone is still named by
        it: drawn where a dislodged unit of the part holding its old spot is."""
        found = {}
        for location, (x, y) in self.former.items():
            if location in self.units:
                continue
            part = next((code for code in sorted(self.new) if code in self.shapes
                         and self.shapes[code].contains(Point(x, y))), None)
            if part is not None and part in board.dislodged:
                found[location] = board.dislodged[part]
        return found

    def _place_names(self, kept: Mapping[str, Pt], board: MapDrawing) -> dict[str, Placed]:
        """The new provinces' names: under their unit where that is clear,
        else nearest it inside their part, else beside it with a leader
        (judge/maps/new_names.py); each clear of every unit, of where a
        dislodged unit is drawn, of the centre markers and of the names."""
        size = board.unit_size
        # where a dislodged unit is drawn: the base board's spot in a province
        # it had; a new part's spot is found after the names, clear of them
        boxes: list[tuple[Box, Box | None]] = [
            (unit_box(x, y, size), board.aside(loc, (x, y)).box(size))
            for loc, (x, y) in self.units.items() if province_of(loc) not in self.new]
        boxes += [(unit_box(x, y, size), None) for loc, (x, y) in self.units.items()
                  if province_of(loc) in self.new]
        # a unit displaced by a split is drawn where it stood in the very next
        # phase: no name is ever written there
        displaced = [unit_box(x, y, size) for _, (x, y) in self._former_spots()]
        around = Surroundings(
            {c: s for c, s in self.shapes.items() if c in self.codes},
            [unit for unit, _ in boxes], [ghost for _, ghost in boxes if ghost is not None],
            [circle_box(x, y, size * CENTRE_REACH) for x, y in self.centres.values()],
            [name_box(code, x, y, board.label_size, code in self.centres)
             for code, (x, y) in kept.items()], size=board.label_size, displaced=displaced)
        wanted: dict[str, Wanted] = {}
        for code in sorted(self.new):
            unit = self.units.get(code)
            if unit is None:
                continue
            # the part as the rings have it and as it is painted, where the
            # two differ (Denmark's and Constantinople's straits): a name
            # inside it, or its leader's end, is inside both
            shape = self.shapes.get(code)
            if shape is not None and code in self.full:
                both = shape.intersection(self.full[code])
                shape = largest(both) if not both.is_empty and both.area > 1.0 else shape
            # the markers standing in the part: its own, and a unit displaced
            # by its province's split, drawn where it stood (§III.B)
            own = [box for location, (x, y) in [*self.units.items(), *self._former_spots()]
                   if province_of(location) == code
                   or (shape is not None and shape.contains(Point(x, y)))
                   for box in [unit_box(x, y, size)]]
            if code in self.centres:
                own.append(circle_box(*self.centres[code], size * CENTRE_REACH))
            # where a name beside its part still reads as its own: on the sea,
            # or on the rest of the base province it was made from
            kin = frozenset(c for c in self.codes if self.water.get(c) or (
                c != code and self.origin.get(c, {c}) & self.origin[code]))
            wanted[code] = Wanted(shape, name_below(unit, size, board.label_size),
                                  code in self.centres, tuple(own), kin)
        return place_names(wanted, around)

    def _former_spots(self) -> list[tuple[str, Pt]]:
        """Where units of provinces that are gone are drawn: a unit displaced
        by a split waits there for its part (§III.B)."""
        return [(loc, p) for loc, p in self.former.items() if loc not in self.units]


# -- the changed boards, kept per process ------------------------------------------

_KEPT = 64  # changed boards kept: a game's phases share theirs until its next change
_CACHE: dict[tuple[int, tuple[MapChange, ...]], tuple[object, Redrawn]] = {}
_LOCK = threading.Lock()


def redraw(game_map: GameMap, board: MapDrawing, names: Mapping[str, Pt],
           changes: tuple[MapChange, ...]) -> Redrawn:
    """The board ``board`` (the base map's) after ``changes``; ``names``:
    where the base board writes each name. Kept per drawing and changes."""
    key = (id(game_map.drawing), changes)
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None and found[0] is game_map.drawing:
            return found[1]
    drawing = game_map.drawing
    base = None
    if drawing.artwork is not None and not board.schematic:
        base = base_shapes(drawing.artwork, tuple(sorted(
            (code, prov.terrain is Terrain.WATER) for code, prov in game_map.provinces.items()
            if prov.terrain is not Terrain.IMPASSABLE)), tuple(sorted(
                code for code, prov in game_map.provinces.items()
                if prov.terrain is Terrain.IMPASSABLE)),
            tuple(sorted(drawing.units.items())), tuple(sorted(drawing.centres.items())))
    work = _Redrawing(game_map, board, base, names, changes)
    for change in changes:
        if isinstance(change, Split):
            work.split(change)
        elif isinstance(change, Merge):
            work.merge(change)
        else:
            work.rename(change)
    made = work.redrawn(names)
    with _LOCK:
        if len(_CACHE) >= _KEPT:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (drawing, made)
    return made
