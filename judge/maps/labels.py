"""Where province names are written so that nothing drawn over them hides
them: a name that a unit (wherever a unit of that place may stand, and
where a dislodged one is drawn) or a supply-centre marker would cover is
moved a little, to the nearest spot that is clear. Done once per board:
the names are part of the board drawn under every phase."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.map import Point

Box = tuple[float, float, float, float]  # left, top, right, bottom

# a province code's box, in font sizes: capitals of a sans-serif font are at
# most this wide, and reach this far above and below the baseline
GLYPH_WIDTH, ASCENT, DESCENT = 0.72, 0.78, 0.12
# how far a unit reaches around its point, in unit sizes (the widest of an
# army's disc, a fleet's hull and sail and a wing's chevron, stroke included)
UNIT_REACH = (0.78, 0.82, 0.78, 0.5)  # left, up, right, down
DISLODGED_REACH = 0.7  # unit sizes round the spot a dislodged unit is drawn at
NEAR = 60.0  # map units: obstacles further than this from a name cannot touch it


def label_box(code: str, x: float, y: float, size: float) -> Box:
    half = len(code) * size * GLYPH_WIDTH / 2
    return x - half, y - size * ASCENT, x + half, y + size * DESCENT


def unit_box(x: float, y: float, size: float) -> Box:
    """What a unit standing at (x, y) covers, whatever its kind."""
    left, up, right, down = (r * size for r in UNIT_REACH)
    return x - left, y - up, x + right, y + down


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
