"""SVG path data as cairo's path items, as cairosvg lays them, for
judge/maps/paint.py: the commands the maps write (M, L, H, V, Z and C,
absolute or relative); anything else is :class:`Unknown`."""

from __future__ import annotations

import re
from functools import lru_cache

import cairocffi

_PATH = re.compile(r"([MmLlHhVvZzCc])|(-?(?:\d+\.?\d*|\.\d+))|([\s,]+)|(.)")
Items = tuple[tuple[int, tuple[float, ...]], ...]
Box = tuple[float, float, float, float]  # left, top, right, bottom


class Unknown(Exception):
    """Something of SVG judge/maps/paint.py does not draw."""


@lru_cache(maxsize=4096)  # an owned province's area is the same path every phase
def path_items(d: str) -> tuple[Items, Box] | None:
    """The path's items (absolute points) and the box round its points;
    None for a path of nothing. A Z closes only a subpath that has drawn
    since its move, as cairosvg's does."""
    tokens: list[str | float] = []
    for letter, value, _, other in _PATH.findall(d):
        if other:
            raise Unknown(f"path {other!r}")
        if letter:
            tokens.append(letter)
        elif value:
            tokens.append(float(value))
    items: list[tuple[int, tuple[float, ...]]] = []
    x = y = 0.0
    start: tuple[float, float] | None = None  # the subpath's first point, once it has drawn
    moved = (0.0, 0.0)
    at = 0
    letter = ""
    while at < len(tokens):
        token = tokens[at]
        if isinstance(token, str):
            letter = token
            at += 1
            if letter in "Zz":
                if start is not None:
                    items.append((cairocffi.PATH_CLOSE_PATH, ()))
                    x, y = start
                start = None
                continue
        elif not letter or letter in "Zz":
            raise Unknown("path numbers without a command")
        count = _ARGUMENTS[letter.upper()]
        values = tokens[at:at + count]
        if len(values) < count or not all(isinstance(v, float) for v in values):
            raise Unknown("path arguments")
        at += count
        numbers = [float(v) for v in values]
        relative = letter.islower()
        kind = letter.upper()
        if not items and kind != "M":
            raise Unknown("a path not starting with a move")
        if kind == "M":
            x, y = (x + numbers[0], y + numbers[1]) if relative else (numbers[0], numbers[1])
            items.append((cairocffi.PATH_MOVE_TO, (x, y)))
            moved, start = (x, y), None
            letter = "l" if relative else "L"  # further pairs are lines
            continue
        if start is None:
            start = moved
        if kind == "L":
            x, y = (x + numbers[0], y + numbers[1]) if relative else (numbers[0], numbers[1])
        elif kind == "H":
            x = x + numbers[0] if relative else numbers[0]
        elif kind == "V":
            y = y + numbers[0] if relative else numbers[0]
        else:  # C
            points = [(x + numbers[i], y + numbers[i + 1]) if relative
                      else (numbers[i], numbers[i + 1]) for i in (0, 2, 4)]
            items.append((cairocffi.PATH_CURVE_TO, (*points[0], *points[1], *points[2])))
            x, y = points[2]
            continue
        items.append((cairocffi.PATH_LINE_TO, (x, y)))
    if not items:
        return None
    xs = [v for _, points in items for v in points[0::2]]
    ys = [v for _, points in items for v in points[1::2]]
    return tuple(items), (min(xs), min(ys), max(xs), max(ys))


_ARGUMENTS = {"M": 2, "L": 2, "H": 1, "V": 1, "Z": 0, "C": 6}


