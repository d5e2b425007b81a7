"""A retreat phase: dislodged units retreat or disband."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.legality import CheckedRetreat, check_retreat
from engine.map import Crossing, GameMap, province_of
from engine.order_sets import OrderSet
from engine.orders import Disband, Order, Retreat, UnitRef
from engine.outcomes import OrderResult, Outcome, Reason, Why, illegal
from engine.state import Dislodged, GameState
from engine.units import Unit


@dataclass(frozen=True, slots=True)
class RetreatResult:
    """A retreat phase resolved: results and the board after it."""

    results: tuple[OrderResult, ...]
    units: tuple[Unit, ...]  # the whole board after the retreats


def resolve_retreats(
    game_map: GameMap, state: GameState, orders: Mapping[str, Sequence[Order]]
) -> RetreatResult:
    keys = RetreatKeys(state.dislodged)
    dislodged = {keys.of(d.unit.power, d.unit.province): d.unit for d in state.dislodged}

    def check(power: str, order: Order) -> CheckedRetreat:
        units, options = keys.seen_by(power)
        checked = check_retreat(units, options, power, order, game_map)
        choosing = keys.displaced(power, order) if checked[0] is None else None
        return checked if choosing is None else (None, _choose_part(choosing))

    def key(power: str, order: Retreat | Disband) -> str:
        return keys.of(power, province_of(order.unit.location))

    order_set: OrderSet[Retreat | Disband] = OrderSet(orders, check, key)
    chosen = order_set.chosen

    # two or more retreats to one province: all of them disband, but a
    # retreat round the Cape of Good Hope loses to the others (Map.html)
    arrivals: dict[str, list[str]] = {}
    for prov, order in chosen.items():
        if isinstance(order, Retreat):
            arrivals.setdefault(province_of(order.dest), []).append(prov)
    capes = {p for dest, origins in arrivals.items() if len(origins) > 1 for p in origins
             if game_map.crossing(dislodged[p].province, dest) is Crossing.CAPE}
    clashes = {p for origins in arrivals.values() if len(origins) > 1 for p in origins
               if p in capes or len(set(origins) - capes) > 1}

    def judge(power: str, prov: str, order: Retreat | Disband) -> OrderResult:
        if prov in clashes and isinstance(order, Retreat):
            rivals = tuple(dislodged[p].province for p in arrivals[province_of(order.dest)]
                           if p != prov)
            detail = _ROUND_THE_CAPE if prov in capes else ""
            return OrderResult(power, order, Outcome.FAILS,
                               Reason(Why.RETREAT_CLASH, rivals, detail=detail))
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


_ROUND_THE_CAPE = ("another unit retreated there too: a retreat across the Cape of Good Hope "
                   "is destroyed")


def _choose_part(d: Dislodged) -> Reason:
    """A displaced unit's order that goes nowhere it may: it does not
    retreat but chooses a part of its own province, so its choices are
    what the player needs ('MUN was split under A MUN: choose MUN-N or MUN-S')."""
    return illegal(f"{d.unit.province} was split under {d.unit}: choose "
                   f"{' or '.join(d.retreats)} (as {d.unit} R {d.retreats[0]})")


class RetreatKeys:
    """Which retreating unit an order names. Usually one per province, so
    the province is the key; in Diplomap a unit displaced from a split
    province (§III.B) may share it with the unit it dislodged there, always
    another power's, so the province and the power tell them apart."""

    def __init__(self, dislodged: Sequence[Dislodged]) -> None:
        self.dislodged = tuple(dislodged)
        seen: set[str] = set()
        self.shared: set[str] = set()
        for d in dislodged:
            (self.shared if d.unit.province in seen else seen).add(d.unit.province)
        self._views: dict[str, tuple[dict[str, Unit], dict[str, tuple[str, ...]]]] = {}

    def displaced(self, power: str, order: Order) -> Dislodged | None:
        """The displaced unit of ``power`` an order names, if it is one (a
        retreat, or a hold or move as in a movement phase; not a disband)."""
        unit: UnitRef | None = getattr(order, "unit", None)
        if unit is None or isinstance(order, Disband):
            return None
        province = province_of(unit.location)
        return next((d for d in self.dislodged if d.displaced and d.retreats
                     and d.unit.power == power and d.unit.province == province), None)

    def of(self, power: str, province: str) -> str:
        return f"{province} {power}" if province in self.shared else province

    def seen_by(self, power: str) -> tuple[dict[str, Unit], dict[str, tuple[str, ...]]]:
        """The retreating units by province as ``power``'s orders read them:
        its own where a province holds two."""
        view = self._views.get(power)
        if view is None:
            units: dict[str, Unit] = {}
            options: dict[str, tuple[str, ...]] = {}
            for d in self.dislodged:
                prov = d.unit.province
                if prov not in units or d.unit.power == power:
                    units[prov], options[prov] = d.unit, d.retreats
            view = self._views[power] = (units, options)
        return view
