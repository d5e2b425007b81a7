"""The roomiest spot of a shape: its pole of inaccessibility, the point
inside it furthest from its outline (Garcia-Castellanos and Lombardo's
idea, as Mapbox's polylabel finds it: a grid, refined round the best
cells), here also kept away from things already placed in it (a unit,
when a centre marker is placed beside it).

Diplomap's redrawn boards (judge/maps/redrawn.py) stand each part's unit
and centre marker here, so that a marker never sits on a new border and
shows which part it is in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import shapely
from shapely import Polygon
from shapely.geometry.base import BaseGeometry

Pt = tuple[float, float]
Disc = tuple[float, float, float]  # x, y, radius: something placed to keep clear of

CELLS = 24  # grid cells across the shape's larger side, on the first look
ROUNDS = 4  # refinements: each looks at a grid a quarter the size round the best spots
KEEP = 6  # the best spots kept for refining


def _room(shape: BaseGeometry, xs: np.ndarray, ys: np.ndarray,
          avoid: Sequence[Disc], keep: float = 0.0) -> np.ndarray:
    """How far each point is from the shape's outline and from every disc
    to avoid; negative outside the shape. A point nearer the outline than
    ``keep`` ranks below every point that is not, by how much nearer."""
    points = shapely.points(xs, ys)
    outline = shapely.distance(shape.boundary, points)
    outline = np.where(shapely.contains_xy(shape, xs, ys), outline, -outline)
    room = outline
    for x, y, radius in avoid:
        room = np.minimum(room, np.hypot(xs - x, ys - y) - radius)
    if keep > 0:
        room = np.where(outline >= keep, room, outline - keep - _BELOW)
    return np.asarray(room)


_BELOW = 1e6  # below any room a spot keeping off the outline has


def roomiest(shape: BaseGeometry, avoid: Sequence[Disc] = (), keep: float = 0.0
             ) -> tuple[Pt, float]:
    """The spot inside ``shape`` (its largest piece) furthest from its
    outline and from the discs ``avoid``, and how far that is. With
    ``keep``, the spot keeps that far off the outline first, where the
    shape has room for it (a marker off its borders, then as far from
    the others as can be); the room returned is then the spot's own."""
    pieces = [p for p in getattr(shape, "geoms", [shape]) if isinstance(p, Polygon)]
    piece = max(pieces, key=lambda p: p.area)
    minx, miny, maxx, maxy = piece.bounds
    cell = max(maxx - minx, maxy - miny) / CELLS or 1.0
    grid_x, grid_y = np.meshgrid(np.arange(minx + cell / 2, maxx, cell),
                                 np.arange(miny + cell / 2, maxy, cell))
    xs, ys = grid_x.ravel(), grid_y.ravel()
    rep = piece.representative_point()  # a thin shape may fall between the grid's points
    xs, ys = np.append(xs, rep.x), np.append(ys, rep.y)
    for _ in range(ROUNDS):
        room = _room(piece, xs, ys, avoid, keep)
        best = np.argsort(-room, kind="stable")[:KEEP]
        cell /= 4
        offsets = np.arange(-2, 3) * cell
        dx, dy = (a.ravel() for a in np.meshgrid(offsets, offsets))
        xs = np.concatenate([xs[best], (xs[best][:, None] + dx).ravel()])
        ys = np.concatenate([ys[best], (ys[best][:, None] + dy).ravel()])
    room = _room(piece, xs, ys, avoid, keep)
    best_one = int(np.argmax(room))
    spot = float(xs[best_one]), float(ys[best_one])
    if keep > 0:  # its room as it is, not as ranked
        return spot, float(_room(piece, xs[best_one:best_one + 1], ys[best_one:best_one + 1],
                                 avoid)[0])
    return spot, float(room[best_one])
