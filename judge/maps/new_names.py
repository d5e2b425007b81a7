"""Where the names of Diplomap's new provinces go on a redrawn board
(judge/maps/redrawn.py).

A name goes inside the part it names, clear of the part's borders and of
everything drawn there (units, where a dislodged unit is drawn, centre
markers, other names), as the base map writes its names. A part too
small for that (half of Holland, a loop) is named as an atlas names a
small island: the name beside it, where it fits clear of every border
and marker, with a leader line from the name to a spot inside the part.
A smaller font is no way out: the board writes its names at the size
that is just legible at mail size (docs/maps.md), so a name cannot
shrink into a part that lacks room.

A name's box is measured with the widths of DejaVu Sans, the font the
maps are drawn in, so that a name said to fit does fit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely import LineString, Polygon, STRtree
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from engine.diplomap.values import EDGE
from judge.maps.board import LAND, SEA, area_data, number
from judge.maps.labels import ASCENT, DESCENT, Box, label_box
from judge.maps.room import roomiest
from judge.maps.text_width import advance

Pt = tuple[float, float]

MARGIN = 0.8  # points a name keeps off any border (1.3 px at mail size: the check asks 1)
STEP = 1 / 3  # font sizes between the spots tried
INSIDE_REACH = 4.0  # font sizes round the spot wanted, and round the part's pole
BESIDE_REACH = 6.0  # font sizes round the part a name with a leader is written within
FAR_REACH = 12.0  # the same, where nothing nearer has room
# the tries, in turn: what a name may lie over (Surroundings.drawn's
# ``spared``), how far from its part it may be written (font sizes), and
# whether it is tried inside its part before beside it
TIERS = ((0, BESIDE_REACH, True), (1, BESIDE_REACH, True), (1, FAR_REACH, False),
         (2, FAR_REACH, True))
LEADER_GAP = 0.5  # points between a name's letters and its leader
LEADER_APART = 1.0  # points between two leaders
# in font sizes: how far a name's box stands off its letters at the side, top and bottom
INK_SIDE, INK_TOP, INK_BOTTOM = 0.05, 0.03, 0.1
LEADER_INSET = 1.6  # points a leader's end keeps inside its part, off its borders
LEADER_WIDTH = 0.5
DOT = 0.8  # the radius of the dot that ends a leader, in points
NAME_INK = "#3b3224"  # the base board's names' colour (templates/map-board.svg.j2)
COVER = 0.6  # points a gone name's cover keeps off the borders (half a border)
TRIED = 40  # spots beside a part whose leaders are worked out, nearest first


def name_width(code: str, size: float, bold: bool) -> float:
    return advance(code, bold) * size


def name_box(code: str, x: float, y: float, size: float, bold: bool) -> Box:
    """The box a name written with its baseline's middle at (x, y) covers."""
    half = name_width(code, size, bold) / 2
    return x - half, y - size * ASCENT, x + half, y + size * DESCENT


@dataclass(frozen=True)
class Placed:
    """Where a name is written (its baseline's middle), and its leader, if
    it stands beside its part: from beside the name to a spot inside it."""

    at: Pt
    leader: tuple[Pt, Pt] | None = None


@dataclass
class Surroundings:
    """What a new name must keep clear of on the board, and the areas a
    name beside its part may be written in: every province in force, each
    on its own (a name is not written across a border)."""

    areas: Mapping[str, BaseGeometry]
    units: list[Box]  # where each location's unit stands
    ghosts: list[Box]  # where a dislodged unit is drawn beside each
    centres: list[Box]
    names: list[Box] = field(default_factory=list)  # names written, base and new
    leaders: list[LineString] = field(default_factory=list)
    size: float = 6.0  # the names' font size
    displaced: list[Box] = field(default_factory=list)  # units displaced by a split

    def __post_init__(self) -> None:
        codes = sorted(self.areas)
        self._codes = codes
        self._homes = STRtree([self.areas[c].buffer(-MARGIN) for c in codes])
        self._areas = STRtree([self.areas[c] for c in codes])

    def drawn(self, spared: int, own: Sequence[Box] = ()) -> list[Box]:
        """What is drawn over the board, or may be: with ``spared`` 1, all
        but the spots of dislodged units, which a retreat phase alone
        draws; with 2, nor where other provinces' units may stand (a name
        there is hidden only while a unit stands there; one across a
        border always reads as the neighbour's)."""
        drawn = self.names + self.centres + self.displaced + list(own)
        return drawn + (self.units if spared < 2 else []) + (self.ghosts if spared < 1 else [])

    def crossed(self, line: LineString) -> list[str]:
        """The areas ``line`` passes through (more than touches)."""
        found = self._areas.query(line, predicate="intersects")
        return [self._codes[int(k)] for k in found
                if self.areas[self._codes[int(k)]].intersection(line).length > 0.1]

    def homes(self, boxes: np.ndarray) -> np.ndarray:
        """For each box, the area it lies in off the borders ('' for none)."""
        found = np.full(len(boxes), "", dtype=object)
        pairs = self._homes.query(boxes, predicate="within")
        for box_index, area_index in zip(*pairs, strict=True):
            found[box_index] = self._codes[int(area_index)]
        return found


@dataclass(frozen=True)
class Wanted:
    """A new name to place: the part it names (None on a schematic board),
    the spot wanted for it (under its unit), whether it is bold (a centre's),
    and the boxes of the markers standing in the part (its unit, where a
    dislodged one is drawn, its centre marker)."""

    part: BaseGeometry | None
    at: Pt
    bold: bool
    own: tuple[Box, ...] = ()
    kin: frozenset[str] = frozenset()  # the areas a name beside the part reads best in


def place_names(wanted: Mapping[str, Wanted], around: Surroundings) -> dict[str, Placed]:
    """Where each new name goes: inside its part clear of its borders and
    everything drawn, nearest the spot wanted; else beside the part with a
    leader; then the same where only a dislodged unit (in a retreat phase)
    could cover it, then further off, then where another province's unit
    could stand (TIERS); else (no room anywhere near) as much inside the
    part as can be. At each step every name is tried inside its part
    before any is written beside its own, so that a small part's name does
    not take the room a larger neighbour's needs. Each name placed is kept
    clear of by the next."""
    placed: dict[str, Placed] = {}

    def keep(code: str, where: Placed) -> None:
        placed[code] = where
        around.names.append(name_box(code, *where.at, around.size, wanted[code].bold))
        if where.leader is not None:
            around.leaders.append(LineString(where.leader))

    for code, want in sorted(wanted.items()):
        if want.part is None:
            keep(code, Placed(want.at))
    for spared, reach, within in TIERS:
        for code, want in sorted(wanted.items()):
            if code not in placed and want.part is not None and within:
                inside = _inside(code, want.part, want.at, want.bold, around,
                                 around.drawn(spared, want.own))
                if inside is not None:
                    keep(code, Placed(inside))
        for code, want in sorted(wanted.items()):
            if code not in placed and want.part is not None:
                beside = _beside(code, want, around, around.drawn(spared, want.own), reach)
                if beside is not None:
                    keep(code, beside)
    for code, want in sorted(wanted.items()):
        if code not in placed and want.part is not None:
            keep(code, Placed(_most_inside(code, want.part, want.at, want.bold, around)))
    return placed


def _spots(centres: Sequence[Pt], reach: float, step: float) -> tuple[np.ndarray, np.ndarray]:
    grid = np.arange(-reach, reach + step / 2, step)
    dxs, dys = (a.ravel() for a in np.meshgrid(grid, grid))
    xs = np.concatenate([x + dxs for x, _ in centres])
    ys = np.concatenate([y + dys for _, y in centres])
    return xs, ys


Boxes = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # lefts, tops, rights, bottoms


def _shapes(boxes: Boxes) -> np.ndarray:
    return np.asarray(shapely.box(boxes[0], boxes[1], boxes[2], boxes[3]))


def _boxes(code: str, xs: np.ndarray, ys: np.ndarray, size: float, bold: bool) -> Boxes:
    half = name_width(code, size, bold) / 2
    return xs - half, ys - size * ASCENT, xs + half, ys + size * DESCENT


def _covered(boxes: Boxes, others: Sequence[Box]) -> np.ndarray:
    """How much of each name's box the ``others`` cover, all told."""
    lefts, tops, rights, bottoms = boxes
    total = np.zeros_like(lefts)
    for left, top, right, bottom in others:
        wide = np.clip(np.minimum(rights, right) - np.maximum(lefts, left), 0, None)
        high = np.clip(np.minimum(bottoms, bottom) - np.maximum(tops, top), 0, None)
        total += wide * high
    return total


def _near(boxes: Sequence[Box], within: Box) -> list[Box]:
    left, top, right, bottom = within
    return [b for b in boxes if b[0] < right and left < b[2] and b[1] < bottom and top < b[3]]


def _crossed(boxes: Boxes, lines: Sequence[LineString]) -> np.ndarray:
    if not lines:
        return np.zeros(len(boxes[0]), dtype=bool)
    crossed = shapely.intersects(_shapes(boxes)[:, None], np.array(lines, dtype=object)[None, :])
    return np.asarray(np.asarray(crossed, dtype=bool).any(axis=1))


def _inside(code: str, part: BaseGeometry, want: Pt, bold: bool, around: Surroundings,
            drawn: Sequence[Box]) -> Pt | None:
    """The spot nearest ``want`` where the name lies wholly inside the part,
    off its borders, and clear of everything drawn; None if there is none."""
    room = part.buffer(-MARGIN)
    if room.is_empty:
        return None
    size = around.size
    (px, py), _ = roomiest(part)
    xs, ys = _spots([want, (px, py + size * (ASCENT - DESCENT) / 2)], INSIDE_REACH * size,
                    STEP * size)
    boxes = _boxes(code, xs, ys, size, bold)
    fits = np.asarray(shapely.contains(room, _shapes(boxes)))
    if not fits.any():
        return None
    xs, ys = xs[fits], ys[fits]
    boxes = (boxes[0][fits], boxes[1][fits], boxes[2][fits], boxes[3][fits])
    bounds = (float(boxes[0].min()), float(boxes[1].min()),
              float(boxes[2].max()), float(boxes[3].max()))
    clear = (_covered(boxes, _near(drawn, bounds)) == 0) & ~_crossed(boxes, around.leaders)
    if not clear.any():
        return None
    xs, ys = xs[clear], ys[clear]
    best = int(np.argmin(np.hypot(xs - want[0], ys - want[1])))
    return float(xs[best]), float(ys[best])


def _beside(code: str, want: Wanted, around: Surroundings, drawn: Sequence[Box],
            reach: float) -> Placed | None:
    """The name beside the part, in another area off its borders and clear
    of everything drawn, with a leader to a spot inside the part that
    crosses nothing drawn but the part's own markers (a leader under its
    part's unit points at the part all the same): the shortest such leader,
    one crossing no other province first, then one from the sea or the
    rest of the part's base province. The leader ends clear of the part's
    markers where the part has room for that."""
    assert want.part is not None
    part, bold, own = want.part, want.bold, want.own
    size = around.size
    left, top, right, bottom = part.bounds
    reach *= size
    step = STEP * size * 1.5
    xs, ys = np.meshgrid(np.arange(left - reach, right + reach, step),
                         np.arange(top - reach, bottom + reach, step))
    xs, ys = xs.ravel(), ys.ravel()
    boxes = _boxes(code, xs, ys, size, bold)
    bounds = (left - reach * 2, top - reach * 2, right + reach * 2, bottom + reach * 2)
    near = _near(drawn, bounds)
    ok = _covered(boxes, near) == 0  # the cheap tests first
    ok[ok] = ~_crossed((boxes[0][ok], boxes[1][ok], boxes[2][ok], boxes[3][ok]), around.leaders)
    shapes = _shapes(boxes)
    ok[ok] = ~np.asarray(shapely.intersects(shapes[ok], part.buffer(MARGIN)))
    homes = np.full(len(xs), "", dtype=object)
    homes[ok] = around.homes(shapes[ok])
    ok &= homes != ""
    if not ok.any():
        return None
    # the nearest spots in the sea or the rest of the part's province, and
    # the nearest elsewhere: the first are preferred however near the others
    indices = np.nonzero(ok)[0]
    distance = np.asarray(shapely.distance(shapes[indices], part))
    kin = np.array([home in want.kin for home in homes[indices]], dtype=bool)
    nearest = np.concatenate([
        indices[group][np.argsort(distance[group], kind="stable")[:TRIED]]
        for group in (kin, ~kin)])
    others = [b for b in near if b not in own]
    target = _target_room(part, others, own)
    crossing = _shapes(tuple(np.array(others).T)) if others else np.array([])
    best: tuple[tuple[bool, int, float], Placed] | None = None
    for index in nearest.tolist():
        # from the letters' own box (a box's edges stand off the letters:
        # side bearings, and room below the baseline for a descender)
        left, top, right, bottom = (b[index] for b in boxes)
        ink = shapely.box(left + size * INK_SIDE, top + size * INK_TOP,
                          right - size * INK_SIDE, bottom - size * INK_BOTTOM)
        start, end = nearest_points(ink.buffer(LEADER_GAP, join_style="mitre").exterior, target)
        leader = LineString([start, end])
        if shapely.intersects(leader, crossing).any() or \
                any(leader.distance(line) < LEADER_APART for line in around.leaders):
            continue
        # the areas the leader passes through besides the name's and the part's
        passed = sum(1 for c in around.crossed(leader) if c not in (homes[index], code))
        score = (homes[index] not in want.kin, passed, leader.length)
        if best is None or score < best[0]:
            at = (float(xs[index]), float(ys[index]))
            best = (score, Placed(at, ((start.x, start.y), (end.x, end.y))))
    return best[1] if best is not None else None


def _target_room(part: BaseGeometry, others: Sequence[Box], own: Sequence[Box]
                 ) -> BaseGeometry:
    """Where a leader may end: inside the part off its borders, off every
    marker; failing that off the other provinces' markers at least."""
    room: BaseGeometry = part.buffer(-LEADER_INSET)
    if room.is_empty:
        room = part.buffer(-0.1) if not part.buffer(-0.1).is_empty else part
    for markers in ([*others, *own], others):
        free = _without(room, markers)
        if not free.is_empty:
            return free
    return room


def _without(room: BaseGeometry, markers: Sequence[Box]) -> BaseGeometry:
    left, top, right, bottom = room.bounds
    pad = DOT + 0.3
    on = [(m[0] - pad, m[1] - pad, m[2] + pad, m[3] + pad)
          for m in _near(markers, (left - pad, top - pad, right + pad, bottom + pad))]
    if not on:
        return room
    lefts, tops, rights, bottoms = np.array(on).T
    return room.difference(shapely.union_all(shapely.box(lefts, tops, rights, bottoms)))


def _most_inside(code: str, part: BaseGeometry, want: Pt, bold: bool,
                 around: Surroundings) -> Pt:
    """No room anywhere: the spot round ``want`` with the most of the name
    inside the part, clear of the most of what is drawn."""
    size = around.size
    xs, ys = _spots([want], INSIDE_REACH * size, STEP * size)
    boxes = _boxes(code, xs, ys, size, bold)
    share = np.asarray(shapely.area(shapely.intersection(_shapes(boxes), part)))
    covered = _covered(boxes, around.drawn(1))
    order = np.lexsort((np.hypot(xs - want[0], ys - want[1]), covered, -np.round(share, 1)))
    best = int(order[0])
    return float(xs[best]), float(ys[best])


def names_patch(placed: Mapping[str, Placed], centres: set[str], size: float) -> str:
    """The new names, a centre's in bold, each with its leader if it has one."""
    out = [f'<g class="names" font-size="{number(size)}" text-anchor="middle" '
           f'fill="{NAME_INK}">']
    for code, where in sorted(placed.items()):
        if where.leader is not None:
            (x0, y0), (x1, y1) = where.leader
            out.append(f'<path class="leader" data-province="{code}" '
                       f'd="M{number(x0)} {number(y0)}L{number(x1)} {number(y1)}" fill="none" '
                       f'stroke="{NAME_INK}" stroke-width="{number(LEADER_WIDTH)}"/>'
                       f'<circle class="leader-end" data-province="{code}" cx="{number(x1)}" '
                       f'cy="{number(y1)}" r="{number(DOT)}"/>')
    for code, where in sorted(placed.items()):
        bold = ' font-weight="bold"' if code in centres else ""
        out.append(f'<text class="name" data-province="{code}" x="{number(where.at[0])}" '
                   f'y="{number(where.at[1])}"{bold}>{code}</text>')
    out.append("</g>")
    return "".join(out)


def cover_name(code: str, spot: Pt, size: float, shapes: Mapping[str, BaseGeometry],
               water: Mapping[str, bool]) -> str:
    """Paint over a base name that is gone (the base picture shows it):
    each province under it in its own colour, keeping off the borders."""
    x, y = float(spot[0]), float(spot[1])
    left, top, right, bottom = label_box(code, x, y, size)
    wide = size * 0.5  # a name's M and W are wider than label_box allows
    box = Polygon([(left - wide, top - 0.6), (right + wide, top - 0.6),
                   (right + wide, bottom + 0.6), (left - wide, bottom + 0.6)])
    out = []
    for other, shape in sorted(shapes.items()):
        if other == EDGE or not shape.intersects(box):
            continue
        piece = box.intersection(shape.buffer(-COVER))
        if piece.is_empty or piece.area < 0.01:
            continue
        out.append(f'<path class="covered-name" data-province="{code}" '
                   f'd="{area_data(piece)}" fill="{SEA if water.get(other) else LAND}"/>')
    return "".join(out)
