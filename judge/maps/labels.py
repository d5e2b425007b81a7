"""Where province names are written so that nothing drawn over them hides
them: a name that a unit (wherever a unit of that place may stand, and
where a dislodged one is drawn) or a supply-centre marker would cover is
moved a little, to the nearest spot that is clear. Done once per board:
the names are part of the board drawn under every phase."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
from shapely import Polygon, contains_xy
from shapely.geometry.base import BaseGeometry

from engine.map import Point

Box = tuple[float, float, float, float]  # left, top, right, bottom

# a province code's box, in font sizes: capitals of a sans-serif font are at
# most this wide, and reach this far above and below the baseline
GLYPH_WIDTH, ASCENT, DESCENT = 0.72, 0.78, 0.12
# how far a unit reaches around its point, in unit sizes (the widest of an
# army's disc, a fleet's hull and sail and a wing's chevron, stroke included)
UNIT_REACH = (0.78, 0.82, 0.78, 0.5)  # left, up, right, down
DISLODGED_SHIFT, DISLODGED_REACH = 0.55, 0.7  # as render.py draws a dislodged unit
NEAR = 60.0  # map units: obstacles further than this from a name cannot touch it


def label_box(code: str, x: float, y: float, size: float) -> Box:
    half = len(code) * size * GLYPH_WIDTH / 2
    return x - half, y - size * ASCENT, x + half, y + size * DESCENT


def unit_boxes(x: float, y: float, size: float,
               shift: Point = (DISLODGED_SHIFT, -DISLODGED_SHIFT)) -> list[Box]:
    """A unit standing at (x, y), and a dislodged one drawn beside it
    (``shift`` from it, in unit sizes: the board's MapDrawing.dislodged_shift)."""
    left, up, right, down = (r * size for r in UNIT_REACH)
    dx, dy = x + size * shift[0], y + size * shift[1]
    reach = size * DISLODGED_REACH
    return [(x - left, y - up, x + right, y + down),
            (dx - reach, dy - reach, dx + reach, dy + reach)]


def circle_box(x: float, y: float, radius: float) -> Box:
    return x - radius, y - radius, x + radius, y + radius


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _offsets(size: float) -> Iterable[tuple[float, float]]:
    """Small moves first: down, up, right, left, then the diagonals, by
    steps of a third of the font size, up to three font sizes away."""
    step = size / 3
    for k in range(1, 10):
        d = k * step
        yield from ((0, d), (0, -d), (d, 0), (-d, 0), (d, d), (-d, d), (d, -d), (-d, -d))


def clear_labels(labels: Mapping[str, Point], obstacles: list[Box],
                 size: float) -> dict[str, Point]:
    """Each name's point, moved off every obstacle (and off the names placed
    before it) when it has to be; a name with no clear spot nearby stays."""
    placed: dict[str, Point] = {}
    taken: list[Box] = []
    for code, (x, y) in sorted(labels.items()):
        near = [b for b in obstacles
                if b[0] - NEAR < x < b[2] + NEAR and b[1] - NEAR < y < b[3] + NEAR]
        spot = (x, y)
        box = label_box(code, x, y, size)
        if any(_overlap(box, b) for b in near):
            for dx, dy in _offsets(size):
                moved = label_box(code, x + dx, y + dy, size)
                if not any(_overlap(moved, b) for b in near) and \
                        not any(_overlap(moved, b) for b in taken):
                    spot, box = (x + dx, y + dy), moved
                    break
        placed[code] = spot
        taken.append(box)
    return placed


def place_name(code: str, shape: BaseGeometry | None, want: Point, obstacles: list[Box],
                ghosts: list[Box], size: float) -> Point:
    """Where a new province's name goes: the nearest spot to ``want``
    clear of the ``obstacles`` where it fits inside its province; else
    where its middle is inside; else anywhere clear. Dislodged units'
    ``ghosts`` are kept clear of when there is room to."""
    if shape is None:
        return want
    room = shape.buffer(0.5)
    step = size / 3
    reach = size * 4
    span = reach + len(code) * size  # what lies further cannot touch any spot tried
    obstacles = [b for b in obstacles if b[0] - span < want[0] < b[2] + span
                 and b[1] - span < want[1] < b[3] + span]
    ghosts = [b for b in ghosts if b[0] - span < want[0] < b[2] + span
              and b[1] - span < want[1] < b[3] + span]
    grid = np.arange(-reach, reach + step / 2, step)
    dxs, dys = (a.ravel() for a in np.meshgrid(grid, grid))
    order = np.argsort(dxs * dxs + dys * dys, kind="stable")  # nearest first
    xs, ys = want[0] + dxs[order], want[1] + dys[order]
    middles = contains_xy(shape, xs, ys - size * 0.3)  # the name's middle in the province
    found: dict[tuple[int, bool], Point] = {}  # (how good, ghosts kept clear) -> spot
    least: tuple[float, Point] | None = None  # in the province, covering the least
    for x, y, middle in zip(xs.tolist(), ys.tolist(), middles.tolist(), strict=True):
        box = label_box(code, x, y, size)
        if any(_overlap(box, b) for b in obstacles):
            if middle:
                covered = sum(_overlap_area(box, b) for b in obstacles)
                if least is None or covered < least[0]:
                    least = (covered, (x, y))
            continue
        clear = not any(_overlap(box, b) for b in ghosts)
        if room.contains(Polygon([(box[0], box[1]), (box[2], box[1]), (box[2], box[3]),
                                  (box[0], box[3])])):
            found.setdefault((0, clear), (x, y))
            if clear:
                break
        elif middle:
            found.setdefault((1, clear), (x, y))
        else:
            found.setdefault((3, clear), (x, y))
    if least is not None:  # a province too small for its name and a unit: share it
        found.setdefault((2, False), least[1])
    for rank in ((0, True), (0, False), (1, True), (1, False), (2, False), (3, True),
                 (3, False)):
        if rank in found:
            return found[rank]
    return want


def _overlap_area(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
