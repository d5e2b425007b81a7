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



SEARCH_STEPS = 17  # spots tried across the square round the wanted spot, each way
REFINE = 2  # finer looks round the best spot


def room_near(shape: BaseGeometry, want: Pt, reach: float, search: float, *,
              margin: float = 0.0, walls: BaseGeometry | None = None,
              avoid: BaseGeometry | None = None, gap: float = 0.0) -> tuple[Pt, float]:
    """The spot in ``shape`` nearest ``want`` (within ``search`` of it, each
    way) where a disc of radius ``reach`` fits, ``margin`` off the
    ``walls`` (the shape's outline, unless told) and ``gap`` off
    ``avoid``; where none fits, the spot where the largest disc does (of
    spots almost as good, the nearest). Returned with the radius that fits
    there, at most ``reach``."""
    # only the walls within reach of the square looked at count: the rest is cut away
    cap = reach + margin
    outline = shapely.clip_by_rect(shape.boundary if walls is None else walls,
                                   want[0] - search - cap,
                                   want[1] - search - cap, want[0] + search + cap,
                                   want[1] + search + cap)
    offsets = np.linspace(-search, search, SEARCH_STEPS)
    dx, dy = (a.ravel() for a in np.meshgrid(offsets, offsets))
    xs, ys = want[0] + dx, want[1] + dy
    fits = _fit(shape, outline, avoid, xs, ys, margin, gap, cap)
    step = offsets[1] - offsets[0]
    for _ in range(REFINE):  # a finer look round the best spot so far
        distance = np.hypot(xs - want[0], ys - want[1])
        best = int(np.argmin(np.where(fits >= reach, distance, np.inf))) \
            if (fits >= reach).any() else int(np.argmax(fits))
        fine = np.linspace(-step, step, 9)
        fx, fy = (a.ravel() for a in np.meshgrid(fine, fine))
        more_x, more_y = xs[best] + fx, ys[best] + fy
        xs, ys = np.concatenate([xs, more_x]), np.concatenate([ys, more_y])
        fits = np.concatenate([fits, _fit(shape, outline, avoid, more_x, more_y, margin, gap,
                                          cap)])
        step = fine[1] - fine[0]
    distance = np.hypot(xs - want[0], ys - want[1])
    if (fits >= reach).any():
        best = int(np.argmin(np.where(fits >= reach, distance, np.inf)))
        return (float(xs[best]), float(ys[best])), reach
    # a little less room for a spot much nearer: a province's roomiest
    # corner may lie far from its unit
    best = int(np.argmin(np.where(fits >= fits.max() * 0.95, distance, np.inf)))
    return (float(xs[best]), float(ys[best])), float(fits[best])


def _fit(shape: BaseGeometry, outline: BaseGeometry, avoid: BaseGeometry | None,
         xs: np.ndarray, ys: np.ndarray, margin: float, gap: float,
         cap: float) -> np.ndarray:
    """The radius of the disc that fits at each point, up to ``cap``:
    ``margin`` off the ``outline``, ``gap`` off ``avoid``; -inf outside the
    shape."""
    inside = shapely.contains_xy(shape, xs, ys)
    fits = np.full(len(xs), -np.inf)
    points = shapely.points(xs[inside], ys[inside])
    room = np.full(int(np.count_nonzero(inside)), cap)
    if not outline.is_empty:
        room = np.minimum(room, shapely.distance(outline, points) - margin)
    if avoid is not None and not avoid.is_empty:
        room = np.minimum(room, shapely.distance(avoid, points) - gap)
    fits[inside] = room
    return fits
