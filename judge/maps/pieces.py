"""The pieces of a drawn phase: units, dislodged units, order arrows and
the units lost in the phase, each as SVG markup with what it stands for (judge/maps/render.py puts
them in the document). Where a unit stands and where an arrow starts,
bends and ends is worked out here.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from engine.map import GameMap, Point, UnitKind, province_of
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
)
from engine.state import GameState
from judge.maps.board import MapDrawing
from judge.maps.board import number as _n  # short: it is in every coordinate written
from judge.maps.dislodged import GLYPH, RING, RING_WIDTH, Aside
from judge.maps.glyphs import ARMY_RADIUS, INKED, OUTLINE, outlines
from judge.maps.key import marker
from judge.maps.scene import DrawnOrder, Scene

# Colours for powers whose variant file gives none, in the order the powers are listed.
PALETTE = ("#c0392b", "#2a4d9b", "#3aa0e0", "#4a4a4a", "#2e8b3d", "#8a5bb8", "#e2b21c",
           "#d35400", "#16a085", "#7f5539", "#e84393", "#6c7a89")
UNOWNED = "#fbf8ef"
INK = "#1e1e1e"
DISLODGED = "#d0021b"
BUILT = "#ffd21f"


def power_colours(game_map: GameMap) -> dict[str, str]:
    return {name: power.colour or PALETTE[index % len(PALETTE)]
            for index, (name, power) in enumerate(game_map.powers.items())}


# -- the pieces ----------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """One drawn thing: its SVG markup and what it stands for."""

    kind: str  # the element's class: "unit army", "order move failed"...
    power: str
    where: str  # a location, or an order's text
    markup: str


class Geometry:
    """Where things are on one board."""

    def __init__(self, game_map: GameMap, board: MapDrawing,
                 former: Mapping[str, Point] | None = None) -> None:
        self.map = game_map
        self.board = board
        self.size = board.unit_size
        self.former = former or {}  # a changed board's provinces that are gone

    def at(self, location: str) -> Point:
        units = self.board.units
        found = units.get(location) or units.get(province_of(location))
        if found is None and self.former:  # named on the board before a Diplomap change
            found = self.former.get(location) or self.former.get(province_of(location))
        return found or units[province_of(location)]

    def aside(self, location: str) -> Aside:
        """Where a dislodged unit of ``location`` is drawn, and how large."""
        return self.board.aside(location, self.at(location))

    def dislodged_at(self, location: str) -> Point:
        return self.aside(location).at


def _unit_shape(kind: UnitKind, x: float, y: float, size: float, fill: str,
                extra: str = "", stroke: str = INK, width: float = OUTLINE) -> str:
    """A unit's glyph (judge/maps/glyphs.py) at (x, y), outlined in
    ``stroke``, ``width`` unit sizes wide."""
    if kind is UnitKind.ARMY:
        return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(size * ARMY_RADIUS)}" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="{_n(size * width)}"{extra}/>')
    d = "".join("M" + "L".join(f"{_n(x + size * px)} {_n(y + size * py)}" for px, py in outline)
                + "Z" for outline in outlines(kind))
    return (f'<path d="{d}" fill="{fill}" stroke="{stroke}" '
            f'stroke-width="{_n(size * width)}" stroke-linejoin="round"{extra}/>')


def _cross(x: float, y: float, size: float) -> str:
    """Red, outlined in ink; thin enough that the glyph under it shows between its arms."""
    r = size * 0.5
    d = (f"M{_n(x - r)} {_n(y - r)}L{_n(x + r)} {_n(y + r)}"
         f"M{_n(x - r)} {_n(y + r)}L{_n(x + r)} {_n(y - r)}")
    return (f'<path d="{d}" stroke="{INK}" stroke-width="{_n(size * 0.2)}" '
            f'stroke-linecap="round"/><path d="{d}" stroke="{DISLODGED}" '
            f'stroke-width="{_n(size * 0.11)}" stroke-linecap="round"/>')


def _trim(points: list[Point], start: float, end: float) -> list[Point]:
    """The polyline shortened by ``start`` at its first point and ``end`` at its last."""
    points = list(points)
    for index, cut in ((0, start), (-1, end)):
        other = points[1] if index == 0 else points[-2]
        x, y = points[index]
        length = math.dist((x, y), other)
        if length > cut > 0:
            share = cut / length
            points[index] = (x + (other[0] - x) * share, y + (other[1] - y) * share)
    return points


def _line(points: list[Point], colour: str, width: float, failed: bool,
          head: bool) -> str:
    """A line (with an arrowhead if ``head``), outlined so it shows on any
    colour; dashed when the order failed."""
    if head:
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = math.dist((ax, ay), (bx, by)) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        back = min(width * 3.4, length * 0.6)
        half = width * 1.7
        base = (bx - ux * back, by - uy * back)
        tip = f"M{_n(bx)} {_n(by)}L{_n(base[0] - uy * half)} {_n(base[1] + ux * half)}" \
              f"L{_n(base[0] + uy * half)} {_n(base[1] - ux * half)}Z"
        points = [*points[:-1], (bx - ux * back * 0.8, by - uy * back * 0.8)]
    d = "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in points)
    dash = f' stroke-dasharray="{_n(width * 2.2)} {_n(width * 1.4)}"' if failed else ""
    parts = [f'<path d="{d}" fill="none" stroke="{INK}" stroke-width="{_n(width * INKED)}" '
             f'stroke-linejoin="round"{dash}/>',
             f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{_n(width)}" '
             f'stroke-linejoin="round"{dash}/>']
    if head:
        fill = "#ffffff" if failed else colour
        parts.append(f'<path d="{tip}" fill="{fill}" stroke="{INK}" '
                     f'stroke-width="{_n(width * 0.45)}" stroke-linejoin="round"/>')
    return "".join(parts)


def _ring(x: float, y: float, radius: float, colour: str, width: float,
          failed: bool = False) -> str:
    dash = f' stroke-dasharray="{_n(width * 2)} {_n(width * 1.5)}"' if failed else ""
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}" fill="none" stroke="{INK}" '
            f'stroke-width="{_n(width * INKED)}"{dash}/><circle cx="{_n(x)}" cy="{_n(y)}" '
            f'r="{_n(radius)}" fill="none" stroke="{colour}" stroke-width="{_n(width)}"{dash}/>')


class OrderPieces:
    """The arrows and marks for the orders of one adjudicated phase."""

    def __init__(self, geometry: Geometry, scene: Scene, colours: Mapping[str, str]) -> None:
        self.geo = geometry
        self.scene = scene
        self.colours = colours
        before = scene.before
        self.before_units = {u.province: u for u in before.units} if before else {}
        self.before_dislodged = ({d.unit.province: d.unit for d in before.dislodged}
                                 if before else {})
        convoys: dict[tuple[str, str], list[str]] = {}
        for drawn in scene.orders:
            if isinstance(drawn.order, Convoy):
                key = (province_of(drawn.order.target.location), province_of(drawn.order.dest))
                convoys.setdefault(key, []).append(province_of(drawn.order.unit.location))
        self.convoys = convoys
        self.width = geometry.size * 0.17

    def origin(self, location: str) -> str:
        """Where the unit an order names stood (with its coast)."""
        unit = self.before_units.get(province_of(location))
        return unit.location if unit else location

    def route(self, origin: str, dest: str, named: tuple[str, ...]) -> list[str]:
        """An army's way by sea: the fleets it names, or else the shortest
        chain of the fleets ordered to convoy it, or else straight there."""
        if named:
            return [origin, *named, dest]
        fleets = set(self.convoys.get((province_of(origin), province_of(dest)), ()))
        if not fleets or self.geo.map.adjacent(UnitKind.ARMY, origin, dest):
            return [origin, dest]
        near = self.geo.map.water_neighbours  # a province new on a Diplomap board has none
        queue = deque([[w] for w in sorted(near.get(province_of(origin), set()) & fleets)])
        seen = {path[0] for path in queue}
        while queue:
            path = queue.popleft()
            if self.geo.map.reaches_province(UnitKind.FLEET, path[-1], province_of(dest)):
                return [origin, *path, dest]
            for nxt in sorted(near.get(path[-1], set()) & fleets - seen):
                seen.add(nxt)
                queue.append([*path, nxt])
        return [origin, dest]

    def pieces(self) -> tuple[list[Piece], list[Piece]]:
        """(lines drawn under the units, marks drawn over them)."""
        lines: list[Piece] = []
        marks: list[Piece] = []
        for drawn in self.scene.orders:
            made = self.piece(drawn)
            if made is not None:
                over = isinstance(drawn.order, Build)
                (marks if over else lines).append(made)
        return lines, marks

    def piece(self, drawn: DrawnOrder) -> Piece | None:
        order: Order = drawn.order
        geo, size, width = self.geo, self.geo.size, self.width
        colour = self.colours[drawn.power]
        failed = not drawn.succeeded
        state = "" if drawn.succeeded else " failed"
        markup = ""
        kind = ""
        match order:
            case Move(unit=unit, dest=dest, path=path):
                origin = self.origin(unit.location)
                places = [geo.at(p) for p in self.route(origin, dest, path)]
                markup = _line(_trim(places, size * 0.35, size * 0.5), colour, width, failed,
                               head=True)
                kind = "move"
            case SupportMove(unit=unit, target=target, dest=dest):
                start = geo.at(self.origin(unit.location))
                (ax, ay), (bx, by) = geo.at(self.origin(target.location)), geo.at(dest)
                end = ((ax + bx) / 2, (ay + by) / 2)
                markup = _line(_trim([start, end], size * 0.35, 0), colour, width * 0.6,
                               failed, head=False) + _ring(end[0], end[1], size * 0.12,
                                                           colour, width * 0.6)
                kind = "support"
            case SupportHold(unit=unit, target=target):
                start = geo.at(self.origin(unit.location))
                end = geo.at(self.origin(target.location))
                markup = _line(_trim([start, end], size * 0.35, size * 0.72), colour,
                               width * 0.6, failed, head=False) + _ring(
                    end[0], end[1], size * 0.72, colour, width * 0.6, failed)
                kind = "support hold"
            case Convoy(unit=unit, target=target, dest=dest):
                places = [geo.at(self.origin(target.location)),
                          geo.at(self.origin(unit.location)), geo.at(dest)]
                markup = _line(_trim(places, size * 0.35, size * 0.5), colour, width * 0.5,
                               failed, head=True)
                kind = "convoy"
            case Retreat(unit=unit, dest=dest):
                dislodged = self.before_dislodged.get(province_of(unit.location))
                start = geo.dislodged_at(dislodged.location if dislodged else unit.location)
                markup = _line(_trim([start, geo.at(dest)], size * 0.3, size * 0.5), colour,
                               width * 0.8, failed, head=True)
                kind = "retreat"
            case Disband() | Remove():
                return None  # the unit is drawn as lost (lost_pieces), with every other loss
            case Build(location=location):
                x, y = geo.at(location)
                markup = _ring(x, y, size * 0.78, BUILT, width * 0.7, failed)
                kind = "build"
            case _:
                return None  # holds and waives are not drawn
        return Piece(f"order {kind}{state}", drawn.power, str(order), markup)


def unit_pieces(geo: Geometry, state: GameState, colours: Mapping[str, str],
                 kinds: Mapping[str, str]) -> list[Piece]:
    pieces = []
    for unit in state.units:
        x, y = geo.at(unit.location)
        kind = kinds.get(unit.power)
        shape = _unit_shape(unit.kind, x, y, geo.size, colours[unit.power])
        if geo.board.unit_edge:  # a unit shows on its own power's colour
            shape = _unit_shape(unit.kind, x, y, geo.size, "none", stroke=geo.board.unit_edge,
                                width=0.22) + shape
        if kind is not None:
            shape += marker(kind, x, y, geo.size, colours[unit.power])
        pieces.append(Piece(f"unit {unit.kind.noun}{' ' + kind if kind else ''}", unit.power,
                            unit.location, shape))
    for d in state.dislodged:
        aside = geo.aside(d.unit.location)
        (x, y), size = aside.at, geo.size * aside.scale
        pieces.append(Piece(
            f"unit {d.unit.kind.noun} dislodged", d.unit.power, d.unit.location,
            _ring(x, y, size * RING, DISLODGED, size * RING_WIDTH)
            + _unit_shape(d.unit.kind, x, y, size * GLYPH, colours[d.unit.power])))
    return pieces


LOST_OPACITY = 0.55  # a lost unit's glyph: faded, so the cross over it reads first


def lost_glyph(kind: UnitKind, x: float, y: float, size: float, colour: str) -> str:
    """A unit lost: its glyph faded on a pale disc (which sets it apart
    from a unit standing beside it and from the land's colour), crossed out."""
    return (f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(size * 0.62)}" fill="#ffffff" '
            f'fill-opacity="0.7" stroke="{INK}" stroke-width="{_n(size * 0.04)}" '
            f'stroke-opacity="0.6"/>'
            + _unit_shape(kind, x, y, size * 0.85, colour, f' opacity="{LOST_OPACITY}"')
            + _cross(x, y, size))


def lost_pieces(geo: Geometry, scene: Scene, colours: Mapping[str, str]) -> list[Piece]:
    """The units the phase took off the board, each where it stood; beside
    its place (where a dislodged unit is drawn) when a unit now stands on
    or near it: the one that took it, or on a Diplomap board one in a part
    of the province the lost unit stood in before it was split."""
    taken = ([geo.at(u.location) for u in scene.position.units]
             + [geo.dislodged_at(d.unit.location) for d in scene.position.dislodged])
    pieces = []
    for lost in scene.lost:
        unit = lost.unit
        x, y = geo.at(unit.location)
        size = geo.size
        aside = any(math.dist((x, y), spot) < geo.size for spot in taken)
        if aside:  # where a dislodged unit is drawn, as large as one
            spot = geo.aside(unit.location)
            (x, y), size = spot.at, geo.size * GLYPH * spot.scale
        glyph = lost_glyph(unit.kind, x, y, size, colours.get(unit.power, INK))
        # a title: what a mail client or browser shows when the pointer rests on it
        pieces.append(Piece(f"lost {unit.kind.noun}{' aside' if aside else ''}", unit.power,
                            unit.location,
                            f"<title>{escape(f'{unit.power} {unit}: {lost.why}')}</title>{glyph}"))
    return pieces
