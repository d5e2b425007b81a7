"""A schematic board for a variant without artwork: each province a
labelled disc (sea or land coloured), each adjacency a line between discs.

Discs stand where the variant file's [map.units] puts them, or else at a
force-directed layout of the adjacency graph (Fruchterman and Reingold's),
which starts from a fixed seed so that a map always comes out the same.
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import shapely
from shapely.geometry import MultiPoint, Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.ops import voronoi_diagram

from engine.map import GameMap, Point, Terrain, UnitKind, province_of
from engine.variants import rules_for
from judge.maps.board import (
    BORDER,
    BORDER_ROOM,
    LAND,
    OWNER_OPACITY,
    PIXELS_WIDE,
    SEA,
    MapDrawing,
    number,
    with_dislodged,
)
from judge.maps.dislodged import GAP
from judge.maps.glyphs import centre_reach, covered, reach
from judge.maps.room import room_near

MARGIN = 30.0  # map units around the outermost discs
SPACING = 70.0  # map units the layout leaves between neighbouring discs, roughly
ITERATIONS = 300
PAPER = "#f4f1e8"
ARMY_EDGE = "#a08a5a"
FLEET_EDGE = "#6c98bd"
BOTH_EDGE = "#7d7d7d"
ROCK = "#a9a29a"
# a board of regions (every province with a point on a real map) tells its
# owners apart by their colours as land: painted strong, they keep further
# apart than the default tint lets them (Intercontinental's 43 colours,
# docs/maps.md), and the names are left bare of them
REGION_OPACITY = 0.8


def _edges(game_map: GameMap) -> dict[tuple[str, str], str]:
    """Each pair of adjacent provinces, with who may cross: army, fleet or both."""
    kinds: dict[tuple[str, str], set[str]] = {}
    lists = (("army", game_map.army_moves), ("fleet", game_map.fleet_moves),
             ("border", game_map.borders))  # an impassable province's: no one crosses
    for kind, moves in lists:
        for src, dsts in moves.items():
            for dst in dsts:
                a, b = sorted((province_of(src), province_of(dst)))
                crossers = kinds.setdefault((a, b), set())
                if kind != "border":
                    crossers.add(kind)
    return {pair: ("both" if len(k) == 2 else next(iter(k)) if k else "border")
            for pair, k in kinds.items()}


def layout(codes: list[str], edges: list[tuple[str, str]], seed: str) -> dict[str, Point]:
    """Positions for a graph: neighbours pulled together, everyone pushed
    apart, cooling as it goes. Returned in a square of side about
    SPACING * sqrt(len(codes))."""
    count = len(codes)
    if count == 1:
        return {codes[0]: (0.0, 0.0)}
    index = {code: n for n, code in enumerate(codes)}
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    position = rng.uniform(-1.0, 1.0, size=(count, 2))
    pairs = np.array([(index[a], index[b]) for a, b in edges], dtype=int).reshape(-1, 2)
    ideal = 2.0 / math.sqrt(count)  # the distance the forces balance at, in a 2 by 2 square
    step = 0.2
    for _ in range(ITERATIONS):
        delta = position[:, None, :] - position[None, :, :]
        distance = np.maximum(np.linalg.norm(delta, axis=2), 1e-4)
        push = (ideal * ideal / distance**2)[:, :, None] * delta  # each other node pushes
        force = push.sum(axis=1)
        if len(pairs):
            pull = position[pairs[:, 0]] - position[pairs[:, 1]]
            length = np.maximum(np.linalg.norm(pull, axis=1), 1e-4)
            pull *= (length / ideal)[:, None]
            np.add.at(force, pairs[:, 0], -pull)
            np.add.at(force, pairs[:, 1], pull)
        force -= position * 0.05  # a weak pull to the middle keeps parts of a split map near
        size = np.maximum(np.linalg.norm(force, axis=1), 1e-9)
        position += force / size[:, None] * np.minimum(size, step)[:, None]
        step = max(step * 0.985, 0.002)
    position -= position.min(axis=0)
    nearest = np.sort(np.linalg.norm(position[:, None] - position[None], axis=2), axis=1)[:, 1]
    scale = SPACING / max(float(np.median(nearest)), 1e-6)
    return {code: (float(x * scale), float(y * scale)) for code, (x, y) in zip(
        codes, position, strict=True)}


def _coast_point(game_map: GameMap, location: str, centre: Point,
                 places: dict[str, Point], reach: float) -> Point:
    """A coast's unit sits on its disc's edge, towards the seas it touches."""
    seas = [places[province_of(d)] for d in game_map.fleet_moves.get(location, ())
            if province_of(d) in places]
    if not seas:
        return centre
    dx = sum(p[0] for p in seas) / len(seas) - centre[0]
    dy = sum(p[1] for p in seas) / len(seas) - centre[1]
    length = math.hypot(dx, dy) or 1.0
    return centre[0] + dx / length * reach, centre[1] + dy / length * reach


def _clear_coast(region: Polygon, spot: Point, size: float, margin: float,
                 marker: tuple[float, float, float] | None) -> Point:
    """A coast's fleet where it stands clear of its region's borders (by
    ``margin``) and of the centre ``marker`` (x, y, reach): at ``spot`` if
    it does there, else at the nearest spot where it does (or most nearly)."""
    fleet = covered((UnitKind.FLEET,), *spot, size)
    avoid = None if marker is None else ShapelyPoint(marker[:2]).buffer(marker[2], 8)
    if fleet.distance(region.boundary) >= margin and (avoid is None or
                                                      fleet.distance(avoid) >= size * GAP):
        return spot
    found, _ = room_near(region, spot, size * reach(UnitKind.FLEET), size, margin=margin,
                         avoid=avoid, gap=size * GAP)
    return found


def _regions(places: dict[str, Point], nearest: float) -> dict[str, Polygon]:
    """Where every province has a point on a real map (the variant file's
    [map.units]): each province the region of the map nearer its point than
    any other's (a Voronoi cell), kept within a few discs' width of it, so
    that the board reads as a map of the region."""
    codes = sorted(places)
    points = MultiPoint([places[c] for c in codes])
    # a cell reaches about two neighbours' distance from its point: far enough
    # to close the gaps between regions, not so far that lone ones sprawl
    spacing = sorted(min(math.dist(places[a], places[b]) for b in codes if b != a)
                     for a in codes)
    reach = max(2.0 * spacing[len(spacing) // 2], nearest * 2.2, 40.0)
    cells = voronoi_diagram(points, envelope=points.envelope.buffer(reach))
    xs, ys = (np.array(axis) for axis in zip(*(places[c] for c in codes), strict=True))
    out: dict[str, Polygon] = {}
    for cell in cells.geoms:
        if not isinstance(cell, Polygon):
            continue
        inside = np.flatnonzero(shapely.contains_xy(cell, xs, ys))
        if len(inside) != 1:
            continue
        code = codes[int(inside[0])]
        clipped = cell.intersection(ShapelyPoint(places[code]).buffer(reach, 12))
        if isinstance(clipped, Polygon) and not clipped.is_empty:
            out[code] = clipped
    return out


def _path(region: Polygon) -> str:
    ring = list(region.exterior.coords)[:-1]
    return "M" + "L".join(f"{number(x)} {number(y)}" for x, y in ring) + "Z"


_FILL = {Terrain.WATER: SEA, Terrain.IMPASSABLE: ROCK}  # anything else is land


def schematic_board(game_map: GameMap) -> MapDrawing:
    drawing = game_map.drawing
    codes = sorted(game_map.provinces)
    edges = _edges(game_map)
    given = {code: drawing.units[code] for code in codes if code in drawing.units}
    if len(given) == len(codes):
        places = dict(given)
    else:
        found = layout(codes, sorted(edges), game_map.name)
        places = {code: (x + MARGIN, y + MARGIN) for code, (x, y) in found.items()}
    xs = [p[0] for p in places.values()]
    ys = [p[1] for p in places.values()]
    nearest = min((math.dist(a, b) for a in places.values() for b in places.values()
                   if a is not b), default=SPACING)
    radius = max(6.0, min(18.0, nearest * 0.3))
    width, height = drawing.size or (max(xs) + MARGIN, max(ys) + MARGIN)

    parts = [f'<rect width="{number(width)}" height="{number(height)}" fill="{PAPER}"/>']
    regions = _regions(places, nearest) if len(given) == len(codes) else {}
    cells = {code: _path(region) for code, region in regions.items()}
    for code, cell in sorted(cells.items()):
        fill = _FILL.get(game_map.provinces[code].terrain, LAND)
        parts.append(f'<path d="{cell}" fill="{fill}" stroke="{BORDER}" stroke-width="0.6" '
                     f'stroke-linejoin="round" class="region" data-province="{code}"/>')
    colours = {"army": ARMY_EDGE, "fleet": FLEET_EDGE, "both": BOTH_EDGE, "border": ROCK}
    for (a, b), kind in sorted(edges.items()):
        (ax, ay), (bx, by) = places[a], places[b]
        dash = ' stroke-dasharray="4 3"' if kind == "fleet" else ""
        faint = ' stroke-opacity="0.45"' if cells else ""  # the regions carry the picture
        parts.append(f'<line x1="{number(ax)}" y1="{number(ay)}" x2="{number(bx)}" '
                     f'y2="{number(by)}" stroke="{colours[kind]}" stroke-width="1.5"'
                     f'{dash}{faint}/>')
    outlines = []
    areas: dict[str, str] = {}
    # a territory the rules mark (Dissolution's nuclear powers') is ringed in
    # its power's colour whoever stands there
    territory = {prov: game_map.powers[power].colour or BORDER
                 for power, provinces in rules_for(game_map).marked_territories(game_map).items()
                 for prov in provinces}
    for code in codes:
        x, y = places[code]
        terrain = game_map.provinces[code].terrain
        fill = _FILL.get(terrain, LAND)
        circle = f'cx="{number(x)}" cy="{number(y)}" r="{number(radius)}"'
        parts.append(f'<circle {circle} fill="{fill}"/>')
        ring = territory.get(code)
        outlines.append(f'<circle {circle} fill="none" stroke="{ring}" stroke-width="3" '
                        f'class="territory"/>' if ring else
                        f'<circle {circle} fill="none" stroke="{BORDER}" stroke-width="1"/>')
        if terrain in (Terrain.LAND, Terrain.COASTAL):
            areas[code] = cells.get(code) or (
                f"M{number(x - radius)} {number(y)}"
                f"a{number(radius)} {number(radius)} 0 1 0 {number(2 * radius)} 0"
                f"a{number(radius)} {number(radius)} 0 1 0 {number(-2 * radius)} 0Z")
    label_size = max(6.0, min(11.0, radius * 0.8))
    labels = {code: drawing.labels.get(code, (x, y + radius + label_size))
              for code, (x, y) in places.items()}
    centres = {code: drawing.centres.get(code, (places[code][0] + radius * 0.72,
                                                places[code][1] - radius * 0.72))
               for code, prov in game_map.provinces.items() if prov.is_centre}
    unit_size = radius * 0.95
    margin = width / PIXELS_WIDE * BORDER_ROOM
    units = dict(places)
    for code in codes:
        for location in game_map.locations_of(code)[1:]:
            drawn = drawing.units.get(location)  # the variant file's, if it gives one
            spot = drawn or _coast_point(game_map, location, places[code], places,
                                         radius * 0.75)
            if drawn is None and code in regions:
                centre = game_map.provinces[code].centre
                marker = None if centre is None else (
                    *centres[code], centre_reach(centre.value, unit_size))
                spot = _clear_coast(regions[code], spot, unit_size, margin, marker)
            units[location] = spot
    board = MapDrawing(width=width, height=height, under="".join(parts),
                       over="".join(outlines), areas=areas, units=units, labels=labels,
                       centres=centres, unit_size=unit_size, schematic=True,
                       label_size=label_size,
                       owner_opacity=REGION_OPACITY if cells else OWNER_OPACITY,
                       bare_names=bool(cells))
    return with_dislodged(game_map, board, regions)  # beside the unit, in its region
