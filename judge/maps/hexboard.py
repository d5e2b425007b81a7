"""Drawing a variant's other board (engine.boards.HexBoard): the Favor map
of Dissolution, each hex with its label and the letters of the power whose
piece stands on it, in that power's colour, each group (slice) tinted, and
each pool (Perimeter) listing the powers in it.
"""

from __future__ import annotations

import math
from html import escape

from engine.boards import HexBoard
from engine.map import GameMap
from judge.maps.board import number

SIZE = 30.0  # a hex's radius, in points
_GROUP_TINTS = ("#dfe6f3", "#d7ecf6", "#dde3fb", "#fbe4cf", "#eadff3", "#e6e6e6")
_INK = "#222222"


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _hexagon(x: float, y: float) -> str:
    points = []
    for corner in range(6):
        angle = math.radians(60 * corner - 30)
        points.append(f"{number(x + SIZE * math.cos(angle))},{number(y + SIZE * math.sin(angle))}")
    return " ".join(points)


def _colour(game_map: GameMap, power: str) -> str:
    colour = game_map.powers[power].colour if power in game_map.powers else None
    return colour or "#888888"


def _tint(game_map: GameMap, power: str | None, index: int, white: float = 0.72) -> str:
    """The group's power's colour, mostly white; else a stock tint."""
    colour = game_map.powers[power].colour \
        if power is not None and power in game_map.powers else None
    if not colour:
        return _GROUP_TINTS[index % len(_GROUP_TINTS)]
    channels = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * white):02x}" for c in channels)


def _abbreviation(game_map: GameMap, power: str) -> str:
    return game_map.powers[power].letter if power in game_map.powers else power[:2]


def hexboard_svg(game_map: GameMap, board: HexBoard, caption: str) -> str:
    """The board as an SVG document."""
    centres = {cell.label: _centre(cell.q, cell.r) for cell in board.cells}
    xs = [x for x, _ in centres.values()]
    ys = [y for _, y in centres.values()]
    left, top = min(xs) - 2 * SIZE, min(ys) - 2 * SIZE
    width = max(xs) - left + 2 * SIZE
    height = max(ys) - top + 2 * SIZE + 24 * (len(board.pools) + 2)
    tints: dict[str, str] = {}
    for i, group in enumerate(sorted({c.group for c in board.cells})):
        tint = _tint(game_map, board.groups.get(group), i)
        # two groups of one colour (NATO and the US Navy): the second paler
        tints[group] = tint if tint not in tints.values() \
            else _tint(game_map, board.groups.get(group), i, 0.9)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{number(width)}" '
           f'height="{number(height)}" viewBox="{number(left)} {number(top)} '
           f'{number(width)} {number(height)}" font-family="DejaVu Sans, sans-serif">',
           f'<rect x="{number(left)}" y="{number(top)}" width="{number(width)}" '
           f'height="{number(height)}" fill="#ffffff"/>']
    for cell in board.cells:
        x, y = centres[cell.label]
        out.append(f'<polygon points="{_hexagon(x, y)}" fill="{tints[cell.group]}" '
                   f'stroke="{_INK}" stroke-width="0.8" data-space="{escape(cell.label)}"/>')
        out.append(f'<text x="{number(x)}" y="{number(y - SIZE * 0.45)}" font-size="8" '
                   f'text-anchor="middle" fill="#555555">{escape(cell.label)}</text>')
        power = board.pieces.get(cell.label)
        if power is not None:
            out.append(f'<circle cx="{number(x)}" cy="{number(y + 3)}" r="{number(SIZE * 0.5)}" '
                       f'fill="{_colour(game_map, power)}" stroke="{_INK}" stroke-width="1" '
                       f'data-power="{escape(power)}"/>')
            out.append(f'<text x="{number(x)}" y="{number(y + 7)}" font-size="11" '
                       f'font-weight="bold" text-anchor="middle" fill="#ffffff" '
                       f'stroke="{_INK}" stroke-width="0.4">'
                       f'{escape(_abbreviation(game_map, power))}</text>')
    y = max(ys) + 2 * SIZE
    out.append(f'<text x="{number(left + 10)}" y="{number(y)}" font-size="13" '
               f'font-weight="bold">{escape(caption)}</text>')
    for group, powers in sorted(board.pools.items()):
        y += 22
        name = board.groups.get(group, group).replace("_", " ")
        names = ", ".join(_abbreviation(game_map, p) for p in powers) or "empty"
        out.append(f'<rect x="{number(left + 10)}" y="{number(y - 11)}" width="14" '
                   f'height="14" fill="{tints.get(group, "#eeeeee")}" stroke="{_INK}"/>')
        out.append(f'<text x="{number(left + 30)}" y="{number(y)}" font-size="12">'
                   f'{escape(group)} {escape(name)}, Perimeter {escape(group)}0z: '
                   f'{escape(names)}</text>')
    out.append("</svg>")
    return "\n".join(out)
