"""Winter adjustments: builds, removals, waives, and civil disorder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.map import GameMap, Terrain, UnitKind, coast_of, province_of
from engine.orders import Build, Disband, Order, Remove, UnitRef, Waive
from engine.outcomes import OrderResult, Outcome, Reason, Why, illegal
from engine.state import GameState
from engine.units import Unit
from engine.variants import rules_for


@dataclass(frozen=True, slots=True)
class AdjustmentResult:
    """A winter's adjustments resolved: results and the board after them."""

    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]
    built: tuple[Unit, ...] = ()  # the units built this winter, neutral ones included


def centre_counts(game_map: GameMap, state: GameState) -> dict[str, int]:
    """Each power's score: its supply centres at their values (the rules'
    scores: effective victory points in Dissolution)."""
    return rules_for(game_map).scores(game_map, state)


def adjustment_due(game_map: GameMap, state: GameState, power: str,
                   scores: Mapping[str, int] | None = None,
                   units: Mapping[str, int] | None = None) -> int:
    """Builds (positive) or removals (negative) a power must make this winter;
    ``scores`` and ``units`` (state.unit_counts()), when the caller has them."""
    rules = rules_for(game_map)
    if not rules.builds(game_map.powers[power], state):
        return 0
    if scores is None:
        scores = rules.scores(game_map, state)
    if units is None:
        units = state.unit_counts()
    return rules.allowance(game_map, state, power, scores) - units.get(power, 0)


def powers_adjusting(
    game_map: GameMap, state: GameState, counts: Mapping[str, int] | None = None
) -> list[str]:
    """The powers that must remove, or may build somewhere, this winter;
    ``counts``: the rules' scores, if known."""
    rules = rules_for(game_map)
    units = state.unit_counts()
    if counts is None:
        counts = rules.scores(game_map, state)
    adjusting = []
    occupied = {u.province for u in state.units}
    for power in game_map.powers:
        if not rules.builds(game_map.powers[power], state):
            continue
        due = rules.allowance(game_map, state, power, counts) - units.get(power, 0)
        if due < 0 or (due > 0 and free_sites(game_map, state, power, occupied)):
            adjusting.append(power)
    return adjusting


def needs_adjustments(
    game_map: GameMap, state: GameState, counts: Mapping[str, int] | None = None
) -> bool:
    """Whether some power must build or remove; ``counts``: the scores, if known."""
    return bool(powers_adjusting(game_map, state, counts))


def free_sites(game_map: GameMap, state: GameState, power: str,
               occupied: set[str] | None = None) -> list[str]:
    """The centres the power may build in now: its own, empty build sites;
    ``occupied``: the provinces with a unit, when the caller has them."""
    owned = set(state.centres_of(power))
    if occupied is None:
        occupied = {u.province for u in state.units}
    sites = rules_for(game_map).build_sites(game_map, state, power)
    return [c for c in sites if c in owned and c not in occupied]


def _build_unit(game_map: GameMap, power: str, order: Build) -> Unit | Reason:
    prov_code = province_of(order.location)
    prov = game_map.provinces.get(prov_code)
    if prov is None:
        return illegal(f"{order.location} is not on the map")
    kind = order.kind
    if kind is None:
        # DATC 4.C.3: an army inland; a fleet where a coast is named; else unclear
        if prov.terrain is Terrain.LAND:
            kind = UnitKind.ARMY
        elif coast_of(order.location) and prov.coasts:
            kind = UnitKind.FLEET
        else:
            return illegal("say whether to build an army or a fleet")
    location = prov_code if kind is UnitKind.ARMY else order.location
    if kind is UnitKind.FLEET and prov.coasts and coast_of(location) is None:
        return illegal(f"say which coast of {prov.name} the fleet is built on")
    if kind is UnitKind.FLEET and coast_of(location) and not prov.coasts:
        location = prov_code  # a coast on a one-coast province is just noise
    if not game_map.can_stand(kind, location):
        return illegal(f"a {kind.noun} cannot be built in {prov.name}")
    return Unit(power, kind, location)


def resolve_adjustments(
    game_map: GameMap, state: GameState, orders: Mapping[str, Sequence[Order]],
) -> AdjustmentResult:
    rules = rules_for(game_map)
    scores = rules.scores(game_map, state)
    results: list[OrderResult] = []
    board = list(state.units)
    powers = list(game_map.powers)
    units = state.unit_counts()
    occupied = {u.province for u in state.units}
    for power in powers:
        due = adjustment_due(game_map, state, power, scores, units)
        # njudge players write "disband" for a winter removal
        given: list[Order] = [
            Remove(o.unit) if isinstance(o, Disband) else o for o in orders.get(power, ())
        ]
        if power in state.unplayed:
            results.extend(OrderResult(power, o, Outcome.ILLEGAL, illegal(
                f"{power} is not played: it never builds")) for o in given)
            given = []
        if not rules.builds(game_map.powers[power], state) and given:
            results.extend(OrderResult(power, o, Outcome.ILLEGAL, illegal(
                f"{power} never builds or removes")) for o in given)
            given = []
        if due > 0 and not given:
            results.extend(_unordered_builds(game_map, state, power, due, board, scores,
                                             occupied))
        elif due > 0:
            results.extend(_builds(game_map, state, power, due, given, board, scores, occupied))
        elif due < 0:
            results.extend(_removals(game_map, state, power, -due, given, board))
        else:
            results.extend(OrderResult(power, o, Outcome.ILLEGAL,
                                       illegal(f"{power} has no adjustments to make"))
                           for o in given)
    for power, power_orders in orders.items():
        if power not in game_map.powers:
            results.extend(OrderResult(power, o, Outcome.ILLEGAL,
                                       illegal(f"unknown power {power}")) for o in power_orders)
    occupied = {u.province for u in board}
    for unit in rules.neutral_builds(game_map, state):
        if unit.province not in occupied:
            board.append(unit)
            results.append(OrderResult(unit.power, Build(unit.location, unit.kind),
                                       Outcome.SUCCEEDS))
    before = set(state.units)
    return AdjustmentResult(tuple(results), tuple(board),
                            tuple(u for u in board if u not in before))


def _builds(
    game_map: GameMap, state: GameState, power: str, due: int, given: list[Order],
    board: list[Unit], scores: Mapping[str, int], occupied: set[str],
) -> list[OrderResult]:
    rules = rules_for(game_map)
    results: list[OrderResult] = []
    eligible = rules.build_sites(game_map, state, power)
    sites = set(free_sites(game_map, state, power, occupied))
    allowed = min(due, len(sites)) if power not in state.unplayed else 0
    used = 0
    for order in given:
        if isinstance(order, Waive):
            if used < allowed:
                used += 1
                results.append(OrderResult(power, order, Outcome.SUCCEEDS))
            else:
                results.append(OrderResult(power, order, Outcome.VOID,
                                           Reason(Why.TOO_MANY, detail="no build left to waive")))
            continue
        if not isinstance(order, Build):
            results.append(OrderResult(power, order, Outcome.ILLEGAL,
                                       illegal(f"{power} builds this winter; it cannot remove")))
            continue
        unit = _build_unit(game_map, power, order)
        if isinstance(unit, Reason):
            results.append(OrderResult(power, order, Outcome.ILLEGAL, unit))
            continue
        canonical = Build(unit.location, unit.kind)
        if unit.province not in eligible:
            why = (f"{unit.province} is not a home supply centre of {power}"
                   if eligible == set(game_map.powers[power].home)
                   else f"{unit.province} is not a build site of {power}")
        elif unit.province not in state.centres_of(power):
            why = f"{power} does not own {unit.province}"
        elif unit.province not in sites:
            why = f"{unit.province} is occupied"
        else:
            why = rules.build_refusal(game_map, state, power, unit, scores, board)
        if why:
            results.append(OrderResult(power, canonical, Outcome.ILLEGAL, illegal(why)))
            continue
        if used >= allowed:
            results.append(OrderResult(power, canonical, Outcome.VOID, Reason(
                Why.TOO_MANY, detail=f"{power} may build only {allowed}")))
            continue
        used += 1
        sites.discard(unit.province)
        board.append(unit)
        results.append(OrderResult(power, canonical, Outcome.SUCCEEDS))
    # builds not ordered are waived
    results.extend(OrderResult(power, Waive(), Outcome.SUCCEEDS) for _ in range(allowed - used))
    return results


def _unordered_builds(
    game_map: GameMap, state: GameState, power: str, due: int,
    board: list[Unit], scores: Mapping[str, int], occupied: set[str],
) -> list[OrderResult]:
    """A power that ordered no adjustments: its builds are waived, unless the
    rules build for it (DPJudge's CD_BUILDS), as orders checked like any."""
    if power in state.unplayed:
        return _builds(game_map, state, power, due, [], board, scores, occupied)
    sites = free_sites(game_map, state, power, occupied)
    made = rules_for(game_map).unordered_builds(game_map, state, power, due, sites)
    results = _builds(game_map, state, power, due, list(made), board, scores, occupied)
    built = Reason(Why.CIVIL_DISORDER, detail="built by the civil disorder rule")
    return [replace(r, reason=built) if isinstance(r.order, Build)
            and r.outcome is Outcome.SUCCEEDS else r for r in results]


def _removals(
    game_map: GameMap, state: GameState, power: str, due: int, given: list[Order],
    board: list[Unit],
) -> list[OrderResult]:
    results: list[OrderResult] = []
    removed: set[str] = set()
    for order in given:
        if not isinstance(order, Remove):
            results.append(OrderResult(power, order, Outcome.ILLEGAL,
                                       illegal(f"{power} must remove units this winter")))
            continue
        prov = province_of(order.unit.location)
        if prov in removed:
            results.append(OrderResult(power, order, Outcome.VOID, Reason(
                Why.NOT_MATCHED, detail="this unit is already removed")))
            continue
        unit = next((u for u in board if u.province == prov), None)
        if unit is None or unit.power != power:
            results.append(OrderResult(power, order, Outcome.ILLEGAL,
                                       illegal(f"{power} has no unit in {prov}")))
            continue
        canonical = Remove(UnitRef(unit.location, unit.kind))
        if len(removed) >= due:
            results.append(OrderResult(power, canonical, Outcome.VOID, Reason(
                Why.TOO_MANY, detail=f"{power} must remove only {due}")))
            continue
        removed.add(prov)
        board.remove(unit)
        results.append(OrderResult(power, canonical, Outcome.SUCCEEDS))
    for unit in civil_disorder_removals(game_map, state, power, due - len(removed), board):
        board.remove(unit)
        results.append(OrderResult(power, Remove(UnitRef(unit.location, unit.kind)),
                                   Outcome.SUCCEEDS, Reason(Why.CIVIL_DISORDER)))
    return results


def civil_disorder_removals(
    game_map: GameMap, state: GameState, power: str, count: int, board: list[Unit],
) -> list[Unit]:
    """The units a power that did not order enough removals loses.

    Farthest first; equal distances: fleets before armies, then by the
    province's English name. Distance counts moves over land and sea alike
    to the nearest owned supply centre (2023 rulebook, DATC 4.D.8), or to
    the nearest home centre with ``cd_distance == "home"`` (2000 rulebook).
    """
    if count <= 0:
        return []
    if state.cd_distance == "home":
        targets = list(game_map.powers[power].home)
    else:
        targets = state.centres_of(power) or list(game_map.powers[power].home)
    distance = game_map.distances_from(targets)
    candidates = [u for u in board if u.power == power]
    far = len(game_map.provinces)
    candidates.sort(key=lambda u: (
        -distance.get(u.province, far),
        0 if u.kind is UnitKind.FLEET else 1,
        game_map.provinces[u.province].name,
    ))
    return candidates[:count]
