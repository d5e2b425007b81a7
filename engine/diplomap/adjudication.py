"""Map orders at the deadline: each checked on its own, then against each
other (§II.G.8), then the valid ones carried out, all Draws before all
Erases, against the positions after the moves (§II.F).

Rule text ru12 by Michael Harvath (CC BY-SA 4.0); the choices where the
text is silent are in docs/rules.md, "Diplomap".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from engine.diplomap import changes as do
from engine.diplomap.board import WorkingBoard
from engine.diplomap.in_force import board_of
from engine.diplomap.state import DiplomapState
from engine.diplomap.validity import (
    DrawPlan,
    ErasePlan,
    Verdict,
    border_key,
    check_draw,
    check_erase,
    check_merge,
    side_part,
)
from engine.diplomap.values import Draw, MapChange, MapOrder, MapOrderResult, Merge, Split
from engine.map import GameMap
from engine.state import GameState


@dataclass
class Outcome:
    """Everything the map orders did: results, the changes in order, the
    orders used (§II.C), the board after, and where each province of the
    board before went (its codes after)."""

    results: tuple[MapOrderResult, ...]
    changes: tuple[MapChange, ...]
    used: frozenset[tuple[str, str]]
    board: WorkingBoard
    pieces: dict[str, tuple[str, ...]] = field(default_factory=dict)


def kind_of(order: MapOrder) -> str:
    return "draw" if isinstance(order, Draw) else "erase"


def resolve_map_orders(
    map_in_force: GameMap, state: GameState, units_after_moves: Collection[str],
    orders: Mapping[str, Sequence[MapOrder]],
) -> tuple[tuple[MapOrderResult, ...], tuple[MapChange, ...], frozenset[tuple[str, str]]]:
    """The map orders' results, the changes they make and the orders used.
    ``units_after_moves``: the provinces holding a unit after the moves."""
    outcome = adjudicate_map_orders(map_in_force, state, units_after_moves, orders)
    return outcome.results, outcome.changes, outcome.used


def adjudicate_map_orders(
    map_in_force: GameMap, state: GameState, units_after_moves: Collection[str],
    orders: Mapping[str, Sequence[MapOrder]],
) -> Outcome:
    board = board_of(map_in_force)
    occupied = frozenset(units_after_moves)
    used_before = state.part(DiplomapState).map_orders_used
    used = set(used_before)
    verdicts: dict[tuple[str, MapOrder], Verdict | DrawPlan | ErasePlan] = {}
    given: list[tuple[str, MapOrder]] = []
    for power in sorted(orders):
        latest: dict[str, MapOrder] = {}
        for order in orders[power]:  # a second order of a kind replaces the first
            latest[kind_of(order)] = order
        for kind, order in sorted(latest.items()):
            given.append((power, order))
            if (power, kind) in used_before:
                verdicts[(power, order)] = Verdict(
                    False, f"{power} has used its {kind.capitalize()} this year", "II.C")
            elif isinstance(order, Draw):
                verdicts[(power, order)] = check_draw(board, order, occupied)
            else:
                verdicts[(power, order)] = check_erase(board, order)
            used.add((power, kind))
    _conflicts(verdicts)
    if all(isinstance(v, Verdict) for v in verdicts.values()):  # nothing to carry out
        return Outcome(tuple(MapOrderResult(p, o, False, v.reason, v.section)
                             for (p, o), v in verdicts.items() if isinstance(v, Verdict)),
                       (), frozenset(used), board, {})
    work = board.copy()
    pieces: dict[str, list[str]] = {}  # a province changed -> its codes now
    changes: list[MapChange] = []
    for key, verdict in verdicts.items():
        if isinstance(verdict, DrawPlan):
            change = _carry_out_draw(work, verdict, pieces, key[1])
            if change is None:
                verdicts[key] = Verdict(False, "its borders no longer meet in one province",
                                        "II.G.8")
            else:
                changes.append(change)
    _judge_erases(work, verdicts, pieces, occupied)
    for key, verdict in verdicts.items():
        if isinstance(verdict, ErasePlan):
            merge = _carry_out_erase(work, verdict, pieces)
            if isinstance(merge, Verdict):
                verdicts[key] = merge
            elif merge is not None:
                changes.append(merge)
    results = tuple(
        MapOrderResult(power, order, True) if not isinstance(v := verdicts[(power, order)],
                                                                 Verdict)
        else MapOrderResult(power, order, v.ok, v.reason, v.section)
        for power, order in given)
    return Outcome(results, tuple(changes), frozenset(used), work,
                   {code: tuple(now) for code, now in pieces.items()})


def _conflicts(verdicts: dict[tuple[str, MapOrder], Verdict | DrawPlan | ErasePlan]) -> None:
    """§II.G.8: orders valid on their own that cannot all be carried out
    fail together: Draws whose lines would cross, a Draw and an Erase of a
    border it starts or ends on, two Draws on one border from either side."""
    valid = [(k, v) for k, v in verdicts.items() if not isinstance(v, Verdict)]
    bad: set[tuple[str, MapOrder]] = set()
    for n, (key, plan) in enumerate(valid):
        for other_key, other in valid[n + 1:]:
            if _clash(plan, other):
                bad.update((key, other_key))
    for key in bad:
        verdicts[key] = Verdict(False, "it conflicts with another map order", "II.G.8")


def _clash(one: DrawPlan | ErasePlan, two: DrawPlan | ErasePlan) -> bool:
    if isinstance(one, ErasePlan) and isinstance(two, ErasePlan):
        return False
    if isinstance(one, ErasePlan) or isinstance(two, ErasePlan):
        draw = one if isinstance(one, DrawPlan) else two
        erase = two if isinstance(one, DrawPlan) else one
        assert isinstance(draw, DrawPlan) and isinstance(erase, ErasePlan)
        return border_key(*erase.provinces) in draw.borders
    assert isinstance(one, DrawPlan) and isinstance(two, DrawPlan)
    if one.province != two.province:
        return bool(one.borders & two.borders)  # one border, cut from both sides
    if one.i == one.j or two.i == two.j:
        return False  # a loop can always be drawn clear of another line
    return _crossing(one.i, one.j, two.i, two.j)


def _crossing(a: int, b: int, c: int, d: int) -> bool:
    """Do chords a-b and c-d of a ring strictly interleave? Lines sharing an
    end border can be drawn apart (example E), so they do not cross."""
    if len({a, b, c, d}) < 4:
        return False

    def inside(x: int) -> bool:
        lo, hi = sorted((a, b))
        return lo < x < hi

    return inside(c) != inside(d)


def _judge_erases(work: WorkingBoard,
                  verdicts: dict[tuple[str, MapOrder], Verdict | DrawPlan | ErasePlan],
                  pieces: Mapping[str, list[str]], occupied: Collection[str]) -> None:
    """The Erases' centres, units and neighbours, on the board after the
    turn's Draws (Draws before Erases, example J): each Erase on its own,
    then the Erases that join into one province together."""
    # a unit in a split province counts in every part, since it may choose any
    # (example D); each part knows whose unit it is, so it is counted once
    here = {part: code for code in occupied for part in _now(pieces, code)}
    joined: dict[tuple[str, MapOrder], tuple[str, str]] = {}
    for key, plan in verdicts.items():
        if not isinstance(plan, ErasePlan):
            continue
        pair = _meeting(work, plan, pieces)
        verdict = pair if isinstance(pair, Verdict) else check_merge(work, pair, here)
        if verdict is not None:
            verdicts[key] = verdict
        else:
            assert not isinstance(pair, Verdict)
            joined[key] = pair
    _chains(work, verdicts, joined, here)


def _meeting(work: WorkingBoard, plan: ErasePlan, pieces: Mapping[str, list[str]]
             ) -> tuple[str, str] | Verdict:
    """The two provinces an Erase joins after the Draws: the part of a split
    province that holds the whole border."""
    one, two = plan.provinces
    pairs = [(a, b) for a in _now(pieces, one) for b in _now(pieces, two)
             if b in work.rings.get(a, ())]
    if not pairs:
        return Verdict(False, "the border no longer exists", "II.G.8")
    if len(pairs) > 1:
        return Verdict(False, "the border was cut by a Draw", "II.G.8")
    return pairs[0]


def _chains(work: WorkingBoard,
            verdicts: dict[tuple[str, MapOrder], Verdict | DrawPlan | ErasePlan],
            joined: Mapping[tuple[str, MapOrder], tuple[str, str]],
            occupied: Mapping[str, str]) -> None:
    """§II.G.3 and §II.G.4 over several Erases: provinces joined by valid
    Erases into one must not hold two centres or two units, else every
    Erase of that province fails. ``occupied``: a province holding a unit
    -> where the unit stood before the Draws."""
    parent: dict[str, str] = {}

    def root(code: str) -> str:
        while parent.get(code, code) != code:
            code = parent[code]
        return code

    for one, two in joined.values():
        top, other = root(one), root(two)
        if top != other:
            parent[top] = other
    groups: dict[str, set[str]] = {}
    for pair in joined.values():
        for code in pair:
            groups.setdefault(root(code), set()).add(code)
    for key, pair in joined.items():
        group = groups[root(pair[0])]
        if len(group) < 3:
            continue  # a single Erase was checked on its own
        centres = sum(work.provinces[c].centre is not None for c in group)
        units = len({occupied[c] for c in group if c in occupied})
        if centres > 1:
            verdicts[key] = Verdict(False, "these Erases together combine two supply centres",
                                    "II.G.3")
        elif units > 1:
            verdicts[key] = Verdict(False, "these Erases together combine two units", "II.G.4")


def _now(pieces: Mapping[str, list[str]], code: str) -> list[str]:
    return pieces.get(code, [code])


def _carry_out_draw(work: WorkingBoard, plan: DrawPlan, pieces: dict[str, list[str]],
                    order: MapOrder) -> Split | None:
    """Split the province the Draw lies in as the board stands after the
    Draws before it (a second line in a province lies in one of its parts)."""
    assert isinstance(order, Draw)
    ring = plan.plan.rings
    first_border = ring[0][0]
    second_border = ring[0][-1]
    for code in _now(pieces, plan.province):
        here = work.rings[code]
        starts = [k for k, n in enumerate(here) if n in _now(pieces, first_border)
                  or n == first_border]
        ends = [k for k, n in enumerate(here) if n in _now(pieces, second_border)
                or n == second_border]
        if len(starts) != 1 or len(ends) != 1:
            continue
        i, j = starts[0], ends[0]
        now_plan = do.plan_split(work, code, i, j)
        centre: str | None = None
        names = do.part_names(work, code, now_plan)
        if work.provinces[code].centre is not None:
            chosen = side_part(work, now_plan, order.centre) if order.centre else None
            if chosen is None and plan.centre is not None:
                wanted = set(ring[plan.centre])
                chosen = max((0, 1), key=lambda k: len(wanted & set(now_plan.rings[k])))
            centre = names[chosen if chosen is not None else 0][0]
        line = work.lines + 1
        start, end = do.split(work, code, i, j, (names[0][0], names[1][0]),
                              (names[0][1], names[1][1]), centre)
        _replace(pieces, code, [names[0][0], names[1][0]])
        return Split(code, (names[0][0], names[1][0]), (names[0][1], names[1][1]), line,
                     start, end, work.origin[names[0][0]], i == j, centre, i, j)
    return None


def _replace(pieces: dict[str, list[str]], code: str, new: list[str]) -> None:
    """``code`` is now ``new``: in what each changed province has become, or
    as the first change of a province unchanged so far."""
    found = False
    for now in pieces.values():
        if code in now:
            at = now.index(code)
            now[at:at + 1] = new
            found = True
    if not found:
        pieces[code] = list(new)


def _carry_out_erase(work: WorkingBoard, plan: ErasePlan, pieces: dict[str, list[str]]
                     ) -> Merge | Verdict | None:
    """Merge the provinces the Erase's border now lies between: after a
    Draw, the part holding the whole border (example J)."""
    one, two = plan.provinces
    pairs = [(a, b) for a in _now(pieces, one) for b in _now(pieces, two)
             if a != b and b in work.rings.get(a, ())]
    if not pairs:
        if set(_now(pieces, one)) & set(_now(pieces, two)):
            return None  # already one province by another Erase
        return Verdict(False, "the border no longer exists", "II.G.8")
    if len(pairs) > 1:
        return Verdict(False, "the border was cut by a Draw", "II.G.8")
    a, b = pairs[0]
    if work.rings[a].count(b) > 1 or work.rings[b].count(a) > 1:
        return Verdict(False, f"{a} and {b} would meet in two places", "II.G.8")
    into = f"{a}+{b}"
    name = f"{work.provinces[a].name} and {work.provinces[b].name}"
    into, name = work.free_code(into, name)
    erased = do.merge(work, a, b, into, name)
    _replace(pieces, a, [into])
    _replace(pieces, b, [into])
    for now in pieces.values():  # one entry, not two, when both were here
        while now.count(into) > 1:
            now.remove(into)
    return Merge((a, b), into, name, erased)
