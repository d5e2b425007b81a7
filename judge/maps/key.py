"""What a variant's map key (engine/rules.py MapKey) adds to a phase's map:
colours per power for this position, markers on the units of minors and
affiliates, a legend by colour group, and split coasts and canals drawn as
they stand in this phase (Intercontinental's Suez, split until the canal
opens). Everything comes from the rules hooks and the variant's data, so
this module never asks which variant it draws.
"""

from __future__ import annotations

import math

from engine.adjustments import centre_counts
from engine.map import GameMap, Point
from engine.rules import MapKey
from engine.state import GameState
from engine.variants import rules_for
from judge.maps.board import SEA, MapDrawing
from judge.maps.board import number as _n

INK = "#1e1e1e"
LAND_BAR = "#8a6d3b"  # the isthmus between two coasts of one province


def map_key(game_map: GameMap, state: GameState) -> MapKey | None:
    return rules_for(game_map).map_key(game_map, state)


def marker(kind: str, x: float, y: float, size: float, colour: str) -> str:
    """A minor's unit carries a small ink dot; an affiliate's a diamond in
    its colour's full strength, outlined: both tell a neutral at a glance
    from a major, whose unit is plain."""
    r = size * 0.16
    if kind == "minor":
        return f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}" fill="{INK}" class="marker minor"/>'
    d = (f"M{_n(x)} {_n(y - r * 1.4)}L{_n(x + r * 1.4)} {_n(y)}L{_n(x)} {_n(y + r * 1.4)}"
         f"L{_n(x - r * 1.4)} {_n(y)}Z")
    return (f'<path d="{d}" fill="{_deep(colour)}" stroke="{INK}" '
            f'stroke-width="{_n(size * 0.05)}" class="marker affiliate"/>')


def _deep(colour: str) -> str:
    """A pale colour back at full strength (undoing MapKey's pale tint)."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{max(0, 2 * c - 255):02x}" for c in rgb)


def colour_groups(key: MapKey) -> list[tuple[str, tuple[str, ...]]]:
    """Each colour group with every colour drawn for it: its powers' shades
    and its affiliates' pale one, which read as one player's. The document
    carries them (templates/map.svg.j2) for the legibility checks, which
    hold one group's colours apart from another's, and a group's own
    shades apart by less."""
    found = []
    for group, _, powers in key.groups:
        members = [*powers, *(p for p, g in key.affiliated.items() if g == group)]
        colours = tuple(sorted({key.colours[p].lower() for p in members}))
        if colours:
            found.append((group, colours))
    return found


def legend_texts(game_map: GameMap, state: GameState, key: MapKey
                 ) -> list[tuple[str, str, str]]:
    """(power standing for the line, colour, text): one line per colour
    group with its powers' centres, then the minors and the affiliates."""
    counts = centre_counts(game_map, state)
    rows = []
    for group, colour, powers in key.groups:
        if not powers:
            continue
        centres = sum(counts.get(p, 0) for p in powers)
        units = sum(len(state.units_of(p)) for p in powers)
        each = ", ".join(f"{game_map.powers[p].name_in_prose} {counts.get(p, 0)}"
                         for p in powers)
        rows.append((powers[0], colour, f"{group}: {centres} centres, {units} units ({each})"))
    for kind, title in (("minor", "Minor powers"), ("affiliate", "Affiliates")):
        powers = tuple(p for p, k in key.kinds.items() if k == kind)
        if powers:
            centres = sum(counts.get(p, 0) for p in powers)
            units = sum(len(state.units_of(p)) for p in powers)
            rows.append((powers[0], key.colours[powers[0]],
                         f"{title} ({len(powers)}, marked): {centres} centres, {units} units"))
    return rows


def coasts_drawn(game_map: GameMap, state: GameState, board: MapDrawing) -> str:
    """Each province with split coasts in the base board: a bar of land
    between its coasts while they are split in this phase, a channel of
    water from one to the other once the map in force joins them (a canal)."""
    in_force = rules_for(game_map).map_for(game_map, state)
    parts = []
    size = board.unit_size
    for code in sorted(game_map.provinces):
        coasts = [loc for loc in game_map.locations_of(code) if "/" in loc]
        if len(coasts) < 2 or code not in board.units:
            continue
        middle = board.units[code]
        # each coast's way out: from the province's point through its coast's
        # point, long enough to show beyond the disc and the unit on it
        ends: list[Point] = []
        for loc in coasts[:2]:
            cx, cy = board.units.get(loc) or middle
            length = math.dist((cx, cy), middle) or 1.0
            ends.append((middle[0] + (cx - middle[0]) / length * size * 1.9,
                         middle[1] + (cy - middle[1]) / length * size * 1.9))
        (ax, ay), (bx, by) = ends
        still_split = len([loc for loc in in_force.locations_of(code) if "/" in loc]) >= 2
        if still_split:
            mx, my = middle
            length = math.dist(ends[0], ends[1]) or 1.0
            ux, uy = (bx - ax) / length, (by - ay) / length
            reach = size * 1.3
            d = (f"M{_n(mx - uy * reach)} {_n(my + ux * reach)}"
                 f"L{_n(mx + uy * reach)} {_n(my - ux * reach)}")
            parts.append(f'<path d="{d}" stroke="{INK}" stroke-width="{_n(size * 0.4)}" '
                         f'stroke-linecap="round"/><path d="{d}" stroke="{LAND_BAR}" '
                         f'stroke-width="{_n(size * 0.26)}" stroke-linecap="round" '
                         f'class="split" data-province="{code}"/>')
        else:
            d = f"M{_n(ax)} {_n(ay)}L{_n(middle[0])} {_n(middle[1])}L{_n(bx)} {_n(by)}"
            parts.append(f'<path d="{d}" fill="none" stroke="{INK}" '
                         f'stroke-width="{_n(size * 0.42)}" stroke-linecap="round" '
                         f'stroke-linejoin="round"/><path d="{d}" fill="none" stroke="{SEA}" '
                         f'stroke-width="{_n(size * 0.28)}" stroke-linecap="round" '
                         f'stroke-linejoin="round" class="canal" data-province="{code}"/>')
    return "".join(parts)
