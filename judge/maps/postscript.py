"""Reading DPJudge's PostScript map (dpmap's format) for what the judge
draws with: the outlines of its land, borders, mountains and lakes, and
the coordinate of every province, coast and supply centre.

Only the small part of PostScript that dpmap writes for a map is read:
the ``% INFO`` comment table (a place's coordinate), the ``VisitSupplies``
procedure (where each centre's marker goes) and the ``OutlineChart*``
procedures, which are flat lists of ``x y m`` (move), ``x y l`` (line),
``x1 y1 x2 y2 x3 y3 c`` (curve), ``p`` (close) and ``fk`` (fill and/or
stroke, as the procedure that includes them says). Coordinates are
PostScript points with y upwards, as in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path as FilePath

ARTWORK = FilePath(__file__).parent / "artwork"  # the map files the judge ships

Point = tuple[float, float]

# which outline procedure draws what (see dpmap's Include* procedures)
LAYERS = {
    "OutlineChartLandBrown": "land",
    "OutlineChartBrown": "land",
    "OutlineChartBlack": "inner_border",
    "OutlineChartBorderBlack": "border",
    "OutlineChartGrey": "mountain",
    "OutlineChartBlue": "lake",
}


_FILLED = frozenset({"land", "mountain", "lake"})


@dataclass(frozen=True)
class Path:
    """One subpath: a start, then segments; each segment is a tuple of one
    point (a line to it) or three (a Bezier curve's two controls and end)."""
    start: Point
    segments: tuple[tuple[Point, ...], ...]
    closed: bool


@dataclass(frozen=True)
class PostScriptMap:
    places: dict[str, Point]  # province or coast (BUL/EC) -> its label/unit point
    names: dict[str, str]  # the same keys -> full name
    centres: dict[str, Point]  # province -> its supply-centre marker
    layers: dict[str, tuple[Path, ...]]  # land, inner_border, border, mountain, lake
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 of the sea rectangle


_INFO = re.compile(r"^%\s+(\d+)\s+(\d+)\s+([A-Z]{3}(?:/[A-Z]{2})?)\s+(.+?)\s*$")
_SUPPLY = re.compile(r"^\s*/([A-Z]{3})\s+(\d+)\s+(\d+)\s+s\s*$")
_PROC = re.compile(r"^/(\w+)\s*\{\s*$")
_SEA = re.compile(r"SeaBlue\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+rectfill")


def read_postscript(text: str) -> PostScriptMap:
    places: dict[str, Point] = {}
    names: dict[str, str] = {}
    centres: dict[str, Point] = {}
    layers: dict[str, list[Path]] = {layer: [] for layer in set(LAYERS.values())}
    box = (0.0, 0.0, 0.0, 0.0)
    procedure = ""
    start: Point | None = None
    segments: list[tuple[Point, ...]] = []

    def finish(closed: bool) -> None:
        nonlocal start, segments
        if start is not None and segments:
            layers[LAYERS[procedure]].append(Path(start, tuple(segments), closed))
        start, segments = None, []

    for line in text.splitlines():
        if found := _INFO.match(line):
            x, y, code, name = found.groups()
            places[code] = (float(x), float(y))
            names[code] = name
            continue
        if found := _SEA.search(line):
            x0, y0, width, height = map(float, found.groups())
            box = (x0, y0, x0 + width, y0 + height)
        if found := _PROC.match(line):
            procedure = found.group(1)
            continue
        if procedure == "VisitSupplies" and (found := _SUPPLY.match(line)):
            centres[found.group(1)] = (float(found.group(2)), float(found.group(3)))
            continue
        if procedure not in LAYERS:
            continue
        words = line.split()
        if not words:
            continue
        if words[-1] == "m":
            finish(False)
            start = (float(words[0]), float(words[1]))
        elif words[-1] == "l":
            segments.append(((float(words[0]), float(words[1])),))
        elif words[-1] == "c":
            v = list(map(float, words[:6]))
            segments.append(((v[0], v[1]), (v[2], v[3]), (v[4], v[5])))
        elif words[-1] == "p":
            finish(True)
        elif words[-1] == "fk":
            # fk fills (and so closes) the land, mountain and lake outlines,
            # and only strokes the borders
            finish(LAYERS[procedure] in _FILLED)
        elif words[0] == "}":
            finish(False)
            procedure = ""
    return PostScriptMap(places, names, centres,
                         {k: tuple(v) for k, v in layers.items()}, box)


LABEL_DROP = 14.0  # points below its unit the province name goes (dpmap: 7, for smaller units)


def to_map_units(art: PostScriptMap, point: Point) -> Point:
    """A PostScript point (y up, from the page's corner) as the variant
    file's map units (y down, from the sea rectangle's top left corner)."""
    x0, _, _, y1 = art.box
    return round(point[0] - x0, 1), round(y1 - point[1], 1)


def drawing_table(art: PostScriptMap, artwork: str) -> str:
    """The variant file's [map] table for this artwork: its size, and where
    it puts each unit, province name and centre marker. Run once when an
    artwork is added (``python -m judge.maps.postscript FILE``); the judge
    then reads the variant file only."""
    x0, y0, x1, y1 = art.box

    def entry(code: str, point: Point) -> str:
        key = f'"{code}"' if "/" in code else code
        x, y = point
        return f"{key} = [{x:g}, {y:g}]"

    lines = ["[map]", f'artwork = "{artwork}"', f"size = [{x1 - x0:g}, {y1 - y0:g}]",
             "", "[map.units]"]
    lines += [entry(code, to_map_units(art, p)) for code, p in sorted(art.places.items())]
    lines += ["", "[map.labels]"]
    for code, (x, y) in sorted(art.places.items()):
        if "/" not in code:
            lines.append(entry(code, to_map_units(art, (x, y - LABEL_DROP))))
    lines += ["", "[map.centres]"]
    lines += [entry(code, to_map_units(art, p)) for code, p in sorted(art.centres.items())]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import sys

    source = FilePath(sys.argv[1])
    print(drawing_table(read_postscript(source.read_text(encoding="latin-1")), source.name))
