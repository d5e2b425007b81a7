"""Where a hex board's cells and pools are drawn: each cell at its axial
coordinates, each pool (a Perimeter) as a box just beyond the cells it
borders, on the side away from its own group, so that an arrow into it
has somewhere to go and its powers are seen beside the slice.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from engine.boards import HexBoard

SIZE = 30.0  # a hex's radius, in units
PIECE_RADIUS = 14.5
_PIECE_DROP = 4.0  # the piece sits a little low, under the hex's label
_CHIPS_A_ROW = 4
_CHIP_STEP = (36.0, 20.0)  # a chip's place in a pool's box: across, down
_MARGIN = 12.0

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Box:
    x: float  # its centre
    y: float
    width: float
    height: float
    slots: tuple[Point, ...]  # where the powers in it are drawn

    @property
    def left(self) -> float:
        return self.x - self.width / 2

    @property
    def top(self) -> float:
        return self.y - self.height / 2


@dataclass(frozen=True, slots=True)
class Layout:
    centres: Mapping[str, Point]
    pools: Mapping[str, Box]
    left: float
    top: float
    width: float
    bottom: float  # where the legend starts
    size: float = SIZE
    piece_radius: float = PIECE_RADIUS

    def piece(self, label: str) -> Point:
        x, y = self.centres[label]
        return x, y + _PIECE_DROP


def _centre(q: int, r: int) -> Point:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _box(board: HexBoard, group: str, centres: Mapping[str, Point]) -> Box | None:
    cells = [centres[c] for c in board.pool_cells.get(group, ()) if c in centres]
    if not cells:
        return None
    count = len(board.pools.get(group, ()))
    across = max(1, min(count, _CHIPS_A_ROW))
    rows = math.ceil(count / _CHIPS_A_ROW)
    width = max(104.0, across * _CHIP_STEP[0] + 10)
    height = 20.0 + rows * _CHIP_STEP[1] + (4 if rows else 0)
    # beyond the middle of the row of cells it borders, away from its group
    mx = sum(x for x, _ in cells) / len(cells)
    my = sum(y for _, y in cells) / len(cells)
    own = [centres[c.label] for c in board.cells if c.group == group]
    gx = sum(x for x, _ in own) / len(own)
    gy = sum(y for _, y in own) / len(own)
    (ax, ay), (bx, by) = cells[0], cells[-1]
    nx, ny = (ay - by, bx - ax) if len(cells) > 1 else (mx - gx, my - gy)
    if nx * (mx - gx) + ny * (my - gy) < 0:
        nx, ny = -nx, -ny
    length = math.hypot(nx, ny) or 1.0
    nx, ny = nx / length, ny / length
    reach = abs(nx) * width / 2 + abs(ny) * height / 2  # the box's half depth along the normal
    distance = SIZE + 8 + reach
    x, y = mx + nx * distance, my + ny * distance
    top = y - height / 2
    slots = tuple((x + ((i % _CHIPS_A_ROW) - (min(count - i // _CHIPS_A_ROW * _CHIPS_A_ROW,
                                                   _CHIPS_A_ROW) - 1) / 2) * _CHIP_STEP[0],
                   top + 30 + (i // _CHIPS_A_ROW) * _CHIP_STEP[1])
                  for i in range(count))
    return Box(x, y, width, height, slots)


def layout(board: HexBoard) -> Layout:
    centres = {cell.label: _centre(cell.q, cell.r) for cell in board.cells}
    pools = {group: box for group in sorted(board.pool_cells)
             if (box := _box(board, group, centres)) is not None}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    left = min([min(xs) - SIZE, *(b.left for b in pools.values())]) - _MARGIN
    right = max([max(xs) + SIZE, *(b.left + b.width for b in pools.values())]) + _MARGIN
    top = min([min(ys) - SIZE, *(b.top for b in pools.values())]) - _MARGIN
    bottom = max([max(ys) + SIZE, *(b.top + b.height for b in pools.values())]) + _MARGIN
    return Layout(centres, pools, left, top, right - left, bottom)
