"""The paths of one dpmap drawing procedure (``OutlineChartLand``,
``ShapeBridges``, ``DrawOffBoard``...): the few path operators dpmap
writes, each with its fixed number of operands.

dpmap's outlines are flat lists of ``x y m`` (move), ``x y l`` (line),
``x1 y1 x2 y2 x3 y3 c`` (curve), ``p`` (close) and ``fk`` (end the path
and paint it, as the procedure including the outline says). Its shapes
(arrows, bridges, rounded boxes) add ``x y t`` (translate), ``a o``
(rotate), ``sx sy x`` (scale), ``x y r a1 a2 a`` (arc), ``n`` (new path)
and ``s``/``r`` (save and restore the transformation). Any other word
(a colour, ``w``, ``k``) is skipped with the numbers before it. This is a
reader of that subset, not a PostScript interpreter.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]
Matrix = tuple[float, float, float, float, float, float]  # PostScript's [a b c d e f]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Path:
    """One subpath: a start, then segments; each segment is a tuple of one
    point (a line to it) or three (a Bezier curve's two controls and end)."""
    start: Point
    segments: tuple[tuple[Point, ...], ...]
    closed: bool


def then(first: Matrix, second: Matrix) -> Matrix:
    """``first`` applied, then ``second`` (PostScript's ``first second concat``
    order reversed: the operator's matrix is applied to user space first)."""
    a, b, c, d, e, f = first
    A, B, C, D, E, F = second
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def apply(matrix: Matrix, point: Point) -> Point:
    a, b, c, d, e, f = matrix
    x, y = point
    return (round(a * x + c * y + e, 4), round(b * x + d * y + f, 4))


def _arc(x: float, y: float, radius: float, start: float, end: float
         ) -> list[tuple[Point, Point, Point, Point]]:
    """A counter-clockwise arc as Bezier curves of at most a quarter turn
    each: (start, control, control, end)."""
    while end < start:
        end += 360.0
    pieces = max(1, math.ceil((end - start) / 90.0 - 1e-9))
    step = math.radians((end - start) / pieces)
    reach = 4.0 / 3.0 * math.tan(step / 4.0) * radius
    curves = []
    for index in range(pieces):
        a0 = math.radians(start) + index * step
        a1 = a0 + step
        p0 = (x + radius * math.cos(a0), y + radius * math.sin(a0))
        p3 = (x + radius * math.cos(a1), y + radius * math.sin(a1))
        c1 = (p0[0] - reach * math.sin(a0), p0[1] + reach * math.cos(a0))
        c2 = (p3[0] + reach * math.sin(a1), p3[1] - reach * math.cos(a1))
        curves.append((p0, c1, c2, p3))
    return curves


_ARITY = {"m": 2, "l": 2, "c": 6, "t": 2, "o": 1, "x": 2, "a": 5}
_KEEPS = frozenset({"s", "r", "n"})


def read_paths(words: list[str], closes: bool, matrix: Matrix = IDENTITY,
               operands: tuple[float, ...] = ()) -> list[Path]:
    """The subpaths the words draw, in the coordinates ``matrix`` takes
    them to. ``closes``: whether ``fk`` closes the path (a fill) or leaves
    it open (a stroke). ``operands``: numbers on the stack when the
    procedure is called (an off-board box's point)."""
    paths: list[Path] = []
    stack: list[float] = list(operands)
    saved: list[Matrix] = []
    start: Point | None = None
    segments: list[tuple[Point, ...]] = []

    def finish(closed: bool) -> None:
        nonlocal start, segments
        if start is not None and segments:
            paths.append(Path(start, tuple(segments), closed))
        start, segments = None, []

    for word in words:
        try:
            stack.append(float(word))
            continue
        except ValueError:
            pass
        arity = _ARITY.get(word, 0)
        if len(stack) < arity:
            stack.clear()
            continue
        v: list[float] = stack[len(stack) - arity:]
        if word not in _KEEPS:  # gsave and the like leave the stack be
            stack.clear()
        if word == "m":
            finish(False)
            start = apply(matrix, (v[0], v[1]))
        elif word == "l" and start is not None:
            segments.append((apply(matrix, (v[0], v[1])),))
        elif word == "c" and start is not None:
            segments.append(tuple(apply(matrix, (v[i], v[i + 1])) for i in (0, 2, 4)))
        elif word == "a":
            for p0, c1, c2, p3 in _arc(*v):
                if start is None:
                    start = apply(matrix, p0)
                else:
                    segments.append((apply(matrix, p0),))
                segments.append((apply(matrix, c1), apply(matrix, c2), apply(matrix, p3)))
        elif word == "t":
            matrix = then((1.0, 0.0, 0.0, 1.0, v[0], v[1]), matrix)
        elif word == "o":
            turn = math.radians(v[0])
            cos, sin = math.cos(turn), math.sin(turn)
            matrix = then((cos, sin, -sin, cos, 0.0, 0.0), matrix)
        elif word == "x":
            matrix = then((v[0], 0.0, 0.0, v[1], 0.0, 0.0), matrix)
        elif word == "p":
            finish(True)
        elif word == "fk":
            finish(closes)
        elif word == "n":
            start, segments = None, []
        elif word == "s":
            saved.append(matrix)
        elif word == "r" and saved:
            matrix = saved.pop()
    finish(False)
    return paths
