"""Where Diplomap's new borders run on a board drawn from artwork
(judge/maps/redrawn.py draws them): the base map's province shapes, the
stretch of border an Anchor names, and a line across a province or a
loop inside it, with the two parts it cuts the province into.

Geometry is in the board's coordinates (SVG: y down). The shapes are the
ones the rings were derived from (judge/maps/rings.py), so a border named
in an Anchor is the stretch the engine's ring names. Going clockwise round
a shape on the map is shapely's counter-clockwise here, since y runs down.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import shapely
from shapely import LineString, Point, Polygon, affinity, unary_union
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import polylabel, split, substring

from engine.diplomap.values import EDGE, Anchor, MapChange, Merge, Split
from judge.maps.postscript import ARTWORK, read_postscript, variant_points
from judge.maps.shapes import frame_line, province_shapes
from judge.maps.ways import grown, inside, shortest_way

Pt = tuple[float, float]

STEP = 0.5  # points: a border is looked at this often to find what it touches
NEAR = 0.05  # points: a shape this near the outline is what it touches there
REACH = 1.0  # points a new line is drawn on past each end, so it cuts its province
PULLS = (0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0)  # how far a line is bent towards the pole, in turn
# how far a line may be bent square to its chord: this share of the chord and
# these points (a unit's size), tried in this many steps either way
BEND_SHARE, BEND, BENDS = 0.3, 13.0, 6
LACK_STEP = 0.5  # points: parts' lack of room differing by less than this is the same
UNCLEAR = 4.0  # points of room a line skirting a border is as bad as the parts' lacking
CLEARANCE = 2.0  # points a new line keeps off other borders, away from its ends
END_REACH = 8.0  # points a new line leaves a border square to it
SEEN_STEPS = 201  # points a border is looked at to find its middle as seen


# -- the base map's shapes, once per process -------------------------------------

@dataclass(frozen=True, eq=False)  # hashed by identity: one per artwork
class BaseShapes:
    """A base map's provinces as shapes, made once per artwork and process."""

    shapes: dict[str, Polygon]  # each province's main piece, EDGE and SWI included
    full: dict[str, BaseGeometry]  # each province with its islands, for filling
    frame: LineString


def _flip(box: tuple[float, float, float, float]) -> list[float]:
    x0, _, _, y1 = box
    return [1, 0, 0, -1, -x0, y1]


@cache
def base_shapes(artwork: str, provinces: tuple[tuple[str, bool], ...],
                impassable: tuple[str, ...] = (),
                units: tuple[tuple[str, tuple[float, float]], ...] | None = None,
                centres: tuple[tuple[str, tuple[float, float]], ...] = ()) -> BaseShapes:
    """The base map's shapes in the board's coordinates: those its rings
    were derived from (judge/maps/rings.py), impassable land included.
    ``units``, ``centres``: the variant's [map] points, when given."""
    from judge.maps.rings import fixes_for, ring_shapes
    art = read_postscript((ARTWORK / artwork).read_text(encoding="latin-1"))
    flip = _flip(art.box)
    points, markers = (variant_points(art, dict(units), dict(centres)) if units is not None
                       else (dict(art.places), dict(art.centres)))
    full = province_shapes(art, dict(provinces), points, markers)
    water = dict(sorted([*provinces, *((code, False) for code in impassable)]))
    ringed = ring_shapes(art, water, fixes_for(artwork), points, markers)
    frame = affinity.affine_transform(frame_line(art), flip)
    return BaseShapes({c: affinity.affine_transform(s, flip) for c, s in ringed.items()},
                 {c: affinity.affine_transform(s, flip) for c, s in full.items()}, frame)


def outline_of(shape: Polygon) -> LineString:
    """The shape's outline, starting anywhere, clockwise as seen on the map."""
    return LineString(orient(shape, sign=1.0).exterior.coords)


@cache
def _runs(base: BaseShapes, code: str) -> tuple[tuple[str, float, float], ...]:
    """What the base province's outline touches, clockwise: (neighbour,
    from, to) in points along :func:`_outline`; ``to`` may pass the
    outline's length when a stretch runs on past its start."""
    outline = outline_of(base.shapes[code])
    others = [(c, s) for c, s in base.shapes.items()
              if c != code and s.distance(base.shapes[code]) <= NEAR]
    length = outline.length
    steps = max(int(length / STEP), 8)
    step = length / steps
    runs: list[list[str | float]] = []
    for index in range(steps):
        spot = outline.interpolate((index + 0.5) * step)
        found, best = "", NEAR
        for other, shape in others:
            distance = shape.distance(spot)
            if distance <= best:
                best, found = distance, other
        if not found and base.frame.distance(spot) <= NEAR:
            found = EDGE
        if runs and runs[-1][0] == found:
            runs[-1][2] = (index + 1) * step
        else:
            runs.append([found, index * step, (index + 1) * step])
    if len(runs) > 1 and runs[0][0] == runs[-1][0]:  # the stretch the outline starts in
        first = runs.pop(0)
        runs[-1][2] = float(first[2]) + length
    return tuple((str(w), float(a), float(b)) for w, a, b in runs)


def border(base: BaseShapes, code: str, neighbour: str) -> LineString:
    """The base border between ``code`` and ``neighbour`` (EDGE for the
    board's edge), clockwise round ``code``: its longest stretch."""
    runs = [r for r in _runs(base, code) if r[0] == neighbour]
    if not runs:
        raise ValueError(f"{code} has no border with {neighbour} on the base map")
    _, start, end = max(runs, key=lambda r: r[2] - r[1])
    outline = outline_of(base.shapes[code])
    length = outline.length
    if end <= length:
        return LineString(substring(outline, start, end).coords)
    head = list(substring(outline, start, length).coords)
    tail = list(substring(outline, 0, end - length).coords)
    return LineString(head + tail[1:])


# -- lines across provinces ----------------------------------------------------

def _bezier(a: Pt, b: Pt, c: Pt, d: Pt, steps: int = 24) -> list[Pt]:
    out = []
    for k in range(steps + 1):
        t = k / steps
        u = 1 - t
        w = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
        out.append((sum(wi * p[0] for wi, p in zip(w, (a, b, c, d), strict=True)),
                    sum(wi * p[1] for wi, p in zip(w, (a, b, c, d), strict=True))))
    return out


def inwards(shape: Polygon, at: Pt) -> Pt:
    """The unit vector at right angles to the outline at ``at``, into the shape."""
    ring = outline_of(shape)
    here = ring.project(Point(at))
    before, after = ring.interpolate(here - 1.0), ring.interpolate(here + 1.0)
    tx, ty = after.x - before.x, after.y - before.y
    norm = math.hypot(tx, ty) or 1.0
    nx, ny = -ty / norm, tx / norm
    if not shape.contains(Point(at[0] + nx, at[1] + ny)):
        nx, ny = -nx, -ny
    return nx, ny


def clear_of_borders(shape: Polygon, line: LineString, a: Pt, b: Pt) -> bool:
    """Whether the line keeps off the shape's other borders away from its
    ends: a line skirting a border would read as part of it."""
    ends = unary_union([Point(a).buffer(END_REACH), Point(b).buffer(END_REACH)])
    middle = line.difference(ends)
    return middle.is_empty or bool(grown(shape, -CLEARANCE).contains(middle))


def _towards(normal: Pt, way: Pt) -> Pt:
    """``normal``, or halfway between it and ``way`` where they part by
    more than half a right angle."""
    if normal[0] * way[0] + normal[1] * way[1] >= 0.7:
        return normal
    x, y = normal[0] + way[0], normal[1] + way[1]
    norm = math.hypot(x, y) or 1.0
    return x / norm, y / norm


def across(shape: Polygon, a: Pt, b: Pt,
           lack: Callable[[Polygon, Polygon], float] = lambda one, two: 0.0) -> LineString:
    """A smooth line inside ``shape`` from ``a`` to ``b`` (both on its
    outline), leaving each border at right angles as a border drawn by hand
    would, and otherwise as near the straight route from ``a`` to ``b`` as
    leaves each part the room it needs (``lack``: how far the two parts,
    first and second as :func:`cut` gives them, fall short of it) and keeps
    off the shape's other borders: through the chord's middle, or bent as
    little as that needs, across the chord or towards the shape's pole;
    else the shortest way through the shape."""
    pole = polylabel(shape, 0.5)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    chord = math.dist(a, b) or 1.0
    along = ((b[0] - a[0]) / chord, (b[1] - a[1]) / chord)
    # each end leaves its border square to it, turned halfway towards the
    # other end where the border faces away from it: no hook at the end
    na = _towards(inwards(shape, a), along)
    nb = _towards(inwards(shape, b), (-along[0], -along[1]))
    best: tuple[tuple[float, float], LineString] | None = None
    # the straight way too: between two borders meeting at a corner, ends
    # leaving their borders square to them would hook into the corner's part
    lines = [(LineString([a, b]), mid)] + [
        (_through(a, b, through, na, nb, along), through)
        for through in _throughs(mid, (pole.x, pole.y), along, chord)]
    for line, through in lines:
        if not inside(shape, line):
            continue
        # between two borders close together the chord leaves a sliver no
        # unit or name fits in, or skirts a border: bend it, as little as
        # will do
        clear = clear_of_borders(shape, line, a, b)
        short = round(lack(*cut(shape, line, a, b)) / LACK_STEP) * LACK_STEP
        if clear and short == 0:
            return line
        # a line skirting a border reads as part of it: worth a part's
        # lacking UNCLEAR points of room, no more
        key = (short + (0.0 if clear else UNCLEAR), math.dist(through, mid))
        if best is None or key < best[0]:
            best = (key, line)
    return best[1] if best is not None else shortest_way(shape, a, b)


def best_ends(shape: Polygon, starts: Sequence[Pt], ends: Sequence[Pt],
              lack: Callable[[Polygon, Polygon], float]) -> tuple[int, int]:
    """Of the spots a line may start and end at (each list the one wanted
    first, then the others), the pair (their places in the lists) whose
    straight way through the shape leaves the parts the least short of
    room: where along its borders a line runs is the judge's to choose,
    and a line between the middles of two borders meeting at a corner cuts
    off a sliver (Belgium's Pic-Bur)."""
    best: tuple[tuple[float, int], tuple[int, int]] = ((math.inf, 0), (0, 0))
    for i, a in enumerate(starts):
        for j, b in enumerate(ends):
            chord = LineString([a, b])
            if math.dist(a, b) < 1.0 or not inside(shape, chord):
                continue
            short = round(lack(*cut(shape, chord, a, b)) / LACK_STEP) * LACK_STEP
            key = (short, i + j)
            if key < best[0]:
                best = (key, (i, j))
    return best[1]


def _throughs(mid: Pt, pole: Pt, along: Pt, chord: float) -> list[Pt]:
    """The points a line may pass through, nearest the chord's middle
    first: towards the shape's pole, and square to the chord either way as
    far as a line may stray from its chord (BEND_SHARE of it and BEND)."""
    spots = [(mid[0] + (pole[0] - mid[0]) * pull, mid[1] + (pole[1] - mid[1]) * pull)
             for pull in PULLS]
    across_ = (-along[1], along[0])
    for k in range(1, BENDS + 1):
        far = (BEND_SHARE * chord + BEND) * k / BENDS
        spots += [(mid[0] + across_[0] * far * sign, mid[1] + across_[1] * far * sign)
                  for sign in (1, -1)]
    return sorted(spots, key=lambda p: math.dist(p, mid))


def _through(a: Pt, b: Pt, through: Pt, na: Pt, nb: Pt, along: Pt) -> LineString:
    """Two cubics from ``a`` to ``b`` meeting smoothly at ``through``,
    parallel to the chord there, leaving ``a`` along ``na`` and reaching
    ``b`` along ``nb``."""
    # leaving the border square to it for a short way only: a long line's
    # ends bent out far would wander from the straight route
    reach_a = min(math.dist(a, through) / 3, END_REACH)
    reach_b = min(math.dist(through, b) / 3, END_REACH)
    half_a, half_b = math.dist(a, through) / 3, math.dist(through, b) / 3
    first = _bezier(a, (a[0] + na[0] * reach_a, a[1] + na[1] * reach_a),
                    (through[0] - along[0] * half_a, through[1] - along[1] * half_a),
                    through, 12)
    second = _bezier(through, (through[0] + along[0] * half_b, through[1] + along[1] * half_b),
                     (b[0] + nb[0] * reach_b, b[1] + nb[1] * reach_b), b, 12)
    return LineString(first + second[1:])


def _extended(line: LineString) -> LineString:
    """The line drawn on a little past each end, so that it cuts its shape."""
    coords = list(line.coords)

    def past(end: Sequence[float], before: Sequence[float]) -> Pt:
        dx, dy = end[0] - before[0], end[1] - before[1]
        norm = math.hypot(dx, dy) or 1.0
        return end[0] + dx / norm * REACH, end[1] + dy / norm * REACH

    return LineString([past(coords[0], coords[1]), *coords, past(coords[-1], coords[-2])])


def cut(shape: Polygon, line: LineString, a: Pt, b: Pt) -> tuple[Polygon, Polygon]:
    """The shape's two parts either side of the line: first the one along
    the outline going clockwise from ``a`` to ``b`` (the engine's first part)."""
    pieces = [p for p in split(shape, _extended(line)).geoms if isinstance(p, Polygon)]
    if len(pieces) < 2:
        rest = shape.difference(line.buffer(0.05))
        pieces = [p for p in getattr(rest, "geoms", [rest]) if isinstance(p, Polygon)]
    outline = outline_of(shape)
    length = outline.length
    at_a, at_b = outline.project(Point(a)), outline.project(Point(b))
    arc = (at_b - at_a) % length
    spot = outline.interpolate((at_a + min(2.0, arc / 2)) % length)
    first = min(pieces, key=lambda p: p.distance(spot))
    rest_pieces = [p for p in pieces if p is not first]
    second = largest(unary_union(rest_pieces)) if rest_pieces else first
    return first, second


def largest(shape: BaseGeometry) -> Polygon:
    parts = [p for p in getattr(shape, "geoms", [shape]) if isinstance(p, Polygon)]
    return max(parts, key=lambda p: p.area)


# -- where on a border a line ends --------------------------------------------

def seen_along(stretch: LineString, at: float) -> Point:
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
    spots = shapely.line_interpolate_point(stretch, shares, normalized=True)
    xs, ys = shapely.get_x(spots), shapely.get_y(spots)
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


def border_key(anchor: Anchor) -> tuple[tuple[str, str], float]:
    """The border an anchor is on, as its two sides in order, and the
    anchor's fraction along it clockwise round the first: the same border
    named from either side gives the same."""
    one, other = anchor.province, anchor.neighbour
    if other == EDGE or one < other:
        return (one, other), anchor.at
    return (other, one), 1 - anchor.at


def ends_on_borders(changes: Sequence[MapChange]) -> dict[tuple[str, str], list[float]]:
    """Every line's ends and every erased stretch's, per base border."""
    found: dict[tuple[str, str], list[float]] = {}
    for change in changes:
        anchors = [change.start, change.end] if isinstance(change, Split) else [
            a for pair in change.erased for a in pair] if isinstance(change, Merge) else []
        for anchor in anchors:
            if not anchor.neighbour.startswith("LINE:"):
                key, at = border_key(anchor)
                found.setdefault(key, []).append(at)
    return found
