"""The part of a map that stays the same all game: its background (sea,
land, borders), the area of each province, and where units, names and
centre markers go. Built once per variant and process, from the variant's
artwork or, for a variant without artwork, as a schematic of its
adjacency graph (judge/maps/schematic.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from shapely import affinity
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from engine.map import GameMap, Point, Terrain
from judge.maps.postscript import ARTWORK, Path, PostScriptMap, read_postscript
from judge.maps.shapes import province_shapes

SEA = "#9cc3e0"
LAND = "#e8dcb5"
MOUNTAIN = "#b9ad95"
LAKE = SEA
BORDER = "#5c4a32"
COAST = "#40617a"
SIMPLIFY = 0.2  # map units: province areas are drawn with this much less detail
OWNER_OPACITY = 0.55  # owned land: the power's colour over the land's, this much of it
PIXELS_WIDE = 1000  # every PNG is this wide (what a mail client shows); its height follows
FONTS = "DejaVu Sans, Verdana, sans-serif"


@dataclass(frozen=True)
class MapDrawing:
    """A variant's drawing, ready to have a position laid over it."""

    width: float
    height: float
    under: str  # SVG drawn first: sea, land, (schematic) adjacency lines
    over: str  # SVG drawn over the owners' colours: mountains, lakes, borders
    areas: Mapping[str, str]  # province -> SVG path data of its area
    units: Mapping[str, Point]  # location -> where its unit stands
    labels: Mapping[str, Point]  # province -> where its name is written
    centres: Mapping[str, Point]  # supply centre -> its marker
    unit_size: float  # a unit's height in map units
    schematic: bool = False
    label_size: float = 6.0
    # where a dislodged unit is drawn, from its province's unit, in unit sizes:
    # up and right on the artwork; a schematic's block keeps it a place of its own
    dislodged_shift: Point = (0.55, -0.55)
    owner_opacity: float = OWNER_OPACITY
    unit_edge: str | None = None  # a pale edge round each unit, to show on its own colour
    # owned land painted round the names, not over them (judge/maps/labels.py
    # bare_names): a strong owner_opacity would hide the names drawn under it
    bare_names: bool = False


def number(value: float) -> str:
    """A coordinate as SVG wants it: one decimal at most, no "-0"."""
    text = f"{value:.1f}"
    return "0" if text == "-0.0" else text[:-2] if text.endswith(".0") else text


def path_data(paths: list[Path], art: PostScriptMap) -> str:
    """PostScript subpaths as SVG path data, in map units (y down)."""
    x0, _, _, y1 = art.box

    def at(point: Point) -> str:
        return f"{number(point[0] - x0)} {number(y1 - point[1])}"

    words: list[str] = []
    for path in paths:
        words.append("M" + at(path.start))
        for segment in path.segments:
            if len(segment) == 1:
                words.append("L" + at(segment[0]))
            else:
                words.append("C" + " ".join(at(p) for p in segment))
        if path.closed:
            words.append("Z")
    return "".join(words)


def area_data(shape: BaseGeometry) -> str:
    """A province's area as SVG path data (holes included, even-odd)."""
    words: list[str] = []
    polygons = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape]
    for polygon in polygons:
        if not isinstance(polygon, Polygon):
            continue
        for ring in (polygon.exterior, *polygon.interiors):
            points = list(ring.coords)[:-1]
            words.append("M" + "L".join(f"{number(x)} {number(y)}" for x, y in points) + "Z")
    return "".join(words)


def artwork_board(game_map: GameMap) -> MapDrawing:
    drawing = game_map.drawing
    assert drawing.artwork is not None
    art = read_postscript((ARTWORK / drawing.artwork).read_text(encoding="latin-1"))
    x0, y0, x1, y1 = art.box
    width, height = drawing.size or (x1 - x0, y1 - y0)
    layers = art.layers
    land = path_data(list(layers["land"]), art)  # filled under, its coast stroked over
    under = (
        f'<rect width="{number(width)}" height="{number(height)}" fill="{SEA}"/>'
        f'<path d="{land}" fill="{LAND}"/>'
    )
    over = (
        f'<path d="{path_data(list(layers["mountain"]), art)}" fill="{MOUNTAIN}"/>'
        f'<path d="{path_data(list(layers["lake"]), art)}" fill="{LAKE}"/>'
        f'<path d="{path_data(list(layers["inner_border"]), art)}" fill="none" '
        f'stroke="{BORDER}" stroke-width="0.5" stroke-dasharray="3 1.5"/>'
        f'<path d="{land}" fill="none" stroke="{COAST}" '
        f'stroke-width="0.6"/>'
        f'<path d="{path_data(list(layers["border"]), art)}" fill="none" stroke="{BORDER}" '
        f'stroke-width="1"/>'
    )
    water = {code: prov.terrain is Terrain.WATER for code, prov in game_map.provinces.items()
             if prov.terrain is not Terrain.IMPASSABLE}
    flip = [1, 0, 0, -1, -x0, y1]
    areas = {
        code: area_data(affinity.affine_transform(shape, flip).simplify(SIMPLIFY))
        for code, shape in province_shapes(art, water).items()
        if not water[code]
    }
    return MapDrawing(width=width, height=height, under=under, over=over, areas=areas,
                 units=dict(drawing.units), labels=dict(drawing.labels),
                 centres=dict(drawing.centres), unit_size=13.0)
