"""A power's orders for the units it commands, as movement and retreat
phases both read them: each order checked, the last legal order for a unit
obeyed, and every order given answered in the order it was given."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Generic, TypeVar

from engine.orders import Convoy, Disband, Hold, Move, Order, Retreat, SupportHold, SupportMove
from engine.outcomes import OrderResult, Outcome, Reason, Why

# orders given to a unit (builds and waives are not)
UnitOrder = TypeVar(
    "UnitOrder", bound=Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband)

_REPLACED = Reason(Why.NOT_MATCHED, detail="another order for this unit replaces it")


class OrderSet(Generic[UnitOrder]):
    def __init__(
        self,
        orders: Mapping[str, Sequence[Order]],
        check: Callable[[str, Order], tuple[UnitOrder, None] | tuple[None, Reason]],
        key: Callable[[str, UnitOrder], str] | None = None,
    ) -> None:
        """``key(power, checked order)`` names the unit an order is for: its
        province, unless two units may share one (a retreat phase of Diplomap,
        where a displaced unit shares its old province with the unit it
        dislodged)."""
        # (power, order as given, checked order, why illegal, the unit's key)
        self.given: list[tuple[str, Order, UnitOrder | None, Reason | None, str]] = []
        self.chosen: dict[str, UnitOrder] = {}  # unit's key -> the order the unit obeys
        for power, power_orders in orders.items():
            for order in power_orders:
                checked, reason = check(power, order)
                if checked is None:
                    self.given.append((power, order, None, reason, ""))
                    continue
                prov = key(power, checked) if key else checked.unit.province
                self.given.append((power, order, checked, reason, prov))
                self.chosen[prov] = checked  # last wins

    def answer(
        self, judge: Callable[[str, str, UnitOrder], OrderResult]
    ) -> tuple[list[OrderResult], set[str]]:
        """Results for every order given: illegal ones, replaced ones (void),
        and ``judge(power, province, order)`` for the order each unit obeyed.
        Also the provinces whose units were answered."""
        results: list[OrderResult] = []
        answered: set[str] = set()
        for power, raw, checked, reason, prov in self.given:
            if checked is None:
                results.append(OrderResult(power, raw, Outcome.ILLEGAL, reason))
                continue
            if self.chosen[prov] is not checked or prov in answered:
                results.append(OrderResult(power, checked, Outcome.VOID, _REPLACED))
                continue
            answered.add(prov)
            results.append(judge(power, prov, checked))
        return results, answered
