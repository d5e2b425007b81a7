"""A schematic board for a variant whose provinces each have a point on a
real map (the variant file's [map.units]) but no artwork: Dissolution's.

Real centroids crowd where provinces are small (the Balkans, the Levant)
and leave no room there for a name a player can read in a mail. So the
points are first spread apart, keeping their order on the map, until
each has room for its block: the unit, the supply-centre marker to its
right, the name below, and a dislodged unit to the left, drawn at the
size a results mail shows (PIXELS_WIDE). Each province is then the region
nearer its point than any other's (a Voronoi cell), and its block is set
at the cell's pole of inaccessibility, the spot furthest from its borders.

The block is wider than it is tall, so the spreading and the cells are
worked out in a space stretched upwards by STRETCH, where the block is
about as tall as wide: a disc of room there is the block's ellipse here.
"""

from __future__ import annotations

import numpy as np
from shapely import affinity, voronoi_polygons
from shapely.geometry import MultiPoint, Polygon, box
from shapely.ops import polylabel

from engine.map import GameMap, Point, Terrain
from engine.variants import rules_for
from judge.maps.board import BORDER, PIXELS_WIDE, MapDrawing, number
from judge.maps.labels import label_box

# the schematic's colours and its reading of the adjacency, shared with it
from judge.maps.schematic import (
    _FILL,
    ARMY_EDGE,
    BOTH_EDGE,
    FLEET_EDGE,
    PAPER,
    ROCK,
    _coast_point,
    _edges,
)

# sizes as a results mail shows them (PIXELS_WIDE wide), in pixels
LABEL_PIXELS = 13.0  # a province's name: clear of the 11 px a mail client needs
UNIT_PIXELS = 20.0  # a unit's height
# the block around a province's point, in unit sizes (judge/maps/pieces.py draws
# a unit within 0.82 of its point; render.py a centre marker of 0.26, ringed at
# 1.55 times that for a 2-point centre)
CENTRE_AT = (1.3, -0.1)  # the supply-centre marker, right of the unit
DISLODGED_AT = (-1.6, 0.1)  # a dislodged unit, left of the unit, clear of its attacker
NAME_GAP = 0.62  # from the unit's point down to the top of its name
ROOM = 5.0  # unit sizes between two points, in the stretched space
STRETCH = 1.75  # the block's width over its height
TALL = 1.3  # the board drawn this much taller than geography: a mail scrolls down, not across
EDGE = 0.5  # unit sizes kept between the outermost blocks and the paper's edge
ITERATIONS = 500
# a region's owner colours most of it: the regions carry no detail a pale
# tint would let show through, and strong fills tell fifteen powers apart
OPAQUE = 0.8
# a region's land: paler than the artwork's, so that the tan minor powers'
# colour stands out from it
PALE_LAND = "#f3f0e6"


def sizes(width: float) -> tuple[float, float]:
    """A unit's size and a name's, in map units, on a board ``width`` wide."""
    scale = width / PIXELS_WIDE
    return UNIT_PIXELS * scale, LABEL_PIXELS * scale


def spread(places: dict[str, Point], width: float, room: float) -> tuple[dict[str, Point], float]:
    """The points fitted to ``width`` and pushed apart until no two are
    nearer than ``room`` in the stretched space, each held a little towards
    where geography puts it so the map keeps its shape. Returned in the
    stretched space, with the height they need there."""
    codes = sorted(places)
    home = np.array([places[c] for c in codes], dtype=float)
    home -= home.min(axis=0)
    margin = room / 2
    home *= (width - 2 * margin) / max(float(home[:, 0].max()), 1e-6)
    home[:, 1] *= STRETCH * TALL
    home += margin
    position = home.copy()
    far = np.eye(len(codes)) * 1e9  # no point pushes itself
    for step in range(ITERATIONS):
        dx = position[:, 0, None] - position[None, :, 0]
        dy = position[:, 1, None] - position[None, :, 1]
        distance = np.sqrt(dx * dx + dy * dy) + far
        short = np.clip(room - distance, 0.0, None) / np.maximum(distance, 1e-6)
        # each pair too near moves apart by half what it lacks, shared out
        position[:, 0] += (short * dx).sum(axis=1) * 0.5
        position[:, 1] += (short * dy).sum(axis=1) * 0.5
        if step < ITERATIONS * 0.8:  # held towards home, then left to settle
            position += (home - position) * 0.02
        position[:, 0] = np.clip(position[:, 0], margin, width - margin)
        position[:, 1] = np.maximum(position[:, 1], margin)
    position[:, 1] -= position[:, 1].min() - margin
    height = float(position[:, 1].max()) + margin
    return {c: (float(x), float(y)) for c, (x, y) in zip(codes, position, strict=True)}, height


def cells(places: dict[str, Point], width: float, height: float) -> dict[str, Polygon]:
    """Each point's Voronoi cell, within the paper."""
    codes = sorted(places)
    paper = box(0, 0, width, height)
    diagram = voronoi_polygons(MultiPoint([places[c] for c in codes]), extend_to=paper,
                               ordered=True)  # a cell per point, in the points' order
    found: dict[str, Polygon] = {}
    for code, cell in zip(codes, diagram.geoms, strict=True):
        clipped = cell.intersection(paper)
        if isinstance(clipped, Polygon):
            found[code] = clipped
    return found


def path(shape: Polygon) -> str:
    ring = list(shape.exterior.coords)[:-1]
    return "M" + "L".join(f"{number(x)} {number(y)}" for x, y in ring) + "Z"


def geographic_layout(game_map: GameMap, width: float
                      ) -> tuple[dict[str, Polygon], dict[str, Point], float]:
    """Each province's region and its block's point (the unit's), and the
    board's height: on a board ``width`` map units wide."""
    unit, _ = sizes(width)
    points = {code: game_map.drawing.units[code] for code in game_map.provinces}
    stretched, height = spread(points, width, ROOM * unit)
    regions = cells(stretched, width, height)
    anchors: dict[str, Point] = {}
    for code, cell in regions.items():
        pole = polylabel(cell, 0.5)
        # the block's middle lies right of the unit's point (the centre marker
        # reaches further than a dislodged unit) and a little below (the name)
        anchors[code] = (pole.x + 0.26 * unit, (pole.y - 0.25 * unit * STRETCH) / STRETCH)
    squash = 1 / STRETCH
    shapes = {code: affinity.scale(cell, 1.0, squash, origin=(0, 0))
              for code, cell in regions.items()}
    return shapes, anchors, height / STRETCH


def block(x: float, y: float, unit: float, label: float) -> dict[str, Point]:
    """Where a province's pieces go around its unit's point (x, y)."""
    return {
        "centre": (x + CENTRE_AT[0] * unit, y + CENTRE_AT[1] * unit),
        "label": (x, y + NAME_GAP * unit + label * 0.78),
    }




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


def geographic_board(game_map: GameMap) -> MapDrawing:
    """Each province a region round its point, spread apart so that its unit,
    centre marker and name read at mail size.
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
        owner_opacity=OPAQUE, unit_edge=PALE_LAND)
