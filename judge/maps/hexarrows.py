"""The arrows on a hex board (engine.boards.HexArrow).

A piece's own move is drawn as on the geographic map: a line in its
power's colour, outlined, dashed with a hollow head when it failed. A
retreat is a thinner line; a kick (the rules moving a piece as a penalty)
is crimson, numbered, its reason told under that number in the legend
(judge/maps/hexboard.py). A
kick that leaves a piece where it was (an Embassy already in the
Perimeter) has its number on the pool.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from engine.boards import KICK, MOVE, RETREAT, HexArrow, HexBoard
from engine.map import GameMap
from judge.maps.board import number

KICK_COLOUR = "#c8102e"
_INK = "#222222"
Point = tuple[float, float]
WIDTH = {MOVE: 3.0, RETREAT: 2.0, KICK: 3.0}


@dataclass(frozen=True, slots=True)
class Place:
    """Where an arrow starts or ends: a piece (a disc of ``radius``) or a
    pool's box (half ``width`` and half ``height``)."""

    x: float
    y: float
    radius: float = 0.0
    half_width: float = 0.0
    half_height: float = 0.0

    def edge(self, ux: float, uy: float) -> float:
        """How far from the centre, along (ux, uy), the line leaves it."""
        if not (self.half_width or self.half_height):
            return self.radius
        reach = [h / abs(u) for h, u in ((self.half_width, ux), (self.half_height, uy)) if u]
        return min(reach) if reach else 0.0


def _colour(game_map: GameMap, power: str) -> str:
    colour = game_map.powers[power].colour if power in game_map.powers else None
    return colour or "#888888"


def arrow_path(a: Place, b: Place, colour: str, width: float, failed: bool) -> tuple[str, Point]:
    length = math.dist((a.x, a.y), (b.x, b.y)) or 1.0
    ux, uy = (b.x - a.x) / length, (b.y - a.y) / length
    sx, sy = a.x + ux * a.edge(ux, uy), a.y + uy * a.edge(ux, uy)
    tx, ty = b.x - ux * (b.edge(ux, uy) + 1), b.y - uy * (b.edge(ux, uy) + 1)
    back, half = width * 3.4, width * 1.8
    bx, by = tx - ux * back, ty - uy * back
    head = (f"M{number(tx)} {number(ty)}L{number(bx - uy * half)} {number(by + ux * half)}"
            f"L{number(bx + uy * half)} {number(by - ux * half)}Z")
    end_x, end_y = tx - ux * back * 0.8, ty - uy * back * 0.8
    d = f"M{number(sx)} {number(sy)}L{number(end_x)} {number(end_y)}"
    dash = f' stroke-dasharray="{number(width * 2.2)} {number(width * 1.4)}"' if failed else ""
    svg = (f'<path d="{d}" fill="none" stroke="{_INK}" stroke-width="{number(width * 1.8)}"'
           f'{dash}/><path d="{d}" fill="none" stroke="{colour}" '
           f'stroke-width="{number(width)}"{dash}/><path d="{head}" '
           f'fill="{"#ffffff" if failed else colour}" stroke="{_INK}" '
           f'stroke-width="{number(width * 0.45)}"/>')
    return svg, ((sx + end_x) / 2, (sy + end_y) / 2)



def badge(x: float, y: float, number_of: int) -> str:
    return (f'<circle cx="{number(x)}" cy="{number(y)}" r="8" fill="#ffffff" '
            f'stroke="{KICK_COLOUR}" stroke-width="1.5"/><text x="{number(x)}" '
            f'y="{number(y + 3.8)}" font-size="10.5" font-weight="bold" text-anchor="middle" '
            f'fill="{KICK_COLOUR}">{number_of}</text>')


def numbered_kicks(board: HexBoard) -> list[tuple[int, HexArrow]]:
    return [(i, arrow) for i, arrow in enumerate(
        (a for a in board.arrows if a.kind == KICK), start=1)]


def arrows_svg(game_map: GameMap, board: HexBoard, places: Mapping[str, Place]) -> list[str]:
    """Each arrow as a group with its facts as data- attributes: moves and
    retreats first, the kicks over them."""
    out = []
    kicks = {id(arrow): n for n, arrow in numbered_kicks(board)}
    for arrow in sorted(board.arrows, key=lambda a: a.kind == KICK):
        a, b = places.get(arrow.origin), places.get(arrow.to)
        if a is None or b is None:
            continue
        facts = (f'data-arrow="{arrow.kind}" data-of="{escape(arrow.power)}" '
                 f'data-from="{escape(arrow.origin)}" data-to="{escape(arrow.to)}" '
                 f'data-succeeded="{str(arrow.succeeded).lower()}"')
        if arrow.why:
            facts += f' data-why="{escape(arrow.why)}"'
        if arrow.kind == KICK:
            facts += f' data-number="{kicks[id(arrow)]}"'
        if arrow.origin == arrow.to:  # kicked where it stood: the number on its place
            mark = badge(a.x + a.half_width - 4, a.y - a.half_height + 4, kicks[id(arrow)]) \
                if arrow.kind == KICK else ""
            out.append(f"<g {facts}>{mark}</g>")
            continue
        colour = KICK_COLOUR if arrow.kind == KICK else _colour(game_map, arrow.power)
        line, (mx, my) = arrow_path(a, b, colour, WIDTH.get(arrow.kind, 3.0), not arrow.succeeded)
        # the number beside the line, not on the labels it may cross
        length = math.dist((a.x, a.y), (b.x, b.y)) or 1.0
        side = ((a.y - b.y) / length * 11, (b.x - a.x) / length * 11)
        mark = badge(mx + side[0], my + side[1], kicks[id(arrow)]) if arrow.kind == KICK else ""
        out.append(f"<g {facts}>{line}{mark}</g>")
    return out
