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
from shapely.geometry import Polygon

from engine.map import GameMap, Point, Terrain, province_of
from engine.variants import rules_for
from judge.maps.board import BORDER, LAND, PIXELS_WIDE, SEA, MapDrawing, number
from judge.maps.geographic import DISLODGED_AT, block, geographic_layout, path, sizes
from judge.maps.labels import label_box

MARGIN = 30.0  # map units around the outermost discs
SPACING = 70.0  # map units the layout leaves between neighbouring discs, roughly
ITERATIONS = 300
PAPER = "#f4f1e8"
ARMY_EDGE = "#a08a5a"
FLEET_EDGE = "#6c98bd"
BOTH_EDGE = "#7d7d7d"
ROCK = "#a9a29a"
# a region's owner colours all of it: a schematic's land carries no detail
# that a tint would let show through
OPAQUE = 0.8
# a schematic region's land: paler than the artwork's, so that the tan minor
# powers' colour stands out from it
PALE_LAND = "#f3f0e6"


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


_FILL = {Terrain.WATER: SEA, Terrain.IMPASSABLE: ROCK}  # anything else is land


def _adjacency_lines(edges: dict[tuple[str, str], str], places: dict[str, Point],
                     extra: str = "") -> list[str]:
    """A line between each two adjacent provinces' points: solid where
    armies cross, dashed where only fleets do."""
    colours = {"army": ARMY_EDGE, "fleet": FLEET_EDGE, "both": BOTH_EDGE, "border": ROCK}
    lines = []
    for (a, b), kind in sorted(edges.items()):
        (ax, ay), (bx, by) = places[a], places[b]
        dash = ' stroke-dasharray="4 3"' if kind == "fleet" else ""
        lines.append(f'<line x1="{number(ax)}" y1="{number(ay)}" x2="{number(bx)}" '
                     f'y2="{number(by)}" stroke="{colours[kind]}" stroke-width="1.5"'
                     f'{dash}{extra}/>')
    return lines


def _territories(game_map: GameMap) -> dict[str, str]:
    """A territory the rules mark (Dissolution's nuclear powers'), by
    province, with its power's colour: marked whoever stands there."""
    return {prov: game_map.powers[power].colour or BORDER
            for power, provinces in rules_for(game_map).marked_territories(game_map).items()
            for prov in provinces}


def schematic_board(game_map: GameMap) -> MapDrawing:
    drawing = game_map.drawing
    codes = sorted(game_map.provinces)
    if all(code in drawing.units for code in codes):  # each on a real map: drawn as regions
        return geographic_board(game_map)
    edges = _edges(game_map)
    found = layout(codes, sorted(edges), game_map.name)
    places = {code: (x + MARGIN, y + MARGIN) for code, (x, y) in found.items()}
    xs = [p[0] for p in places.values()]
    ys = [p[1] for p in places.values()]
    nearest = min((math.dist(a, b) for a in places.values() for b in places.values()
                   if a is not b), default=SPACING)
    radius = max(6.0, min(18.0, nearest * 0.3))
    width, height = drawing.size or (max(xs) + MARGIN, max(ys) + MARGIN)

    parts = [f'<rect width="{number(width)}" height="{number(height)}" fill="{PAPER}"/>']
    parts += _adjacency_lines(edges, places)
    outlines = []
    areas: dict[str, str] = {}
    territory = _territories(game_map)
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
            areas[code] = (
                f"M{number(x - radius)} {number(y)}"
                f"a{number(radius)} {number(radius)} 0 1 0 {number(2 * radius)} 0"
                f"a{number(radius)} {number(radius)} 0 1 0 {number(-2 * radius)} 0Z")
    units = dict(places)
    for code in codes:
        for location in game_map.locations_of(code)[1:]:
            units[location] = drawing.units.get(location) or _coast_point(
                game_map, location, places[code], places, radius * 0.75)
    label_size = max(6.0, min(11.0, radius * 0.8))
    labels = {code: drawing.labels.get(code, (x, y + radius + label_size))
              for code, (x, y) in places.items()}
    centres = {code: drawing.centres.get(code, (places[code][0] + radius * 0.72,
                                                places[code][1] - radius * 0.72))
               for code, prov in game_map.provinces.items() if prov.is_centre}
    return MapDrawing(width=width, height=height, under="".join(parts), over="".join(outlines),
                 areas=areas, units=units, labels=labels, centres=centres,
                 unit_size=radius * 0.95, schematic=True, label_size=label_size)


def geographic_board(game_map: GameMap) -> MapDrawing:
    """Each province a region round its point, spread apart so that its unit,
    centre marker and name read at mail size (judge/maps/geographic.py).
    The variant file's [map.labels] and [map.centres] are not used: each
    name and marker keeps its place in its province's block."""
    width = game_map.drawing.size[0] if game_map.drawing.size else float(PIXELS_WIDE)
    unit, label = sizes(width)
    shapes, anchors, height = geographic_layout(game_map, width)
    codes = sorted(game_map.provinces)
    placed = {code: block(x, y, unit, label) for code, (x, y) in anchors.items()}
    labels = {code: at["label"] for code, at in placed.items()}
    parts = [f'<rect width="{number(width)}" height="{number(height)}" fill="{PAPER}"/>']
    areas: dict[str, str] = {}
    for code in codes:
        terrain = game_map.provinces[code].terrain
        parts.append(f'<path d="{path(shapes[code])}" fill="{_FILL.get(terrain, PALE_LAND)}" '
                     f'class="region" data-province="{code}"/>')
        if terrain in (Terrain.LAND, Terrain.COASTAL):
            # the owner's colour leaves a hole round the name, which the board
            # draws underneath: a name stays dark on pale land on any colour
            left, top, right, bottom = label_box(code, *labels[code], label)
            pad = label * 0.2
            areas[code] = path(shapes[code]) + (
                f"M{number(left - pad)} {number(top - pad)}H{number(right + pad)}"
                f"V{number(bottom + pad)}H{number(left - pad)}Z")
    # the regions carry the picture; the lines say who may cross where,
    # which regions touching do not (the adjacency is the rules', not the drawing's)
    parts += _adjacency_lines(_edges(game_map), anchors, ' stroke-opacity="0.4"')
    outlines = [f'<path d="{path(shapes[code])}" fill="none" stroke="{BORDER}" '
                f'stroke-width="{number(unit * 0.05)}" stroke-linejoin="round"/>'
                for code in codes]
    for code, colour in sorted(_territories(game_map).items()):
        inset = shapes[code].buffer(-unit * 0.16, join_style="mitre")
        if isinstance(inset, Polygon) and not inset.is_empty:
            outlines.append(f'<path d="{path(inset)}" fill="none" stroke="{colour}" '
                            f'stroke-width="{number(unit * 0.22)}" stroke-dasharray="'
                            f'{number(unit * 0.5)} {number(unit * 0.25)}" class="territory" '
                            f'data-province="{code}"/>')
    units = dict(anchors)
    for code in codes:  # split coasts: on the unit's edge, towards their seas
        for location in game_map.locations_of(code)[1:]:
            units[location] = _coast_point(game_map, location, anchors[code], anchors, unit * 0.5)
    return MapDrawing(
        width=width, height=height, under="".join(parts), over="".join(outlines),
        areas=areas, units=units, labels=labels,
        centres={code: placed[code]["centre"] for code in codes
                 if game_map.provinces[code].is_centre},
        unit_size=unit, schematic=True, label_size=label, dislodged_shift=DISLODGED_AT,
        owner_opacity=OPAQUE)
