"""Ways through a shape (a province on a redrawn board): whether a line
runs inside it, and the shortest way between two points of its outline
through it, for a new border (judge/maps/new_borders.py) no smooth line
can draw."""

from __future__ import annotations

import heapq
import itertools
import math

import numpy as np
import shapely
from shapely import LineString, Polygon, contains_xy
from shapely.geometry.base import BaseGeometry

Pt = tuple[float, float]

VISIBLE_SIMPLIFY = 0.3  # points: the outline's detail a way round its corners ignores


def inside(shape: BaseGeometry, line: LineString) -> bool:
    """Whether a line runs inside the shape (or along its outline)."""
    return bool(grown(shape, 0.3).contains(line))


def grown(shape: BaseGeometry, by: float) -> BaseGeometry:
    """The shape buffered ``by`` (shrunk if negative), prepared; the last
    few kept, as a line is tried many ways inside one province."""
    key = (shape.wkb, by)
    found = _GROWN.get(key)
    if found is None:
        if len(_GROWN) >= 16:
            _GROWN.pop(next(iter(_GROWN)))
        found = _GROWN[key] = shape.buffer(by)
        shapely.prepare(found)
    return found


_GROWN: dict[tuple[bytes, float], BaseGeometry] = {}


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


def shortest_way(shape: Polygon, a: Pt, b: Pt) -> LineString:
    """The shortest way from ``a`` to ``b`` through the shape, on a grid
    fine enough for it to stay inside (an end in a narrow strait needs a
    finer one than the open sea)."""
    coarse = max(0.8, math.sqrt(shape.area) / 30)
    line = LineString([a, b])
    for step in (coarse, coarse / 2, coarse / 4):
        line = _on_grid(shape, a, b, step)
        if inside(shape, line):
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
        if isinstance(simple, LineString) and inside(shape, simple):
            line = simple
            break
    for _ in range(3):  # Chaikin's corner cutting, while it stays inside
        coords = list(line.coords)
        smooth = [coords[0]]
        for p, q in itertools.pairwise(coords):
            smooth += [(0.75 * p[0] + 0.25 * q[0], 0.75 * p[1] + 0.25 * q[1]),
                       (0.25 * p[0] + 0.75 * q[0], 0.25 * p[1] + 0.75 * q[1])]
        candidate = LineString([*smooth, coords[-1]])
        if not inside(shape, candidate):
            break
        line = candidate
    return line
