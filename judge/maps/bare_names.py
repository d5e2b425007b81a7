"""Owned land painted round the names, not over them: on a board whose
owners' colours are laid on strongly (Intercontinental's regions), the
names drawn under them would be hidden, so each owned area is cut round
the names written on it and they stay dark on the land's own colour."""

from __future__ import annotations

from collections.abc import Collection, Mapping

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from engine.map import Point
from judge.maps.board import area_data
from judge.maps.labels import ASCENT, DESCENT
from judge.maps.text_width import advance

BARE = 0.2  # font sizes of bare land kept round a name under a strong owner's colour


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
        half = advance(code, code in bold) * size / 2 + pad
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
