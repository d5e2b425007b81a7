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

import heapq
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import shapely
from shapely import LineString, MultiLineString, Point, Polygon, affinity, contains_xy, unary_union
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import linemerge, polylabel, split, substring

from engine.diplomap.values import EDGE
from judge.maps.postscript import ARTWORK, read_postscript
from judge.maps.room import roomiest
from judge.maps.shapes import province_shapes

Pt = tuple[float, float]

STEP = 0.5  # points: a border is looked at this often to find what it touches
NEAR = 0.05  # points: a shape this near the outline is what it touches there
REACH = 1.0  # points a new line is drawn on past each end, so it cuts its province
VISIBLE_SIMPLIFY = 0.3  # points: the outline's detail a way round its corners ignores
PULLS = (0.0, 0.1, 0.2, 0.35, 0.5, 0.7, 1.0)  # how far a line is bent towards the pole, in turn
BULBS = tuple(k / 10 for k in range(10, 2, -1))  # a loop's width, in shares of the room wanted
CLEARANCE = 2.0  # points a new line keeps off other borders, away from its ends
END_REACH = 8.0  # points a new line leaves a border square to it


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
def base_shapes(artwork: str, provinces: tuple[tuple[str, bool], ...]) -> BaseShapes:
    """The base map's shapes in the board's coordinates. The standard map's
    are those its rings were derived from; another artwork's are its faces."""
    from judge.maps.rings import _main_part, shapes_for_rings
    art = read_postscript((ARTWORK / artwork).read_text(encoding="latin-1"))
    flip = _flip(art.box)
    full = province_shapes(art, dict(provinces))
    ringed = shapes_for_rings() if artwork == "standard.ps" else {
        code: _main_part(shape) for code, shape in full.items()}
    x0, y0, x1, y1 = art.box
    frame = LineString([(0, 0), (x1 - x0, 0), (x1 - x0, y1 - y0), (0, y1 - y0), (0, 0)])
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

def _inside(shape: BaseGeometry, line: LineString) -> bool:
    return bool(shape.buffer(0.3).contains(line))


def _bezier(a: Pt, b: Pt, c: Pt, d: Pt, steps: int = 24) -> list[Pt]:
    out = []
    for k in range(steps + 1):
        t = k / steps
        u = 1 - t
        w = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
        out.append((sum(wi * p[0] for wi, p in zip(w, (a, b, c, d), strict=True)),
                    sum(wi * p[1] for wi, p in zip(w, (a, b, c, d), strict=True))))
    return out


def _inwards(shape: Polygon, at: Pt) -> Pt:
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


def _clear(shape: Polygon, line: LineString, a: Pt, b: Pt) -> bool:
    """Whether the line keeps off the shape's other borders away from its
    ends: a line skirting a border would read as part of it."""
    ends = unary_union([Point(a).buffer(END_REACH), Point(b).buffer(END_REACH)])
    middle = line.difference(ends)
    return middle.is_empty or bool(shape.buffer(-CLEARANCE).contains(middle))


def _towards(normal: Pt, way: Pt) -> Pt:
    """``normal``, or halfway between it and ``way`` where they part by
    more than half a right angle."""
    if normal[0] * way[0] + normal[1] * way[1] >= 0.7:
        return normal
    x, y = normal[0] + way[0], normal[1] + way[1]
    norm = math.hypot(x, y) or 1.0
    return x / norm, y / norm


def across(shape: Polygon, a: Pt, b: Pt, room: float = 0.0) -> LineString:
    """A smooth line inside ``shape`` from ``a`` to ``b`` (both on its
    outline), leaving each border at right angles as a border drawn by hand
    would, and otherwise as near the straight route from ``a`` to ``b`` as
    leaves each part ``room`` (a unit and its name) clear of every border:
    through the chord's middle, or bent as little as that needs towards the
    shape's pole; else the shortest way through the shape."""
    pole = polylabel(shape, 0.5)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    chord = math.dist(a, b) or 1.0
    along = ((b[0] - a[0]) / chord, (b[1] - a[1]) / chord)
    # each end leaves its border square to it, turned halfway towards the
    # other end where the border faces away from it: no hook at the end
    na = _towards(_inwards(shape, a), along)
    nb = _towards(_inwards(shape, b), (-along[0], -along[1]))
    best: tuple[tuple[bool, float], LineString] | None = None
    for pull in PULLS:
        through = (mid[0] + (pole.x - mid[0]) * pull, mid[1] + (pole.y - mid[1]) * pull)
        # leaving the border square to it for a short way only: a long line's
        # ends bent out far would wander from the straight route
        reach_a = min(math.dist(a, through) / 3, END_REACH)
        reach_b = min(math.dist(through, b) / 3, END_REACH)
        half_a, half_b = math.dist(a, through) / 3, math.dist(through, b) / 3
        # two cubics meeting smoothly at ``through``, parallel to the chord there
        first = _bezier(a, (a[0] + na[0] * reach_a, a[1] + na[1] * reach_a),
                        (through[0] - along[0] * half_a, through[1] - along[1] * half_a),
                        through, 12)
        second = _bezier(through, (through[0] + along[0] * half_b,
                                   through[1] + along[1] * half_b),
                         (b[0] + nb[0] * reach_b, b[1] + nb[1] * reach_b), b, 12)
        line = LineString(first + second[1:])
        if not _inside(shape, line):
            continue
        # between two borders close together the chord leaves a sliver no
        # unit or name fits in, or skirts a border: bend it further in, as
        # little as will do
        clear = _clear(shape, line, a, b)
        one, two = cut(shape, line, a, b)
        least = min(roomiest(one)[1], roomiest(two)[1])
        if clear and least >= room:
            return line
        if best is None or (clear, least) > best[0]:
            best = ((clear, least), line)
    return best[1] if best is not None else _shortest_way(shape, a, b)


def _main_component(nodes: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The largest group of grid points joined to each other (8 ways)."""
    left, best = set(nodes), set[tuple[int, int]]()
    while left:
        seed = left.pop()
        group, todo = {seed}, [seed]
        while todo:
            i, j = todo.pop()
            for nxt in ((i + di, j + dj) for di in (-1, 0, 1) for dj in (-1, 0, 1)):
                if nxt in left:
                    left.discard(nxt)
                    group.add(nxt)
                    todo.append(nxt)
        if len(group) > len(best):
            best = group
    return best


def _shortest_way(shape: Polygon, a: Pt, b: Pt) -> LineString:
    """The shortest way from ``a`` to ``b`` through the shape, on a grid
    fine enough for it to stay inside (an end in a narrow strait needs a
    finer one than the open sea)."""
    coarse = max(0.8, math.sqrt(shape.area) / 30)
    line = LineString([a, b])
    for step in (coarse, coarse / 2, coarse / 4):
        line = _on_grid(shape, a, b, step)
        if _inside(shape, line):
            return line
    # an end deep in an inlet narrower than the finest grid (the North
    # Atlantic's reach into Liverpool's coast): round the outline's corners
    return _visible_way(shape, a, b) or line


def _visible_way(shape: Polygon, a: Pt, b: Pt) -> LineString | None:
    """The shortest way from ``a`` to ``b`` inside the shape from corner to
    corner of its (simplified) outline, each leg in plain sight of the
    next; None if there is none."""
    simple = shape.simplify(VISIBLE_SIMPLIFY)
    corners = list((simple if isinstance(simple, Polygon) else shape).exterior.coords)[:-1]
    spots = [a, b, *corners]
    count = len(spots)
    first, second = np.triu_indices(count, k=1)
    xy = np.asarray(spots)
    legs = shapely.linestrings(np.stack([xy[first], xy[second]], axis=1))
    room = shape.buffer(0.3)
    shapely.prepare(room)
    seen = shapely.contains(room, legs)
    near: dict[int, list[tuple[int, float]]] = {k: [] for k in range(count)}
    for i, j in zip(first[seen].tolist(), second[seen].tolist(), strict=True):
        length = math.dist(spots[i], spots[j])
        near[i].append((j, length))
        near[j].append((i, length))
    cost, came, queue = {0: 0.0}, {0: -1}, [(0.0, 0)]
    while queue:
        so_far, at = heapq.heappop(queue)
        if at == 1:
            break
        if so_far > cost[at]:
            continue
        for nxt, length in near[at]:
            if so_far + length < cost.get(nxt, math.inf):
                cost[nxt], came[nxt] = so_far + length, at
                heapq.heappush(queue, (so_far + length, nxt))
    if 1 not in came:
        return None
    path, step = [], 1
    while step != -1:
        path.append(spots[step])
        step = came[step]
    return LineString(reversed(path))


def _on_grid(shape: Polygon, a: Pt, b: Pt, step: float) -> LineString:
    """The shortest way from ``a`` to ``b`` on a grid of points ``step``
    apart inside the shape, smoothed where smoothing keeps it inside."""
    minx, miny, maxx, maxy = shape.bounds
    xs, ys = np.meshgrid(np.arange(minx, maxx + step, step), np.arange(miny, maxy + step, step))
    inner = shape.buffer(-step * 0.4)
    keep = contains_xy(inner, xs, ys)
    nodes = {(int(i), int(j)) for i, j in zip(*np.nonzero(keep), strict=True)}
    if not nodes:
        return LineString([a, b])

    def spot(node: tuple[int, int]) -> Pt:
        return float(xs[node]), float(ys[node])

    nodes = _main_component(nodes)  # a narrow strait's pocket may be cut off the rest
    start = min(nodes, key=lambda n: math.dist(spot(n), a))
    goal = min(nodes, key=lambda n: math.dist(spot(n), b))
    came: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
    cost = {start: 0.0}
    queue = [(0.0, start)]
    while queue:
        so_far, node = heapq.heappop(queue)
        if node == goal:
            break
        if so_far > cost[node]:
            continue
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                nxt = (node[0] + di, node[1] + dj)
                if nxt == node or nxt not in nodes:
                    continue
                new = so_far + math.hypot(di, dj)
                if new < cost.get(nxt, math.inf):
                    cost[nxt], came[nxt] = new, node
                    heapq.heappush(queue, (new, nxt))
    path: list[Pt] = []
    at: tuple[int, int] | None = goal if goal in came else None
    while at is not None:
        path.append(spot(at))
        at = came[at]
    whole = LineString([a, *reversed(path), b])
    line = whole
    for tolerance in (step * 0.7, step * 0.3):  # fewer corners, if it stays inside
        simple = whole.simplify(tolerance)
        if isinstance(simple, LineString) and _inside(shape, simple):
            line = simple
            break
    for _ in range(3):  # Chaikin's corner cutting, while it stays inside
        coords = list(line.coords)
        smooth = [coords[0]]
        for p, q in itertools.pairwise(coords):
            smooth += [(0.75 * p[0] + 0.25 * q[0], 0.75 * p[1] + 0.25 * q[1]),
                       (0.25 * p[0] + 0.75 * q[0], 0.25 * p[1] + 0.75 * q[1])]
        candidate = LineString([*smooth, coords[-1]])
        if not _inside(shape, candidate):
            break
        line = candidate
    return line


def loop(shape: Polygon, middle: Pt, reach: float, room: float = 0.0) -> LineString:
    """A loop's line: the arc inside ``shape`` of a circle about
    ``middle`` (a point of its border); with the border it encloses a
    half-disc, the loop's part. As wide as ``room`` (a unit and its name)
    where the circle crosses no other border, else the widest that does
    not, and at least ``reach``."""
    pole = polylabel(shape, 0.5)
    towards = math.dist(middle, (pole.x, pole.y))
    radius = max(1.0, min(reach, towards * 0.85))
    for share in BULBS:
        wide = room * share
        if wide <= radius:
            break
        arcs = _arcs(shape, middle, wide)
        if len(arcs) == 1:  # the circle meets the outline only either side of ``middle``
            return arcs[0]
    return max(_arcs(shape, middle, radius), key=lambda p: p.length)


def _arcs(shape: Polygon, middle: Pt, radius: float) -> list[LineString]:
    arcs = Point(middle).buffer(radius, 32).exterior.intersection(shape)
    if isinstance(arcs, MultiLineString):
        arcs = linemerge(arcs)
    return [p for p in getattr(arcs, "geoms", [arcs]) if isinstance(p, LineString)]


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
