"""Diplomacy Point bids: how players steer the units of neutral powers.

Shared by the variants that use DP (Dissolution §5, Intercontinental). A
player writes ``2: A Aus S War - Pra`` beside their orders: two points for
that order of the neutral army in Austria. At adjudication every bid is
checked (the variant's rules say what makes one illegal or too costly);
for each neutral unit the legal order with the most points wins; a tie, or
no bid, gives the unit its default order. Bids are secret: results show
only the orders neutral units were given; :class:`BidResult` keeps what
each bid did for the game master and for the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from engine.legality import Occupancy, check_movement
from engine.map import GameMap, province_of
from engine.orders import MovementOrder
from engine.reports import ReportSection, section
from engine.units import Unit


@dataclass(frozen=True, slots=True)
class Bid:
    """Diplomacy Points offered for a neutral unit's order."""

    points: int
    order: MovementOrder

    def __str__(self) -> str:
        return f"{self.points}: {self.order}"


@dataclass(frozen=True, slots=True)
class BidResult:
    """A bid and what became of it: counted, or ignored and why."""

    bidder: str  # the power whose player bid
    bid: Bid
    counted: bool
    why: str = ""  # why the bid was ignored
    order: MovementOrder | None = None  # the order as the engine reads it

    def describe(self) -> str:
        return bid_line(self.bidder, str(self.bid), self.counted, self.why)


def bid_line(bidder: str, bid: str, counted: bool, why: str, width: int = 9) -> str:
    """A bid and its fate as the GM and, at the game's end, everyone read it;
    ``width``: the bidders' column, wider where a list has longer names."""
    return f"{bidder:<{width}} {bid:<30} " + ("counted" if counted else f"ignored: {why}")


BIDS_KEY = "bids"
BIDS_TITLE = "Diplomacy Point bids"


def bid_section(results: Iterable[BidResult]) -> tuple[ReportSection, ...]:
    """Every bid's fate, secret until the game ends (Dissolution §5.1.3):
    results show only the orders the neutral units were given."""
    return section(BIDS_KEY, BIDS_TITLE, results, BidResult.describe, lambda b: b.bidder,
                   secret_until_end=True)


def winning_orders(counted: Iterable[BidResult],
                   weight: Callable[[BidResult], int] | None = None) -> dict[str, MovementOrder]:
    """Per unit (by province), the order with strictly the most points.

    Orders are compared in their canonical form; a unit whose best orders
    tie is absent (it takes its default order). ``weight``: what a counted
    bid is worth, when not its points (Intercontinental's sponsors' bids
    count double, §11.3).
    """
    totals: dict[str, dict[str, int]] = {}
    orders: dict[str, MovementOrder] = {}
    for result in counted:
        order = result.order
        assert order is not None
        unit = province_of(order.unit.location)
        key = str(order)
        orders[key] = order
        per_unit = totals.setdefault(unit, {})
        worth = result.bid.points if weight is None else weight(result)
        per_unit[key] = per_unit.get(key, 0) + worth
    winners: dict[str, MovementOrder] = {}
    for unit, per_order in totals.items():
        ranked = sorted(per_order.values(), reverse=True)
        if len(ranked) > 1 and ranked[0] == ranked[1]:
            continue  # a tie: the default order
        best = max(per_order, key=lambda k: per_order[k])
        winners[unit] = orders[best]
    return winners


def spend(results: list[BidResult], budget: int, caps: Mapping[str, int],
          cap_of: Mapping[str, str]) -> list[BidResult]:
    """Take the legal bids in the order written while they fit the budget
    and each cap; the rest are ignored with the reason.

    ``caps``: points a group of units may receive in total (a nuclear
    power's units: the bidder's Favor with it); ``cap_of``: the group of a
    unit (by province), for the units that have one.
    """
    out: list[BidResult] = []
    spent = 0
    per_cap: dict[str, int] = {}
    for result in results:
        if not result.counted:
            out.append(result)
            continue
        points = result.bid.points
        assert result.order is not None
        group = cap_of.get(province_of(result.order.unit.location))
        if spent + points > budget:
            # the points the bid asks and what is left, not what was spent before
            # it: "2 of 3 DP already bid" beside a 3-DP bid read as a miscount
            out.append(_ignored(result, f"over budget: {points} DP asked, "
                                        f"{budget - spent} of {budget} DP left"))
            continue
        if group is not None and per_cap.get(group, 0) + points > caps.get(group, 0):
            out.append(_ignored(result, f"over the cap of {caps.get(group, 0)} DP for "
                                        f"{group}'s units (the bidder's Favor with {group})"))
            continue
        spent += points
        if group is not None:
            per_cap[group] = per_cap.get(group, 0) + points
        out.append(result)
    return out


def _ignored(result: BidResult, why: str) -> BidResult:
    return BidResult(result.bidder, result.bid, False, why, result.order)


def bid_target(game_map: GameMap, board: Occupancy, bid: Bid,
               kind: str = "neutral") -> tuple[Unit, MovementOrder] | str:
    """The bid-ordered unit a bid orders, and the order checked as that
    unit's own; or why the bid is void whatever the variant. ``kind``: how
    the variant calls the powers its bids order (in the reason)."""
    if bid.points < 1:
        return "a bid is at least 1 DP"
    prov = province_of(bid.order.unit.location)
    unit = board.units.get(prov)
    if unit is None:
        return f"no unit in {prov}"
    owner = game_map.powers.get(unit.power)
    if owner is None or not owner.ordered_by_bids:
        return f"the unit in {prov} is not {kind}"
    checked, reason = check_movement(board, unit.power, bid.order)
    if checked is None:
        return f"illegal order: {reason.describe() if reason else ''}"
    return unit, checked
