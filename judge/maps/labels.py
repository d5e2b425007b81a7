"""Where province names are written so that nothing drawn over them hides
them: a name that a unit (wherever a unit of that place may stand, and
where a dislodged one is drawn) or a supply-centre marker would cover is
moved a little, to the nearest spot that is clear. Done once per board:
the names are part of the board drawn under every phase."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from functools import cache

import cairocffi
import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.map import Point
from judge.maps.board import FONTS, area_data
from judge.maps.room import roomiest

Box = tuple[float, float, float, float]  # left, top, right, bottom

# a province code's box, in font sizes: capitals of a sans-serif font are at
# most this wide, and reach this far above and below the baseline
GLYPH_WIDTH, ASCENT, DESCENT = 0.72, 0.78, 0.12
# how far a unit reaches around its point, in unit sizes (the widest of an
# army's disc, a fleet's hull and sail and a wing's chevron, stroke included)
UNIT_REACH = (0.78, 0.82, 0.78, 0.5)  # left, up, right, down
DISLODGED_SHIFT, DISLODGED_REACH = 0.55, 0.7  # as render.py draws a dislodged unit
MARGIN = 0.8  # map units a new name keeps inside its province's borders where it fits
BARE = 0.2  # font sizes of bare land kept round a name under a strong owner's colour
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
    """Where a new province's name goes: its middle inside its province;
    clear of the ``obstacles`` (units, centre markers, names) if it can be;
    then as much of it inside its province (off its borders by a margin) as
    can be, then clear of the dislodged units' ``ghosts``, then nearest to
    ``want``. The spots tried
    are round ``want`` and round the province's roomiest spot, so that a
    small part's name is written inside it rather than across its border."""
    if shape is None:
        return want
    room: BaseGeometry = shape.buffer(-MARGIN)
    if room.is_empty:
        room = shape
    step = size / 3
    reach = size * 4
    grid = np.arange(-reach, reach + step / 2, step)
    dxs, dys = (a.ravel() for a in np.meshgrid(grid, grid))
    (px, py), _ = roomiest(shape)
    xs = np.concatenate([want[0] + dxs, px + dxs])
    ys = np.concatenate([want[1] + dys, py + size * 0.3 + dys])
    half = len(code) * size * GLYPH_WIDTH / 2
    lefts, tops = xs - half, ys - size * ASCENT
    rights, bottoms = xs + half, ys + size * DESCENT
    boxes = shapely.box(lefts, tops, rights, bottoms)
    share = shapely.area(shapely.intersection(boxes, room)) / shapely.area(boxes)
    span = reach + len(code) * size + abs(px - want[0]) + abs(py - want[1])
    covered = _covered(lefts, tops, rights, bottoms, _near(obstacles, want, span))
    haunted = _covered(lefts, tops, rights, bottoms, _near(ghosts, want, span)) > 0
    distance = np.hypot(xs - want[0], ys - want[1])
    # a name's middle in its province first, then clear of every marker,
    # then the most of it inside its province (in steps of a twentieth: a
    # spot nearer ``want`` is as good), then clear of ghosts, then the nearest
    outside = ~shapely.contains_xy(room, xs, ys - size * (ASCENT - DESCENT) / 2)  # its middle
    order = np.lexsort((distance, haunted, -np.round(share * 20), np.round(covered, 1),
                        outside))
    best = int(order[0])
    return float(xs[best]), float(ys[best])


def _near(boxes: list[Box], spot: Point, span: float) -> list[Box]:
    return [b for b in boxes if b[0] - span < spot[0] < b[2] + span
            and b[1] - span < spot[1] < b[3] + span]


def _covered(lefts: np.ndarray, tops: np.ndarray, rights: np.ndarray, bottoms: np.ndarray,
             boxes: list[Box]) -> np.ndarray:
    """How much of each name's box the ``boxes`` cover, all told."""
    total = np.zeros_like(lefts)
    for left, top, right, bottom in boxes:
        wide = np.clip(np.minimum(rights, right) - np.maximum(lefts, left), 0, None)
        high = np.clip(np.minimum(bottoms, bottom) - np.maximum(tops, top), 0, None)
        total += wide * high
    return total


def _overlap_area(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def bare_names(areas: Mapping[str, str], labels: Mapping[str, Point], size: float,
               bold: Collection[str] = ()) -> dict[str, str]:
    """Each area less the boxes of the names written on it (centred on their
    point, as wide as the font sets them, the ``bold`` ones bold; with BARE
    round them): an owner's colour painted strong over an area leaves its
    names dark on the land's own colour, as they are drawn under it. An
    area drawn with anything but straight lines (a disc, which holds no
    name) is kept as it is."""
    pad = size * BARE
    boxes = []
    for code, (x, y) in labels.items():
        half = _advance(code, code in bold) * size / 2 + pad
        boxes.append(shapely.box(x - half, y - size * ASCENT - pad, x + half,
                                 y + size * DESCENT + pad))
    tree = shapely.STRtree(boxes)
    found = {}
    for code, d in areas.items():
        shape = _straight(d)
        near = [boxes[int(i)] for i in tree.query(shape)] if shape is not None else []
        found[code] = (area_data(shape.difference(shapely.union_all(near)))
                       if shape is not None and near else d)
    return found


@cache
def _advance(text: str, bold: bool) -> float:
    """How far the names' font sets ``text``, in font sizes (its width as
    text-anchor="middle" centres it)."""
    context = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_A8, 1, 1))
    context.select_font_face(FONTS.split(",")[0], cairocffi.FONT_SLANT_NORMAL,
                             cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL)
    context.set_font_size(100.0)
    return float(context.text_extents(text)[4]) / 100.0


def _straight(d: str) -> BaseGeometry | None:
    """Path data of absolute M and L points, closed, as an area (its rings
    combined even-odd, as the owners' colours are filled); None for other data."""
    if set(d) - set("ML Z0123456789.-"):
        return None
    shape: BaseGeometry = Polygon()
    for ring in d.split("Z"):
        numbers = [float(n) for n in ring.replace("M", " ").replace("L", " ").split()]
        if len(numbers) >= 6:
            shape = shape.symmetric_difference(
                Polygon(list(zip(numbers[0::2], numbers[1::2], strict=True))).buffer(0))
    return shape
