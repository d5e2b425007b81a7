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
from collections.abc import Mapping
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
from judge.maps.labels import circle_box, label_box, place_name, unit_box
from judge.maps.new_borders import (
    BaseShapes,
    Pt,
    across,
    base_shapes,
    border,
    cut,
    largest,
    loop,
    outline_of,
)
from judge.maps.room import roomiest

LOOP_SPREAD = 0.15  # a loop starting and ending at one point encloses this much of its border
SEEN_STEPS = 201  # points a border is looked at to find its middle as seen
LOOP_SIZE = 6.0  # points: the least radius of a loop's half-disc
LOOP_ROOM = 1.6  # unit sizes: a loop's bulb's radius, room for its unit and its name below
ERASE_TRIM = 1.2  # points left at each end of an erased stretch, where other borders meet it
ERASE_WIDTH = 2.2  # wider than the artwork's borders (1) and coasts (0.6)
COVER = 0.6  # points a covered name's patch keeps off the borders (half a border)
LINE_WIDTH = 1.0  # as the artwork's borders (judge/maps/board.py)
# in unit sizes: how far a unit reaches round its point (judge/maps/labels.py
# UNIT_REACH's widest) with a little room, and a centre marker's radius with its ring
UNIT_ROOM = 0.95
CENTRE_ROOM = 0.3
LABEL_MARGIN = 0.8  # points a new name keeps off its part's borders where it fits
MARGIN = 1.5  # points a marker keeps off its part's borders beyond its own reach


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


# -- the board in force, change by change ----------------------------------------

def _path(line: BaseGeometry) -> str:
    words = []
    for piece in getattr(line, "geoms", [line]):
        coords = list(piece.coords)
        if len(coords) >= 2:
            words.append("M" + "L".join(f"{number(x)} {number(y)}" for x, y in coords))
    return "".join(words)


def _spot_in(shape: BaseGeometry, old: Pt | None, margin: float) -> Pt:
    """``old`` if it lies ``margin`` inside the shape, else the shape's roomiest spot."""
    if old is not None and shape.buffer(-margin).contains(Point(old)):
        return old
    return roomiest(shape)[0]


def _seen_along(stretch: LineString, at: float) -> Point:
    """The point ``at`` (0..1) along a border as a player sees it: where
    the border is ``at`` of the way from its start to its end, as the crow
    flies (its distance from the start is ``at`` of the two distances
    together); of several such points, the one nearest ``at`` by length.
    By length alone, a wiggly stretch of coast at one end (the Portugal
    border's north) pulls the middle towards that end; by the nearest point
    to the straight way between the ends, a border bent like a C (Munich's
    with Bohemia) has its middle at a corner."""
    (x0, y0, *_), (x1, y1, *_) = stretch.coords[0], stretch.coords[-1]
    shares = np.linspace(0.0, 1.0, SEEN_STEPS)
    spots = [stretch.interpolate(t, normalized=True) for t in shares]
    xs = np.array([p.x for p in spots])
    ys = np.array([p.y for p in spots])
    start, end = np.hypot(xs - x0, ys - y0), np.hypot(xs - x1, ys - y1)
    seen = start / np.maximum(start + end, 1e-9)
    off = seen - at
    crossings = np.nonzero(np.sign(off[:-1]) != np.sign(off[1:]))[0]
    if not len(crossings):
        return stretch.interpolate(at, normalized=True)
    k = min(crossings.tolist(), key=lambda i: abs(shares[i] - at))
    # between the two samples either side, in proportion
    share = shares[k] + (shares[k + 1] - shares[k]) * off[k] / (off[k] - off[k + 1])
    return stretch.interpolate(float(share), normalized=True)


class _Redrawing:
    """The board in force being built up from the base board, change by change."""

    def __init__(self, game_map: GameMap, board: MapDrawing, base: BaseShapes | None) -> None:
        self.map = game_map
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
        self.former: dict[str, Pt] = {}  # every location's unit point, gone or not

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
                    if EDGE in (anchor.province, anchor.neighbour) else _seen_along(stretch, at)
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
        if change.loop:
            middle = self._anchor(change.start, (start + end) / 2, shape)
            line = loop(shape, middle, max(math.dist(a, b) / 2, LOOP_SIZE),
                        self.board.unit_size * LOOP_ROOM)
            (ax, ay), (bx, by) = line.coords[0], line.coords[-1]  # where the arc meets the border
            a, b = (ax, ay), (bx, by)
        else:
            line = across(shape, a, b, self.board.unit_size * UNIT_ROOM)
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

    def _share_points(self, old: str, parts: Mapping[str, BaseGeometry],
                      holder: str | None) -> None:
        """Units, coasts and the centre marker of a split province, each in its
        part and clear of its borders, so that a marker shows which part it is in."""
        point = self.units.pop(old, None)
        unit_room = self.board.unit_size * UNIT_ROOM
        for code, part in parts.items():
            self.units[code] = _spot_in(part, point, unit_room)
        for location in [loc for loc in self.units if province_of(loc) == old]:
            spot = self.units.pop(location)
            code = min(parts, key=lambda c: parts[c].distance(Point(spot)))
            self.units[f"{code}/{location.split('/', 1)[1]}"] = spot
        if old not in self.centres:
            return
        spot = self.centres.pop(old)
        if holder is None or holder not in parts:
            holder = min(parts, key=lambda c: parts[c].distance(Point(spot)))
        self.centre_base[holder] = self.centre_base.pop(old, old)
        self.centres[holder] = self._centre_spot(parts[holder], spot, self.units[holder])

    def _centre_spot(self, part: BaseGeometry, old: Pt, unit: Pt) -> Pt:
        """The centre marker's spot: where it was if that is well inside the
        part and clear of the part's unit; else the part's roomiest spot
        away from the unit."""
        size = self.board.unit_size
        radius = size * CENTRE_ROOM
        clear = size * UNIT_ROOM + radius
        if part.buffer(-radius - MARGIN).contains(Point(old)) and math.dist(old, unit) >= clear:
            return old
        # the room counted from the marker's edge: off the borders by its
        # radius, off the unit by the unit's reach and its radius
        return roomiest(part, [(unit[0], unit[1], clear - radius)])[0]

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
        size = board.label_size
        wanted: dict[str, Pt] = {}
        for code in sorted(self.new):
            unit = self.units.get(code)
            if unit is None:
                continue
            below = (unit[0], unit[1] + board.unit_size * 1.05)
            shape = self.shapes.get(code)
            if shape is None:
                wanted[code] = below
                continue
            box = label_box(code, *below, board.label_size)
            if shape.buffer(-LABEL_MARGIN).contains(Polygon(
                    [(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])])):
                wanted[code] = below
                continue
            # no room under the unit (a merged province's long name, a small
            # part): the name's middle at the part's roomiest spot clear of
            # its markers, so that the name is on the part's own land or sea
            markers = [(*unit, board.unit_size * UNIT_ROOM)]
            if code in self.centres:
                markers.append((*self.centres[code], board.unit_size * CENTRE_ROOM))
            (x, y), _ = roomiest(shape, markers)
            wanted[code] = (x, y + board.label_size * 0.3)
        # the dislodged units' spots: the base board's in the provinces it had
        # (a new name may cover them if it must); each new part's once the
        # new names are written, clear of them (below)
        board = replace(board, units=self.units, centres=self.centres,
                        dislodged={loc: spot for loc, spot in board.dislodged.items()
                                   if loc in self.units and province_of(loc) not in self.new})
        unit_size = board.unit_size
        ghosts = [board.aside(loc, unit).box(unit_size) for loc, unit in self.units.items()
                  if self.base is None or province_of(loc) not in self.new]
        # units, centre markers and the names already placed
        obstacles = [unit_box(*unit, unit_size) for unit in self.units.values()]
        obstacles += [circle_box(x, y, board.unit_size * 0.26 + 0.4)
                      for x, y in self.centres.values()]
        obstacles += [label_box(code, x, y, size) for code, (x, y) in kept.items()]
        placed: dict[str, Pt] = {}
        for code, want in sorted(wanted.items()):
            shape = self.shapes.get(code)
            placed[code] = place_name(code, shape, want, obstacles, ghosts, size)
            obstacles.append(label_box(code, *placed[code], size))
        board = replace(board, areas=self.areas, labels=kept | placed)
        if self.base is not None:
            board = with_dislodged(self.map, board, {code: self.shapes[code] for code in self.new
                                                     if code in self.shapes})
            board = replace(board, dislodged={**self._displaced(board), **board.dislodged})
        patch = [self._cover(code, names[code]) for code in sorted(hidden)]
        patch += self.drawn
        patch.append(f'<g class="names" font-size="{number(size)}" text-anchor="middle" '
                     f'fill="#3b3224">')
        bold = ' font-weight="bold"'
        patch += [f'<text class="name" data-province="{code}" x="{number(x)}" y="{number(y)}"'
                  f'{bold if code in self.centres else ""}>{code}</text>'
                  for code, (x, y) in sorted(placed.items())]
        patch.append("</g>")
        return Redrawn(board, f'<g class="redrawn">{"".join(patch)}</g>', hidden,
                       {n: tuple((x, y) for x, y, *_ in line.coords)
                        for n, line in self.lines.items()},
                       {c: s for c, s in self.shapes.items() if c in self.codes},
                       {c: b for c, b in self.centre_base.items() if c in self.centres},
                       {loc: p for loc, p in self.former.items() if loc not in self.units})

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

    def _cover(self, code: str, spot: Pt) -> str:
        """Paint over a base name that is gone (the base picture shows it):
        each province under it in its own colour, keeping off the borders."""
        x, y = float(spot[0]), float(spot[1])
        left, top, right, bottom = label_box(code, x, y, self.board.label_size)
        wide = self.board.label_size * 0.5  # a name's M and W are wider than label_box allows
        box = Polygon([(left - wide, top - 0.6), (right + wide, top - 0.6),
                       (right + wide, bottom + 0.6), (left - wide, bottom + 0.6)])
        if self.base is None:
            return ""
        out = []
        for other, shape in sorted(self.base.shapes.items()):
            if other == EDGE or not shape.intersects(box):
                continue
            piece = box.intersection(shape.buffer(-COVER))
            if piece.is_empty or piece.area < 0.01:
                continue
            water = self.map.provinces[other].terrain is Terrain.WATER \
                if other in self.map.provinces else False
            out.append(f'<path class="covered-name" data-province="{code}" '
                       f'd="{area_data(piece)}" fill="{SEA if water else LAND}"/>')
        return "".join(out)


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
            if prov.terrain is not Terrain.IMPASSABLE)))
    work = _Redrawing(game_map, board, base)
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
