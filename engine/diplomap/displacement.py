"""The units after the board changed (§III): units in merged provinces
move with them, units in split provinces are displaced (they choose their
part in the retreat phase), and dislodged units' retreats, judged on the
board before the change, are carried onto the board after it.

Rule text ru12 by Michael Harvath (CC BY-SA 4.0).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engine.diplomap import changes as do
from engine.diplomap.board import Seg, WorkingBoard
from engine.diplomap.in_force import board_of
from engine.map import GameMap, Terrain, UnitKind, coast_of, province_of
from engine.state import Dislodged
from engine.units import Unit


@dataclass(frozen=True, slots=True)
class Moved:
    units: tuple[Unit, ...]  # the units standing on the board after the change
    dislodged: tuple[Dislodged, ...]  # dislodged and displaced units, to retreat
    contested: frozenset[str]


def located(board: WorkingBoard, code: str, old: str) -> str:
    """A unit's location in province ``code`` of the new board, keeping its
    coast where the new province has it."""
    coasts = board.provinces[code].coasts
    coast = coast_of(old)
    if not coasts:
        return code
    return f"{code}/{coast}" if coast in coasts else f"{code}/{coasts[0]}"


def part_choices(before: GameMap, board: WorkingBoard, unit: Unit,
                 parts: Sequence[str]) -> tuple[str, ...]:
    """Where a unit in a split province may go (§III.B): any part, but a
    fleet never inland (B.1) and a fleet on a coast only into parts along
    that coast (B.2): parts holding a piece of its coast's shore."""
    if unit.kind is not UnitKind.FLEET:
        return tuple(p for p in parts if board.provinces[p].terrain is not Terrain.WATER)
    along = _along_coast(board_of(before), board, unit.location)
    found = []
    for part in parts:
        prov = board.provinces[part]
        if prov.terrain is Terrain.LAND or (along is not None and not along(part)):
            continue
        found.append(located(board, part, unit.location))
    return tuple(found)


def _along_coast(before: WorkingBoard, board: WorkingBoard,
                 location: str) -> Callable[[str], bool] | None:
    """For a fleet on one coast of a province: whether a part of the board
    after holds a piece of that coast's shore (the sea borders it stood on,
    engine.diplomap.changes.shores), found by the base borders' pieces.
    None for a fleet that is not on a coast: every coastal part is along it."""
    if coast_of(location) is None:
        return None
    code = province_of(location)
    shore = [piece for k, coast in do.shores(before, code).items() if location in coast
             for piece in before.segs[code][k]]

    def holds(part: str) -> bool:
        return any(_overlap(mine, theirs) for entry in board.segs[part] for mine in entry
                   for theirs in shore)

    return holds


def _overlap(one: Seg, two: Seg) -> bool:
    """Two pieces of base border share a stretch of some length."""
    same = (one.base, one.border, one.stretch) == (two.base, two.border, two.stretch)
    return same and min(one.hi, two.hi) - max(one.lo, two.lo) > 1e-9


def after_changes(before: GameMap, board: WorkingBoard, pieces: Mapping[str, tuple[str, ...]],
                  units: Sequence[Unit], dislodged: Sequence[Dislodged],
                  contested: frozenset[str]) -> Moved:
    standing: list[Unit] = []
    out: list[Dislodged] = []
    placed_in: set[str] = set()
    split = {code for code, now in pieces.items() if len(now) > 1}
    for unit in units:
        now = pieces.get(unit.province, (unit.province,))
        if unit.province not in split:
            here = Unit(unit.power, unit.kind, located(board, now[0], unit.location)
                        if now[0] != unit.province else unit.location)
            standing.append(here)
            placed_in.add(here.province)
            continue
        choices = part_choices(before, board, unit, now)
        if not choices:
            continue  # nowhere to stand: the unit is lost (cannot happen on a valid board)
        if len(choices) == 1:  # nothing to choose: it goes there at once (example F)
            where = choices[0]
            standing.append(Unit(unit.power, unit.kind, where))
            placed_in.add(province_of(where))
            continue
        out.append(Dislodged(unit, unit.province, False, choices, displaced=True))
    new_contested = frozenset(c for old in contested for c in pieces.get(old, (old,)))
    for d in dislodged:
        out.append(_carried(before, board, pieces, d, placed_in, new_contested))
    return Moved(tuple(standing), tuple(out), new_contested)


def default_part(game_map: GameMap, choices: Sequence[str]) -> str:
    for loc in choices:
        if game_map.province(loc).centre is not None:
            return loc
    return choices[0]


def _carried(before: GameMap, board: WorkingBoard, pieces: Mapping[str, tuple[str, ...]],
             d: Dislodged, occupied: set[str], contested: frozenset[str]) -> Dislodged:
    """A dislodged unit's retreats on the new board: those it had on the old
    one, where still open. Not into a piece of its own province (§III.C),
    nor into a province merged with an occupied or contested one (§III.D,
    example K), and into a part of a split neighbour only when that part
    borders its old province."""
    own = set(pieces.get(d.unit.province, (d.unit.province,)))
    attacker = set(pieces.get(d.attacker, (d.attacker,)))
    options: list[str] = []
    for old in d.retreats:
        prov = province_of(old)
        now = pieces.get(prov, (prov,))
        if now == (prov,):
            options.append(old)
            continue
        for code in now:
            if code in own or code in occupied or code in contested:
                continue
            if code in attacker and not d.by_convoy:
                continue
            if not own & set(board.rings.get(code, ())):
                continue
            terrain = board.provinces[code].terrain
            if d.unit.kind is UnitKind.FLEET and terrain is Terrain.LAND:
                continue
            if d.unit.kind is not UnitKind.FLEET and terrain is Terrain.WATER:
                continue
            options.append(located(board, code, old) if d.unit.kind is UnitKind.FLEET
                           else code)
    del before
    return Dislodged(d.unit, d.attacker, d.by_convoy, tuple(dict.fromkeys(options)),
                     d.displaced)
