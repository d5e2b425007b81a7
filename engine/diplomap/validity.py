"""Whether a map order may be carried out on its own, on the board in force
after the moves (rule text ru12 §II, Michael Harvath, CC BY-SA 4.0).

Each check answers a :class:`Verdict`: the planned change when the order
is valid, or the reason and the section it rests on. Conflicts between
orders valid on their own are engine/diplomap/conflicts.py's business.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from engine.diplomap.board import INNER, OUTER, WorkingBoard, compass_vector
from engine.diplomap.changes import Plan, plan_split
from engine.diplomap.values import EDGE, Draw, Erase, Side
from engine.map import Province, Terrain, province_of


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    reason: str = ""
    section: str = ""


@dataclass(frozen=True, slots=True)
class DrawPlan:
    """A Draw valid on its own: in ``province``, from ring position ``i``
    to ``j``; ``centre`` is 0 or 1 (the part getting the centre) or None."""

    province: str
    i: int
    j: int
    plan: Plan
    centre: int | None
    borders: frozenset[tuple[str, str]]  # the borders it starts and ends on, (X, A) sorted


@dataclass(frozen=True, slots=True)
class ErasePlan:
    provinces: tuple[str, str]


def fail(reason: str, section: str) -> Verdict:
    return Verdict(False, reason, section)


def border_key(one: str, other: str) -> tuple[str, str]:
    return (one, other) if one <= other else (other, one)


def coastal_homes(board: WorkingBoard) -> dict[str, str]:
    """Home centres of the board in force that were coastal at the start:
    code now -> base code (§II.G.1, §II.G.7)."""
    base = board.base
    found: dict[str, str] = {}
    for name, power in board.powers.items():
        for now, then in zip(power.home, base.powers[name].home, strict=False):
            if base.provinces[then].terrain is Terrain.COASTAL:
                found[now] = then
    return found


def inland_homes(board: WorkingBoard) -> frozenset[str]:
    """Base home centres that were inland at the start (§II.G.1: never a fleet)."""
    base = board.base
    return frozenset(c for p in base.powers.values() for c in p.home
                     if base.provinces[c].terrain is Terrain.LAND)


def _province(board: WorkingBoard, code: str) -> Province | None:
    return board.provinces.get(province_of(code).upper())


def _where(draw: Draw) -> str | None:
    """The province both borders of a Draw belong to."""
    if draw.inside is not None:
        return province_of(draw.inside).upper()
    start = {province_of(c).upper() for c in draw.start}
    end = {province_of(c).upper() for c in draw.end}
    common = start & end
    if len(common) == 1:
        return next(iter(common))
    if start == end and len(start) == 2:  # a loop written without "inside"
        return None
    return None


def _other(pair: tuple[str, str], code: str) -> str:
    one, two = (province_of(c).upper() for c in pair)
    if one == "OTB":
        one = EDGE
    if two == "OTB":
        two = EDGE
    return two if one == code else one


def check_draw(board: WorkingBoard, draw: Draw, occupied: Collection[str]) -> Verdict | DrawPlan:
    del occupied  # a Draw may cut an occupied province: its unit is displaced (§III.B)
    code = _where(draw)
    loop = {province_of(c).upper() for c in draw.start} == {
        province_of(c).upper() for c in draw.end}
    if code is None:
        if loop:
            return fail("a loop must say which side it is drawn on (\"inside ...\")", "II.G.2")
        return fail("the two borders do not belong to one province", "II.A.1")
    prov = board.provinces.get(code)
    if prov is None:
        return fail(f"there is no province {code} on the board", "II.A.1")
    if prov.terrain is Terrain.IMPASSABLE:
        return fail(f"{code} may not be split", "II.G.6")
    for pair in (draw.start, draw.end):
        if code not in {province_of(c).upper() for c in pair}:
            return fail(f"the border {'/'.join(pair)} is not one of {code}'s", "II.A.1")
    ring = board.rings[code]
    first, second = _other(draw.start, code), _other(draw.end, code)
    for what in (first, second):
        if what not in ring:
            return fail(f"{code} does not border {what}", "II.A.1")
        if ring.count(what) > 1:
            return fail(f"{code} borders {what} in two places", "II.A.1")
    i, j = ring.index(first), ring.index(second)
    if i == j and draw.inside is None:
        return fail("a loop must say which side it is drawn on (\"inside ...\")", "II.G.2")
    plan = plan_split(board, code, i, j)
    for part_ring in plan.rings:
        names = set(part_ring) | {"(the other part)"}
        if len({n for n in names if _accessible(board, n)}) < 2:
            return fail("a new province would border fewer than two accessible spaces",
                        "II.G.5")
    centre: int | None = None
    if prov.centre is not None:
        homes = coastal_homes(board)
        inland = [k for k, r in enumerate(plan.rings) if not _borders_water(board, prov, r)]
        if draw.centre is not None:
            centre = side_part(board, plan, draw.centre)
            if centre is None:
                return fail(f"'SC {draw.centre}' does not name one of the two new provinces",
                            "II.E")
        elif code in homes and len(inland) == 1:
            centre = 1 - inland[0]  # §II.G.7: a coastal home centre goes to the coast
        else:
            return fail("the supply centre is split and the order does not say where it goes",
                        "II.E")
        if code in homes and centre in inland:
            return fail(f"{code} is a coastal home centre and must stay coastal", "II.G.1")
    borders = frozenset({border_key(code, first), border_key(code, second)} - {
        border_key(code, EDGE)})
    return DrawPlan(code, i, j, plan, centre, borders)


def _accessible(board: WorkingBoard, name: str) -> bool:
    """Could a unit enter this space from next door? Not the board's edge,
    not impassable land (§II.G.5 counts neither)."""
    if name == "(the other part)":
        return True
    prov = board.provinces.get(name)
    return prov is not None and prov.terrain is not Terrain.IMPASSABLE


def _borders_water(board: WorkingBoard, prov: Province, ring: tuple[str, ...]) -> bool:
    return prov.terrain is Terrain.WATER or any(board.is_water(n) for n in ring)


def side_part(board: WorkingBoard, plan: Plan, side: Side) -> int | None:
    """Which part (0 or 1) a side names: a compass word nearest to the
    part's side, or a neighbour only that part borders."""
    if side.neighbour is not None:
        code = province_of(side.neighbour).upper()
        holders = [k for k, r in enumerate(plan.rings) if code in r]
        return holders[0] if len(holders) == 1 else None
    word = (side.compass or "").upper()
    if plan.sides == (INNER, OUTER):
        return {INNER: 0, "INNER": 0, "INSIDE": 0, OUTER: 1, "OUTER": 1, "OUTSIDE": 1}.get(word)
    if word in plan.sides:
        return plan.sides.index(word)
    wanted = compass_vector(word)
    if wanted is None:
        return None
    scores = []
    for part_side in plan.sides:
        vector = compass_vector(part_side)
        scores.append(0.0 if vector is None else
                      vector[0] * wanted[0] + vector[1] * wanted[1])
    if abs(scores[0] - scores[1]) < 1e-6:
        return None
    return 0 if scores[0] > scores[1] else 1


def check_erase(board: WorkingBoard, erase: Erase) -> Verdict | ErasePlan:
    """An Erase on its own, on the board before the turn's Draws: what no
    Draw can change (the border, the terrain, Switzerland). What a Draw can
    change is :func:`check_merge`'s, after the Draws (§II.F order: Draws
    before Erases)."""
    one, two = (province_of(c).upper() for c in erase.border)
    for code in (one, two):
        if code not in board.provinces:
            return fail(f"there is no province {code} on the board", "II.A.2")
    a, b = board.provinces[one], board.provinces[two]
    if Terrain.IMPASSABLE in (a.terrain, b.terrain):
        closed = a if a.terrain is Terrain.IMPASSABLE else b  # Switzerland, on the standard map
        return fail(f"{closed.name} may not be combined with another province", "II.G.6")
    if two not in board.rings[one]:
        return fail(f"{one} does not border {two}", "II.A.2")
    if (a.terrain is Terrain.WATER) != (b.terrain is Terrain.WATER):
        return fail("land may only be merged with land, sea with sea", "II.D")
    if board.rings[one].count(two) > 1 or board.rings[two].count(one) > 1:
        return fail(f"{one} and {two} meet in two places", "II.A.2")
    return ErasePlan((one, two))


def check_merge(board: WorkingBoard, pair: tuple[str, str],
                occupied: Collection[str]) -> Verdict | None:
    """Whether the two provinces an Erase joins, as they stand after the
    turn's Draws, may be merged: None if so. A Draw may have moved a centre
    away from the border (§II.G.3) or changed a neighbour's borders (§II.G.5)."""
    one, two = pair
    if board.provinces[one].centre is not None and board.provinces[two].centre is not None:
        return fail("two supply centres would be combined", "II.G.3")
    if one in occupied and two in occupied:
        return fail("two provinces holding units would be combined", "II.G.4")
    merged = set(board.rings[one]) | set(board.rings[two])
    for neighbour in merged - {one, two, EDGE}:
        if neighbour not in board.rings or not _accessible(board, neighbour):
            continue
        left = {n for n in board.rings[neighbour] if _accessible(board, n)}
        if one in left and two in left:
            left -= {two}
        if len(left) < 2:
            return fail(f"{neighbour} would border fewer than two accessible spaces",
                        "II.G.5")
    return None
