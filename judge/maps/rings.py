"""Each province's ring, derived from the standard map's artwork.

Diplomap (issue 16) redraws borders by splitting provinces, and to split
one the engine needs what its border touches, in order, going round it:
its neighbours, the board's edge and impassable land. The artwork knows
this and the adjacency lists do not, so it is read once from the province
shapes (judge/maps/shapes.py) and stored as data in the variant file's
``[rings]`` table, checked by engine/rings.py on every load.

    python -m judge.maps.rings            print the [rings] table
    python -m judge.maps.rings --write    replace it in engine/variants/standard.toml
"""

from __future__ import annotations

import sys
from pathlib import Path

from shapely import LineString, Point, Polygon, STRtree, box, unary_union
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import polygonize

from engine.map import Terrain
from engine.rings import EDGE
from engine.variant_file import load_variant
from judge.maps.postscript import ARTWORK, read_postscript
from judge.maps.shapes import province_shapes

STEP = 0.5  # points: the border is looked at this often
NEAR = 0.05  # points: a shape this near the border is what it touches there
SHORTEST = 1.0  # points: a stretch shorter than this is a touch at a corner, not a border
# dpmap draws no line across the Strait of Messina (Sicily lies 2 points off
# Calabria) and its Sicily-Tunis line stops 0.65 points short of Sicily, so
# the Tyrrhenian and Ionian Seas come out as one face with Sicily a hole in
# it. These two cuts (each drawn on a point past both ends) part them; the
# renderer never fills seas, so only the rings need it.
CUTS = {("TYS", "ION"): (((305.9, 79.26), (308.0, 79.0)), ((256.0, 71.0), (272.0, 78.0)))}
REACH = 1.0  # points a cut is drawn on past each end
# Land faces the shapes leave without a province because they are too big to
# be taken for a sliver (shapes.ISLAND_AREA), though the map gives them one:
# Constantinople's European side, cut off by the Bosporus, and Zealand,
# Denmark's island, which is what reaches Sweden across the Sound (the
# DEN-SWE move). A point inside each says which face.
FACES = {"CON": (447.2, 125.0), "DEN": (299.0, 345.5)}
EDGE_NEAR = 0.5  # points: neutral land this near the frame is part of the edge
VARIANT_FILE = Path(__file__).resolve().parents[2] / "engine" / "variants" / "standard.toml"


def _main_part(shape: BaseGeometry) -> Polygon:
    """The province's largest piece: the slivers polygonize leaves beside a
    border have no area, and a province's own islands touch only its seas."""
    parts = list(getattr(shape, "geoms", [shape]))
    return max((p for p in parts if isinstance(p, Polygon)), key=lambda p: p.area)


def shapes_for_rings() -> dict[str, Polygon]:
    """One polygon per province of the standard map, Switzerland included."""
    game_map = load_variant("standard")
    assert game_map.drawing.artwork is not None
    art = read_postscript((ARTWORK / game_map.drawing.artwork).read_text(encoding="latin-1"))
    water = {code: prov.terrain is Terrain.WATER for code, prov in game_map.provinces.items()}
    shapes = {code: _main_part(shape) for code, shape in province_shapes(art, water).items()}
    x0, y0, x1, y1 = art.box
    rest = box(x0, y0, x1, y1).difference(unary_union(list(shapes.values())))
    leftover = [p for p in getattr(rest, "geoms", [rest]) if isinstance(p, Polygon)]
    for code, (x, y) in FACES.items():
        face = next(p for p in leftover if p.contains(Point(x, y)))
        shapes[code] = _main_part(unary_union([shapes[code], face.buffer(0.01)]).buffer(-0.01))
        leftover.remove(face)
    # Neutral land along the frame (beyond Moscow and Sevastopol) is, for a
    # ring, the edge of the board: nothing can ever be there.
    frame = frame_of()
    edge = [p for p in leftover if p.area > 1 and p.distance(frame) <= EDGE_NEAR]
    if edge:
        shapes[EDGE] = _main_part(unary_union(edge))
    for (holder, lost), cuts in CUTS.items():
        whole = shapes[holder]
        lines = [whole.boundary, *(_drawn_on(start, end) for start, end in cuts)]
        pieces = [p for p in polygonize(unary_union(lines))
                  if whole.contains(p.representative_point())]
        spot = Point(art.places[lost])
        shapes[lost] = next(p for p in pieces if p.contains(spot))
        shapes[holder] = max((p for p in pieces if not p.contains(spot)), key=lambda p: p.area)
    return shapes


def _drawn_on(start: tuple[float, float], end: tuple[float, float]) -> LineString:
    dx, dy = end[0] - start[0], end[1] - start[1]
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm * REACH, dy / norm * REACH
    return LineString([(start[0] - ux, start[1] - uy), (end[0] + ux, end[1] + uy)])


def frame_of() -> LineString:
    art = read_postscript((ARTWORK / "standard.ps").read_text(encoding="latin-1"))
    x0, y0, x1, y1 = art.box
    return LineString([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)])


def ring(code: str, shapes: dict[str, Polygon], tree: STRtree, codes: list[str],
         frame: LineString) -> tuple[list[str], list[str]]:
    """The province's ring, clockwise as seen on the map (the artwork's y
    runs up, so shapely's clockwise is the map's), and the corner touches
    left out of it."""
    outline = orient(shapes[code], sign=-1.0).exterior
    runs: list[tuple[str | None, float]] = []  # what it touches, for how long
    length = outline.length
    steps = max(int(length / STEP), 8)
    step = length / steps
    for index in range(steps):
        spot = outline.interpolate((index + 0.5) * step)
        found: str | None = None
        best = NEAR
        for n in tree.query(spot.buffer(NEAR)):
            other = codes[int(n)]
            if other == code:
                continue
            distance = shapes[other].distance(spot)
            if distance <= best:
                best, found = distance, other
        if found is None and frame.distance(spot) <= NEAR:
            found = EDGE
        if runs and runs[-1][0] == found:
            runs[-1] = (found, runs[-1][1] + step)
        else:
            runs.append((found, step))
    # A stretch left without a province (a neutral island such as Ireland
    # between two seas) is dropped; the seas either side then meet.
    corners = sorted({w for w, size in runs if w is not None and size < SHORTEST})
    kept = [w for w, size in runs if w is not None and size >= SHORTEST]
    merged: list[str] = []
    for what in kept:
        if not merged or merged[-1] != what:
            merged.append(what)
    if len(merged) > 1 and merged[0] == merged[-1]:
        merged.pop()
    return merged, corners


def standard_rings() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    shapes = shapes_for_rings()
    codes = sorted(shapes)
    tree = STRtree([shapes[c] for c in codes])
    frame = frame_of()
    rings: dict[str, list[str]] = {}
    corners: dict[str, list[str]] = {}
    for code in codes:
        if code == EDGE:
            continue
        rings[code], corners[code] = ring(code, shapes, tree, codes, frame)
    return rings, corners


def table(rings: dict[str, list[str]]) -> str:
    lines = ["# What each province's border touches, clockwise (engine/rings.py); written",
             "# from the artwork by python -m judge.maps.rings --write.",
             "[rings]"]
    lines += [f"{code} = [{', '.join(chr(34) + n + chr(34) for n in ring)}]"
              for code, ring in sorted(rings.items())]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    rings, corners = standard_rings()
    for code, touched in sorted(corners.items()):
        if touched:
            print(f"# {code}: corner touches left out: {', '.join(touched)}", file=sys.stderr)
    text = table(rings)
    if "--write" not in argv:
        print(text, end="")
        return 0
    current = VARIANT_FILE.read_text(encoding="utf-8")
    start = current.find("\n# What each province's border touches")
    if start >= 0:
        end = current.find("\n[", current.index("\n[rings]", start) + 1)
        current = current[:start] + current[end if end >= 0 else len(current):]
    VARIANT_FILE.write_text(current.rstrip("\n") + "\n\n" + text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
