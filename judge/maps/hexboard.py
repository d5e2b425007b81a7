"""Drawing a variant's other board (engine.boards.HexBoard): the Favor map
of Dissolution. Each hex has its label and, on a disc of the power's
colour, the letters of the power whose piece stands there; each group
(slice) has its own tint; each pool (Perimeter) is a box beyond the cells
it borders, listing the powers in it. Over the board, the arrows of the
phase just adjudicated (judge/maps/hexarrows.py), and below it a legend:
the slices, the powers' letters spelled out, the arrows and each kick's
reason.

Sizes are chosen for the picture a results mail shows, 1000 px wide: the
board is about 800 units wide, so a hex label of 10 units is 12 px high.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from engine.boards import KICK, MOVE, RETREAT, HexBoard
from engine.map import GameMap
from judge.maps.board import number
from judge.maps.hexarrows import (
    KICK_COLOUR,
    WIDTH,
    Place,
    arrow_path,
    arrows_svg,
    badge,
    numbered_kicks,
)
from judge.maps.hexlayout import Box, Layout, layout
from judge.maps.layers import OVER, UNDER

_GROUP_TINTS = ("#dfe6f3", "#f3cfcf", "#c6ecec", "#fad9b5", "#e6d0f0", "#e6e6e6")
INK = "#222222"
LABEL_SIZE = 10.0  # a hex's label, in units (12 px at 1000 px wide)
PIECE_SIZE = 10.0  # a power's letters on its piece
_LEGEND = 11.0  # the legend's text, in units (13 px at 1000 px wide)
_ROW = 18.0
_ARROW_KEY = ((MOVE, False, "move"), (MOVE, True, "failed move"), (RETREAT, False, "retreat"),
              (KICK, False, "kick, as numbered"))


def _hexagon(x: float, y: float, size: float) -> str:
    points = []
    for corner in range(6):
        angle = math.radians(60 * corner - 30)
        points.append(f"{number(x + size * math.cos(angle))},{number(y + size * math.sin(angle))}")
    return " ".join(points)


def colour_of(game_map: GameMap, power: str) -> str:
    colour = game_map.powers[power].colour if power in game_map.powers else None
    return colour or "#888888"


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (by its luminance)."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    # the contrast ratio against black and against white, whichever is higher
    return "#000000" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "#ffffff"


def abbreviation(game_map: GameMap, board: HexBoard, power: str) -> str:
    """The letters drawn for a power: the board's own (Dissolution's three), else its letter."""
    if power in board.names:
        return board.names[power]
    return game_map.powers[power].letter if power in game_map.powers else power[:3]


def tints_of(board: HexBoard) -> dict[str, str]:
    """Each group's fill: the board's own, else a stock tint of its own."""
    groups = sorted({c.group for c in board.cells})
    return {group: board.tints.get(group, _GROUP_TINTS[i % len(_GROUP_TINTS)])
            for i, group in enumerate(groups)}


def _chip(game_map: GameMap, board: HexBoard, power: str, x: float, y: float,
          attribute: str) -> str:
    """A power's letters on a small rounded box of its colour, centred on (x, y)."""
    colour = colour_of(game_map, power)
    return (f'<rect x="{number(x - 16)}" y="{number(y - 8)}" width="32" height="16" rx="4" '
            f'fill="{colour}" stroke="{INK}" stroke-width="0.8" {attribute}="{escape(power)}"/>'
            f'<text x="{number(x)}" y="{number(y + 3.6)}" font-size="{number(PIECE_SIZE)}" '
            f'font-weight="bold" text-anchor="middle" fill="{ink_on(colour)}">'
            f'{escape(abbreviation(game_map, board, power))}</text>')


def _pool(game_map: GameMap, board: HexBoard, group: str, box: Box, tint: str) -> list[str]:
    label = board.pool_labels.get(group, group)
    out = [f'<rect x="{number(box.left)}" y="{number(box.top)}" width="{number(box.width)}" '
           f'height="{number(box.height)}" rx="6" fill="{tint}" stroke="{INK}" '
           f'stroke-width="0.8" data-pool="{escape(group)}"/>',
           f'<text x="{number(box.x)}" y="{number(box.top + 13)}" font-size="{number(LABEL_SIZE)}" '
           f'text-anchor="middle" fill="#333333">{escape(label)} Perimeter</text>']
    for power, (x, y) in zip(board.pools.get(group, ()), box.slots, strict=False):
        out.append(_chip(game_map, board, power, x, y, "data-pool-power"))
    return out


def hexboard_svg(game_map: GameMap, board: HexBoard, caption: str) -> str:
    """The board as an SVG document."""
    tints = tints_of(board)
    drawn: Layout = layout(board)
    size = drawn.size
    legend = legend_rows(game_map, board, tints, drawn.left + 10, drawn.bottom + 10, caption,
                         drawn.width - 20)
    height = legend.bottom - drawn.top + 14
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{number(drawn.width)}" '
           f'height="{number(height)}" viewBox="{number(drawn.left)} {number(drawn.top)} '
           f'{number(drawn.width)} {number(height)}" font-family="DejaVu Sans, sans-serif">',
           # the hexes and their names are the same in every phase: a PNG
           # draws them once per process (judge/maps/layers.py)
           f'<g class="{UNDER}">',
           f'<rect x="{number(drawn.left)}" y="{number(drawn.top)}" width="{number(drawn.width)}" '
           f'height="{number(height)}" fill="#ffffff"/>']
    for cell in board.cells:
        x, y = drawn.centres[cell.label]
        out.append(f'<polygon points="{_hexagon(x, y, size)}" fill="{tints[cell.group]}" '
                   f'stroke="{INK}" stroke-width="0.8" data-space="{escape(cell.label)}"/>')
    out.append("</g>")
    for group, box in drawn.pools.items():
        out.extend(_pool(game_map, board, group, box, tints.get(group, "#eeeeee")))
    for label, power in board.pieces.items():
        x, y = drawn.piece(label)
        colour = colour_of(game_map, power)
        out.append(f'<circle cx="{number(x)}" cy="{number(y)}" r="{number(drawn.piece_radius)}" '
                   f'fill="{colour}" stroke="{INK}" stroke-width="1" '
                   f'data-power="{escape(power)}"/>')
        out.append(f'<text x="{number(x)}" y="{number(y + PIECE_SIZE * 0.36)}" '
                   f'font-size="{number(PIECE_SIZE)}" font-weight="bold" text-anchor="middle" '
                   f'fill="{ink_on(colour)}">{escape(abbreviation(game_map, board, power))}</text>')
    # an arrow leaves or reaches a piece at its rim, an empty hex at its
    # middle: a move between two neighbours stays long enough to be seen
    places = {label: Place(*drawn.piece(label), drawn.piece_radius + 2)
              if label in board.pieces else Place(*drawn.centres[label], 2)
              for label in drawn.centres}
    places.update({group: Place(box.x, box.y, 0, box.width / 2, box.height / 2)
                   for group, box in drawn.pools.items()})
    out.extend(arrows_svg(game_map, board, places))
    out.append(f'<g class="{OVER}">')
    for cell in board.cells:  # over the arrows, on a patch of the hex's tint
        x, y = drawn.centres[cell.label]
        wide = len(cell.label) * LABEL_SIZE * 0.66 + 2
        out.append(f'<rect x="{number(x - wide / 2)}" y="{number(y - size * 0.45 - 8.5)}" '
                   f'width="{number(wide)}" height="11" fill="{tints[cell.group]}"/>')
        out.append(f'<text x="{number(x)}" y="{number(y - size * 0.45)}" '
                   f'font-size="{number(LABEL_SIZE)}" text-anchor="middle" fill="#333333" '
                   f'data-label="{escape(cell.label)}">{escape(cell.label)}</text>')
    out.append("</g>")
    out.extend(legend.svg)
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True, slots=True)
class Legend:
    svg: list[str]
    bottom: float


def _text(x: float, y: float, text: str, size: float = _LEGEND, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (f'<text x="{number(x)}" y="{number(y)}" font-size="{number(size)}"{weight} '
            f'fill="{INK}">{escape(text)}</text>')


def legend_rows(game_map: GameMap, board: HexBoard, tints: Mapping[str, str], left: float,
                top: float, caption: str, width: float) -> Legend:
    """The caption, each group's tint and power, each power's letters spelled
    out, the kinds of arrows drawn, and each kick's reason by its number."""
    y = top + 14
    out = [_text(left, y, caption, 13, bold=True)]
    y += _ROW + 4
    x = left
    for group in sorted(tints):
        name = board.groups.get(group, group).replace("_", " ")
        out.append(f'<rect x="{number(x)}" y="{number(y - 11)}" width="14" height="14" '
                   f'fill="{tints[group]}" stroke="{INK}" stroke-width="0.8"/>')
        out.append(_text(x + 19, y, f"{group} {name}"))
        x += 34 + len(f"{group} {name}") * _LEGEND * 0.62
    shown = sorted({*board.pieces.values(), *(p for ps in board.pools.values() for p in ps)},
                   key=lambda p: abbreviation(game_map, board, p))
    across = max(1, int(width // 150))
    for column, power in enumerate(shown):
        if column % across == 0:
            y += _ROW
        cx = left + (column % across) * 150
        colour = colour_of(game_map, power)
        out.append(f'<rect x="{number(cx)}" y="{number(y - 11)}" width="32" height="15" rx="4" '
                   f'fill="{colour}" stroke="{INK}" stroke-width="0.8"/>'
                   f'<text x="{number(cx + 16)}" y="{number(y + 0.5)}" font-size="10" '
                   f'font-weight="bold" text-anchor="middle" fill="{ink_on(colour)}">'
                   f'{escape(abbreviation(game_map, board, power))}</text>')
        out.append(_text(cx + 37, y, game_map.powers[power].name_in_prose))
    kinds = {a.kind for a in board.arrows}
    if kinds:
        y += _ROW + 6
        x = left
        for kind, failed, words in _ARROW_KEY:
            if kind not in kinds:
                continue
            colour = KICK_COLOUR if kind == KICK else "#666666"
            line, _ = arrow_path(Place(x, y - 4), Place(x + 34, y - 4), colour, WIDTH[kind], failed)
            out.append(line)
            out.append(_text(x + 40, y, words))
            x += 60 + len(words) * _LEGEND * 0.62
    chars = max(40, int(width / (_LEGEND * 0.6)))
    for n, arrow in numbered_kicks(board):
        who = abbreviation(game_map, board, arrow.power)
        where = (f", stays in {_named(board, arrow.to)}" if arrow.origin == arrow.to
                 else f" {_named(board, arrow.origin)} → {_named(board, arrow.to)}")
        lines = textwrap.wrap(f"{who} kicked{where}, for {arrow.why}", chars - 4)
        y += _ROW + 4
        out.append(badge(left + 8, y - 4, n))
        for i, line in enumerate(lines):
            out.append(_text(left + 22, y + i * (_ROW - 2), line))
        y += (len(lines) - 1) * (_ROW - 2)
    return Legend(out, y)


def _named(board: HexBoard, place: str) -> str:
    return board.pool_labels.get(place, place)
