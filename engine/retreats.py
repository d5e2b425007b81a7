"""A retreat phase: dislodged units retreat or disband."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.legality import CheckedRetreat, check_retreat
from engine.map import GameMap, province_of
from engine.order_sets import OrderSet
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

    def check(power: str, order: Order) -> CheckedRetreat:
        return check_retreat(dislodged, options, power, order, game_map)

    order_set: OrderSet[Retreat | Disband] = OrderSet(orders, check)
    chosen = order_set.chosen

    # two or more retreats to one province: all of them disband
    arrivals: dict[str, list[str]] = {}
    for prov, order in chosen.items():
        if isinstance(order, Retreat):
            arrivals.setdefault(province_of(order.dest), []).append(prov)
    clashes = {p for origins in arrivals.values() if len(origins) > 1 for p in origins}

    def judge(power: str, prov: str, order: Retreat | Disband) -> OrderResult:
        if prov in clashes and isinstance(order, Retreat):
            rivals = tuple(p for p in arrivals[province_of(order.dest)] if p != prov)
            return OrderResult(power, order, Outcome.FAILS, Reason(Why.RETREAT_CLASH, rivals))
        return OrderResult(power, order, Outcome.SUCCEEDS)

    results, answered = order_set.answer(judge)
    board = list(state.units)
    for prov, unit in dislodged.items():
        final = chosen.get(prov)
        if prov not in answered:
            results.append(OrderResult(unit.power, Disband(UnitRef(unit.location, unit.kind)),
                                       Outcome.SUCCEEDS))
        if isinstance(final, Retreat) and prov not in clashes:
            board.append(Unit(unit.power, unit.kind, final.dest))
    return RetreatResult(tuple(results), tuple(board))
