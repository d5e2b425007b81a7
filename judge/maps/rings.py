"""Each province's ring, derived from the artwork a variant is drawn from.

Diplomap (issue 16) redraws borders by splitting provinces, and to split
one the engine needs what its border touches, in order, going round it:
its neighbours, the board's edge and impassable land. The artwork knows
this and the adjacency lists do not, so it is read once from the province
shapes (judge/maps/shapes.py) and stored as data in the variant file's
``[rings]`` table, checked by engine/rings.py on every load.

Where an artwork leaves something unsaid (two seas drawn as one face, a
province's land the shapes leave nameless), a small file beside it says
it: ``judge/maps/artwork/NAME.rings.toml`` (``[[cuts]]`` and ``[faces]``,
see :class:`RingFixes`, or ``same_as = "standard"`` for a map drawn on
another's lines).

    python -m judge.maps.rings [VARIANT]           print the [rings] table
    python -m judge.maps.rings [VARIANT] --write   replace it in engine/variants/VARIANT.toml
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from shapely import LineString, Point, Polygon, STRtree, unary_union
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import nearest_points, polygonize

from engine.map import Terrain
from engine.rings import EDGE
from engine.variant_file import load_variant
from judge.maps.postscript import ARTWORK, PostScriptMap, read_postscript, variant_points
from judge.maps.shapes import frame_line, province_shapes

STEP = 0.5  # points: the border is looked at this often
NEAR = 0.05  # points: a shape this near the border is what it touches there
SHORTEST = 1.0  # points: a stretch shorter than this is a touch at a corner, not a border
REACH = 1.0  # points a cut is drawn on past each end
EDGE_NEAR = 0.5  # points: neutral land this near the frame is part of the edge
BRIDGE = 1.5  # points: half a bridge's width, where it meets each province
VARIANTS = Path(__file__).resolve().parents[2] / "engine" / "variants"

Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Cut:
    """Lines parting ``lost`` from ``holder``, two seas the artwork draws as
    one face (each drawn on a point past both ends). On the standard map
    dpmap draws no line across the Strait of Messina and its Sicily-Tunis
    line stops short of Sicily: the Tyrrhenian and Ionian Seas are one face."""
    holder: str
    lost: str
    lines: tuple[Segment, ...]


@dataclass(frozen=True)
class RingFixes:
    """What an artwork leaves for its rings to be told."""
    cuts: tuple[Cut, ...] = ()
    # Land faces the shapes leave without a province because they are too
    # big to be taken for a sliver (shapes.ISLAND_AREA), though the map
    # gives them one: on the standard map Constantinople's European side,
    # cut off by the Bosporus, and Zealand, Denmark's island, which is what
    # reaches Sweden across the Sound. A point inside each says which face.
    faces: Mapping[str, tuple[float, float]] | None = None
    # Provinces adjacent across water or at a corner, where the artwork
    # draws no shared border (Hundred's Calais and London across the
    # Strait, Sengoku's crossings, Modern's Sound): a strip of the first,
    # where the two come nearest, reaches the second, and the water it
    # crosses is parted there, as the standard map's Zealand parts the
    # Skagerrak from the Baltic.
    bridges: tuple[tuple[str, str], ...] = ()


def fixes_for(artwork: str) -> RingFixes:
    """The artwork's fixes file, or none. A file with ``same_as`` (a map
    redrawn on another's lines) takes that map's fixes, and adds its own."""
    path = ARTWORK / (artwork.removesuffix(".ps") + ".rings.toml")
    if not path.exists():
        return RingFixes()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    base = fixes_for(data["same_as"] + ".ps") if "same_as" in data else RingFixes()
    cuts = tuple(Cut(row["holder"], row["lost"],
                     tuple(((a[0], a[1]), (b[0], b[1])) for a, b in row["lines"]))
                 for row in data.get("cuts", []))
    faces = {code: (float(x), float(y)) for code, (x, y) in data.get("faces", {}).items()}
    bridges = tuple((str(a), str(b)) for a, b in data.get("bridges", []))
    return RingFixes(base.cuts + cuts, {**(base.faces or {}), **faces} or None,
                     base.bridges + bridges)


def _main_part(shape: BaseGeometry) -> Polygon:
    """The province's largest piece: the slivers polygonize leaves beside a
    border have no area, and a province's own islands touch only its seas."""
    parts = list(getattr(shape, "geoms", [shape]))
    return max((p for p in parts if isinstance(p, Polygon)), key=lambda p: p.area)


def ring_shapes(art: PostScriptMap, water: Mapping[str, bool], fixes: RingFixes,
                points: Mapping[str, tuple[float, float]] | None = None,
                centres: Mapping[str, tuple[float, float]] | None = None
                ) -> dict[str, Polygon]:
    """One polygon per province (``water``: code -> True for water; the
    impassable ones, as Switzerland, given as land), and EDGE. ``points``,
    ``centres``: as for shapes.province_shapes."""
    places = art.places if points is None else points
    shapes = {code: _main_part(shape)
              for code, shape in province_shapes(art, water, places, centres).items()}
    frame = frame_line(art)
    rest = Polygon(frame.coords).difference(unary_union(list(shapes.values())))
    leftover = [p for p in getattr(rest, "geoms", [rest]) if isinstance(p, Polygon)]
    for code, (x, y) in (fixes.faces or {}).items():
        face = next(p for p in leftover if p.contains(Point(x, y)))
        shapes[code] = _main_part(unary_union([shapes[code], face.buffer(0.01)]).buffer(-0.01))
        leftover.remove(face)
    # Neutral land along the frame (beyond Moscow and Sevastopol) is, for a
    # ring, the edge of the board: nothing can ever be there.
    edge = [p for p in leftover if p.area > 1 and p.distance(frame) <= EDGE_NEAR]
    if edge:
        shapes[EDGE] = _main_part(unary_union(edge))
    for cut in fixes.cuts:
        whole = shapes[cut.holder]
        lines = [whole.boundary, *(_drawn_on(start, end) for start, end in cut.lines)]
        pieces = [p for p in polygonize(unary_union(lines))
                  if whole.contains(p.representative_point())]
        spot = Point(places[cut.lost])
        shapes[cut.lost] = next(p for p in pieces if p.contains(spot))
        shapes[cut.holder] = max((p for p in pieces if not p.contains(spot)),
                                 key=lambda p: p.area)
    for first, second in fixes.bridges:
        near, far = nearest_points(shapes[first], shapes[second])
        strip = LineString([near, far]).buffer(BRIDGE) if near.distance(far) > 0 \
            else near.buffer(BRIDGE)
        for code in list(shapes):
            if code not in (first, second) and shapes[code].intersects(strip):
                shapes[code] = _main_part(shapes[code].difference(strip))
        shapes[first] = _main_part(unary_union([shapes[first], strip]))
    return shapes


def _artwork_of(variant: str) -> tuple[PostScriptMap, dict[str, Polygon]]:
    """The variant's artwork and one polygon per province, impassable ones included."""
    game_map = load_variant(variant)
    drawing = game_map.drawing
    if drawing.artwork is None:
        raise ValueError(f"variant {variant} has no artwork to derive its rings from")
    art = read_postscript((ARTWORK / drawing.artwork).read_text(encoding="latin-1"))
    water = {code: prov.terrain is Terrain.WATER for code, prov in game_map.provinces.items()}
    points, centres = variant_points(art, drawing.units, drawing.centres)
    return art, ring_shapes(art, water, fixes_for(drawing.artwork), points, centres)


def shapes_for_rings(variant: str = "standard") -> dict[str, Polygon]:
    """One polygon per province of the variant, impassable ones included."""
    return _artwork_of(variant)[1]


def _drawn_on(start: tuple[float, float], end: tuple[float, float]) -> LineString:
    dx, dy = end[0] - start[0], end[1] - start[1]
    norm = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / norm * REACH, dy / norm * REACH
    return LineString([(start[0] - ux, start[1] - uy), (end[0] + ux, end[1] + uy)])


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


def variant_rings(variant: str = "standard"
                  ) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each province's ring, and the corner touches left out of it."""
    art, shapes = _artwork_of(variant)
    codes = sorted(shapes)
    tree = STRtree([shapes[c] for c in codes])
    frame = frame_line(art)
    rings: dict[str, list[str]] = {}
    corners: dict[str, list[str]] = {}
    for code in codes:
        if code == EDGE:
            continue
        rings[code], corners[code] = ring(code, shapes, tree, codes, frame)
    return rings, corners


def standard_rings() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    return variant_rings("standard")


def table(rings: dict[str, list[str]]) -> str:
    lines = ["# What each province's border touches, clockwise (engine/rings.py); written",
             "# from the artwork by python -m judge.maps.rings --write.",
             "[rings]"]
    lines += [f"{code} = [{', '.join(chr(34) + n + chr(34) for n in ring)}]"
              for code, ring in sorted(rings.items())]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    named = [a for a in argv if not a.startswith("--")]
    variant = named[0] if named else "standard"
    rings, corners = variant_rings(variant)
    for code, touched in sorted(corners.items()):
        if touched:
            print(f"# {code}: corner touches left out: {', '.join(touched)}", file=sys.stderr)
    text = table(rings)
    if "--write" not in argv:
        print(text, end="")
        return 0
    variant_file = VARIANTS / f"{variant}.toml"
    current = variant_file.read_text(encoding="utf-8")
    start = current.find("\n# What each province's border touches")
    if start < 0 and "\n[rings]" in current:
        start = current.index("\n[rings]")
    if start >= 0:
        end = current.find("\n[", current.index("\n[rings]", start) + 1)
        current = current[:start] + current[end if end >= 0 else len(current):]
    variant_file.write_text(current.rstrip("\n") + "\n\n" + text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
