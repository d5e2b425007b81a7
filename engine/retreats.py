"""A retreat phase: dislodged units retreat or disband."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.legality import check_retreat
from engine.map import GameMap, province_of
from engine.orders import Disband, Order, Retreat, UnitRef
from engine.outcomes import OrderResult, Outcome, Reason, Why
from engine.state import GameState
from engine.units import Unit


@dataclass(frozen=True, slots=True)
class RetreatResult:
    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]  # the whole board after the retreats


def resolve_retreats(
    game_map: GameMap, state: GameState, orders: Mapping[str, Sequence[Order]]
) -> RetreatResult:
    dislodged = {d.unit.province: d.unit for d in state.dislodged}
    options = {d.unit.province: d.retreats for d in state.dislodged}
    chosen: dict[str, Retreat | Disband] = {}
    given: list[tuple[str, Order, Retreat | Disband | None, Reason | None]] = []
    for power, power_orders in orders.items():
        for order in power_orders:
            checked, reason = check_retreat(dislodged, options, power, order, game_map)
            assert checked is None or isinstance(checked, (Retreat, Disband))
            given.append((power, order, checked, reason))
            if checked is not None:
                chosen[province_of(checked.unit.location)] = checked  # a later order wins

    # two or more retreats to one province: all of them disband
    arrivals: dict[str, list[str]] = {}
    for prov, order in chosen.items():
        if isinstance(order, Retreat):
            arrivals.setdefault(province_of(order.dest), []).append(prov)
    clashes = {p for origins in arrivals.values() if len(origins) > 1 for p in origins}

    results: list[OrderResult] = []
    answered: set[str] = set()
    for power, raw, checked, reason in given:
        if checked is None:
            results.append(OrderResult(power, raw, Outcome.ILLEGAL, reason))
            continue
        prov = province_of(checked.unit.location)
        if chosen[prov] is not checked or prov in answered:
            results.append(OrderResult(power, checked, Outcome.VOID, Reason(
                Why.NOT_MATCHED, detail="another order for this unit replaces it")))
            continue
        answered.add(prov)
        if prov in clashes and isinstance(checked, Retreat):
            rivals = tuple(p for p in arrivals[province_of(checked.dest)] if p != prov)
            results.append(OrderResult(power, checked, Outcome.FAILS,
                                       Reason(Why.RETREAT_CLASH, rivals)))
        else:
            results.append(OrderResult(power, checked, Outcome.SUCCEEDS))
    board = list(state.units)
    for prov, unit in dislodged.items():
        final = chosen.get(prov)
        if prov not in answered:
            results.append(OrderResult(unit.power, Disband(UnitRef(unit.location, unit.kind)),
                                       Outcome.SUCCEEDS))
        if isinstance(final, Retreat) and prov not in clashes:
            board.append(Unit(unit.power, unit.kind, final.dest))
    return RetreatResult(tuple(results), tuple(board))
