"""The part of a map that stays the same all game: its background (sea,
land, borders), the area of each province, and where units, dislodged
units, names and centre markers go. Built once per variant and process,
from the variant's artwork or, for a variant without artwork, as a
schematic of its adjacency graph (judge/maps/schematic.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from shapely import affinity, unary_union
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from engine.map import GameMap, Point, Terrain
from judge.maps.dislodged import Aside, dislodged_spots
from judge.maps.labels import label_box
from judge.maps.postscript import (
    ARTWORK,
    Layer,
    Path,
    PostScriptMap,
    read_postscript,
    variant_points,
)
from judge.maps.shapes import province_shapes

SEA = "#9cc3e0"
LAND = "#e8dcb5"
MOUNTAIN = "#b9ad95"
LAKE = SEA
ICE = "#eef2f4"
BORDER = "#5c4a32"
COAST = "#40617a"
SIMPLIFY = 0.2  # map units: province areas are drawn with this much less detail
SHORE = 0.5  # map units: a province's outline this near the sea is its shore
OWNER_OPACITY = 0.55  # owned land: the power's colour over the land's, this much of it
PIXELS_WIDE = 1000  # every PNG is this wide (what a mail client shows); its height follows
# pixels of a PNG a dislodged unit keeps off its province's borders: a
# border is 1-2 px wide there, and closer its outline meets the line
BORDER_ROOM = 1.5
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
    # up and right on the artwork; a schematic's block keeps it a place of its own.
    # Where the board knows its provinces' shapes, the spot nearest this one
    # with room for it (``dislodged``, judge/maps/dislodged.py)
    dislodged_shift: Point = (0.55, -0.55)
    dislodged: Mapping[str, Aside] = field(default_factory=dict)  # location -> its spot
    owner_opacity: float = OWNER_OPACITY
    unit_edge: str | None = None  # a pale edge round each unit, to show on its own colour
    # owned land painted round the names, not over them (judge/maps/labels.py
    # bare_names): a strong owner_opacity would hide the names drawn under it
    bare_names: bool = False
    # the PNG's width, where the board asks for more than PIXELS_WIDE: an
    # artwork drawn at a smaller scale than the standard map (Youngstown's
    # 1033 points on the page the standard's 628 fill) is drawn as much
    # wider, so that its units and names show at the standard map's size
    pixels: int = 0

    def aside(self, location: str, unit: Point) -> Aside:
        """Where a dislodged unit of ``location`` is drawn, its province's
        unit standing at ``unit``: the spot the board has for it, or else
        (no shape for its province, a part new on a Diplomap board) the shift."""
        found = self.dislodged.get(location)
        if found is not None:
            return found
        dx, dy = self.dislodged_shift
        return Aside((unit[0] + self.unit_size * dx, unit[1] + self.unit_size * dy))


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


# the judge's colours for the map's own (by their names in dpmap's files);
# any other colour is drawn as the file defines it
PALETTE = {"SeaBlue": SEA, "LandBrown": LAND, "MountainGrey": MOUNTAIN, "IceGrey": ICE,
           "BorderBlack": BORDER}
# the judge draws lines thinner than dpmap (a mail shows the map at
# 1000 px, not on paper): the standard map's borders at 1 and 0.5 for 1.5
# and 0.75, its coasts at 0.6 for 0.75
BORDER_SCALE = 2 / 3
WIDER = 1.1  # an artwork's unit (PostScriptMap.unit) from which its PNG is drawn wider
CAPTION_SIZE = 5.0  # map units: an off-board box's caption (the boxes it leads to)
COAST_SCALE = 0.8


def _colour(art: PostScriptMap, name: str) -> str:
    return PALETTE.get(name) or art.colours.get(name, BORDER)


def _lakes(art: PostScriptMap) -> set[str]:
    """The water layers painted over land (lakes): drawn again over the
    owners' colours, which cover the land provinces' areas whole."""
    seen_land, lakes = False, set()
    for layer in art.paint:
        if layer.role == "land":
            seen_land = True
        elif layer.role == "water" and seen_land:
            lakes.add(layer.name)
    return lakes


def _stroke(art: PostScriptMap, layer: Layer, scale: float) -> str:
    dash = ""
    if layer.dash:  # the dashes drawn shorter with the line, the gaps as long (still seen)
        pattern = [d * (scale if index % 2 == 0 else 1) for index, d in enumerate(layer.dash)]
        dash = f' stroke-dasharray="{" ".join(number(d) for d in pattern)}"'
    caps = ' stroke-linecap="round"' if layer.round_caps else ""
    colour = _colour(art, layer.stroke or "BorderBlack")
    return (f'<path d="{path_data(list(layer.paths), art)}" fill="none" stroke="{colour}" '
            f'stroke-width="{number(layer.width * scale)}"{dash}{caps}/>')


def artwork_pictures(art: PostScriptMap, width: float, height: float) -> tuple[str, str]:
    """The artwork as SVG under the owners' colours (the background, land
    and seas) and over them (mountains, lakes, borders, coasts, the rest)."""
    lakes = _lakes(art)
    frame = (f'<path d="{path_data(list(art.frame), art)}" fill="{_colour(art, art.background)}"/>'
             if art.frame else
             f'<rect width="{number(width)}" height="{number(height)}" '
             f'fill="{_colour(art, art.background)}"/>')
    under = [frame]
    for layer in art.paint:
        if layer.fill and layer.role in ("land", "water") and layer.name not in lakes:
            under.append(f'<path d="{path_data(list(layer.paths), art)}" '
                         f'fill="{_colour(art, layer.fill)}"/>')
    over = [f'<path d="{path_data(list(layer.paths), art)}" fill="{_colour(art, layer.fill)}"/>'
            for layer in art.paint
            if layer.fill and (layer.role == "impassable" or layer.name in lakes)]
    over += [_stroke(art, layer, BORDER_SCALE) for layer in art.paint
             if layer.role == "inner_border"]
    over += [f'<path d="{path_data(list(layer.paths), art)}" fill="none" stroke="{COAST}" '
             f'stroke-width="{number(layer.width * COAST_SCALE)}"/>'
             for layer in art.paint if layer.role == "land"
             or (layer.role == "water" and layer.name not in lakes)]
    over += [_stroke(art, layer, BORDER_SCALE) for layer in art.paint if layer.role == "border"]
    for layer in art.paint:
        if layer.role != "decoration":
            continue
        if layer.casing:
            casing_width, casing = layer.casing
            over.append(f'<path d="{path_data(list(layer.paths), art)}" fill="none" '
                        f'stroke="{_colour(art, casing)}" '
                        f'stroke-width="{number(casing_width * BORDER_SCALE)}"/>')
        if layer.fill:
            over.append(f'<path d="{path_data(list(layer.paths), art)}" '
                        f'fill="{_colour(art, layer.fill)}"/>')
        if layer.stroke:
            over.append(_stroke(art, layer, BORDER_SCALE))
    x0, _, _, y1 = art.box
    for code, box in sorted(art.off_board.items()):
        x, y = art.places[code]
        over.append(f'<path d="{path_data([box.outline], art)}" fill="none" stroke="{BORDER}" '
                    f'stroke-width="1"/><text class="off-board" x="{number(x - x0)}" '
                    f'y="{number(y1 - y + 14 + CAPTION_SIZE * 1.2)}" font-size="{CAPTION_SIZE:g}" '
                    f'font-family="{FONTS}" text-anchor="middle">{box.caption}</text>')
    return "".join(under), "".join(over)


def artwork_board(game_map: GameMap) -> MapDrawing:
    drawing = game_map.drawing
    assert drawing.artwork is not None
    art = read_postscript((ARTWORK / drawing.artwork).read_text(encoding="latin-1"))
    x0, y0, x1, y1 = art.box
    width, height = drawing.size or (x1 - x0, y1 - y0)
    under, over = artwork_pictures(art, width, height)
    water = {code: prov.terrain is Terrain.WATER for code, prov in game_map.provinces.items()
             if prov.terrain is not Terrain.IMPASSABLE}
    flip = [1, 0, 0, -1, -x0, y1]
    points, markers = variant_points(art, drawing.units, drawing.centres)
    shapes = {code: affinity.affine_transform(shape, flip).simplify(SIMPLIFY)
              for code, shape in province_shapes(art, water, points, markers).items()}
    areas = {code: area_data(shape) for code, shape in shapes.items() if not water[code]}
    board = MapDrawing(width=width, height=height, under=under, over=over, areas=areas,
                       units=dict(drawing.units), labels=dict(drawing.labels),
                       centres=dict(drawing.centres), unit_size=13.0,
                       pixels=round(PIXELS_WIDE * art.unit) if art.unit >= WIDER else 0)
    # the artwork draws a coastal province's fleet on its coast: a dislodged
    # unit may reach over it too, where a narrow province (Rome) has no room
    sea = unary_union([shape for code, shape in shapes.items() if water[code]]).buffer(SHORE)
    walls = {code: shape.boundary.difference(sea) for code, shape in shapes.items()
             if not water[code]}
    return with_dislodged(game_map, board, shapes, walls)


def with_dislodged(game_map: GameMap, board: MapDrawing, shapes: Mapping[str, BaseGeometry],
                   walls: Mapping[str, BaseGeometry] | None = None) -> MapDrawing:
    """The board with a spot for the dislodged unit of each location whose
    province's shape ``shapes`` gives (in the board's units), inside it,
    clear of its ``walls`` (its outline, unless told); the other locations
    keep theirs."""
    names = [label_box(code, x, y, board.label_size) for code, (x, y) in board.labels.items()]
    spots = dislodged_spots(game_map, shapes, board.units, board.centres, names,
                            board.unit_size, board.dislodged_shift,
                            board.width / (board.pixels or PIXELS_WIDE) * BORDER_ROOM, walls)
    return replace(board, dislodged={**board.dislodged, **spots})
