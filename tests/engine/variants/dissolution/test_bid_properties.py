"""Properties of Dissolution's bids, violations and determinism, for any
position, any orders and any bids.

The random phases and how they are drawn: random_phases.py. Each property
is checked from the results rather than from the engine's internals where
possible (§ numbers are those of the Dissolution v2.1 full rules).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

from hypothesis import given, settings

from engine.bids import BidResult
from engine.game import adjudicate
from engine.legality import check_movement
from engine.map import Terrain, province_of
from engine.orders import Convoy, Hold, Move, SupportHold, SupportMove
from engine.outcomes import OrderResult, Why
from engine.state import GameState
from engine.units import Unit
from engine.variants.dissolution.neutral import budget
from engine.variants.dissolution.state import favor_of
from engine.variants.dissolution.state import of as dissolution
from engine.variants.dissolution.violations import DISABLED, FROM_TERRITORY, NO_PERMISSION
from tests.engine.variants.dissolution.random_phases import (
    MAP,
    MOVEMENT_ORDERS,
    NEUTRAL,
    NUCLEAR,
    OIL,
    PLAYED,
    RULES,
    SEEDS,
    Drawn,
    _dislodged,
    _ref,
    _target,
    draw,
    obeyed,
    order_key,
)
from tests.examples import examples

# -- bids ------------------------------------------------------------------------------


def _expected_winner(unit: Unit, counted: Sequence[BidResult], units: Mapping[str, Unit]
                     ) -> tuple[object, ...]:
    """§5.1.3: the legal order with the most points (the same order however
    written); a tie or no bid: the default (§9.2.1: a paired minor with both
    armies supports its partner)."""
    totals: Counter[tuple[object, ...]] = Counter()
    for r in counted:
        totals[order_key(r.bid.order)] += r.bid.points
    ranked = totals.most_common()
    if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]):
        return ranked[0][0]
    if MAP.powers[unit.power].default_order == "support-partner":
        partners = [u for u in units.values() if u.power == unit.power and u != unit]
        if len(partners) == 1 and MAP.reaches_province(unit.kind, unit.location,
                                                       partners[0].province):
            return order_key(SupportHold(_ref(unit), _ref(partners[0])))
    return order_key(Hold(_ref(unit)))


def _budget(state: GameState, power: str) -> int:
    """§5.2, §5.3: a point a unit up to four, one for oil, at least one; an exile one."""
    if power in dissolution(state).exiles:
        return 1
    units = len(state.units_of(power))
    oil = any(state.owner_of.get(c) == power for c in OIL)
    return max(1, min(units, 4) + oil)


def check_bids(drawn: Drawn) -> None:
    state, resolution = drawn.state, drawn.resolution
    units = {u.province: u for u in state.units}
    results = obeyed(resolution.results)
    board = RULES.occupancy(RULES.map_for(MAP, state), state, units)
    assert len(resolution.facts("bids")) == sum(len(b) for b in drawn.bids.values())
    assert Counter((r.bidder, r.bid) for r in resolution.facts("bids")) == Counter(
        (bidder, bid) for bidder, bids in drawn.bids.items() for bid in bids)
    counted = [r for r in resolution.facts("bids") if r.counted]
    spent: Counter[str] = Counter()
    on_nuclear: Counter[tuple[str, str]] = Counter()
    per_unit: dict[str, list[BidResult]] = {}
    for r in counted:
        assert r.bidder in PLAYED and r.bidder not in dissolution(state).silenced, r
        assert r.bid.points >= 1
        assert r.order is not None
        prov = province_of(r.order.unit.location)
        unit = units[prov]
        assert unit.power in NEUTRAL, f"a counted bid on a player's unit: {r}"
        checked, reason = check_movement(board, unit.power, r.order)
        assert checked == r.order, (r, reason)
        spent[r.bidder] += r.bid.points
        if unit.power in NUCLEAR:
            on_nuclear[r.bidder, unit.power] += r.bid.points
        per_unit.setdefault(prov, []).append(r)
        check_limits(drawn, r, unit, units, results)
    for bidder, points in spent.items():
        assert points <= budget(MAP, state, bidder) == _budget(state, bidder), bidder
    for (bidder, nuclear), points in on_nuclear.items():  # §11.4.1
        assert points <= favor_of(MAP, state, bidder, nuclear), (bidder, nuclear, points)
    # every neutral unit obeys a legal order: the bids' winner or its default
    for prov, unit in units.items():
        if unit.power not in NEUTRAL:
            continue
        order = results[prov].order
        assert isinstance(order, MOVEMENT_ORDERS)
        checked, reason = check_movement(board, unit.power, order)
        assert checked == order, (order, reason)
        assert order_key(order) == _expected_winner(unit, per_unit.get(prov, []), units), \
            (order, per_unit.get(prov))


def check_limits(drawn: Drawn, r: BidResult, unit: Unit, units: Mapping[str, Unit],
                 results: Mapping[str, OrderResult]) -> None:
    """A counted bid keeps cohesion (§9.2), prejudice (§9.3) and deception (§9.1)."""
    state = drawn.state
    order = r.order
    assert order is not None
    target = _target(order)
    victim = units.get(target) if target else None
    if victim is not None:
        if unit.power == "US_NAVY":  # §9.2.3
            assert victim.power not in ("NATO", "ISRAEL"), f"US Navy attacks {victim}: {r}"
        else:
            assert victim.power != unit.power, f"cohesion broken (§9.2): {r}"
    if unit.power in NUCLEAR and isinstance(order, (SupportMove, Convoy)):
        attacker = units.get(province_of(order.target.location))
        assert target is not None
        if attacker is not None and attacker.power in PLAYED:
            defender: str | None = None
            if victim is not None:
                defender = victim.power
            elif target in MAP.supply_centres:
                defender = state.owner_of.get(target)
            if defender in PLAYED and defender != attacker.power:
                assert favor_of(MAP, state, attacker.power, unit.power) > \
                    favor_of(MAP, state, defender, unit.power), f"prejudice broken (§9.3): {r}"
    if MAP.powers[unit.power].stationary:  # §9.1: not the US Navy
        for prov, result in results.items():
            if units[prov].power != r.bidder:
                continue
            aimed = _target(result.order)
            hit = units.get(aimed) if aimed else None
            assert hit is None or hit.power != unit.power, \
                f"deception (§9.1): {r} while {result.order}"


def check_ignored(drawn: Drawn) -> None:
    """Every ignored bid breaks the rule its reason names (the engine is not
    stricter than the rules), and the budget and the Favor caps are spent on
    the bids in the order written, each taken when it fits (§5.1.2, §11.4.1)."""
    state, resolution = drawn.state, drawn.resolution
    units = {u.province: u for u in state.units}
    results = obeyed(resolution.results)
    board = RULES.occupancy(RULES.map_for(MAP, state), state, units)
    spent: Counter[str] = Counter()
    capped: Counter[tuple[str, str]] = Counter()
    for r in resolution.facts("bids"):  # in the order written, bidder by bidder
        order = r.order
        unit = units.get(province_of(order.unit.location)) if order is not None else None
        nuclear = unit.power if unit is not None and unit.power in NUCLEAR else None
        if r.counted:
            spent[r.bidder] += r.bid.points
            if nuclear:
                capped[r.bidder, nuclear] += r.bid.points
            continue
        why = r.why
        if why.startswith("over budget"):
            assert spent[r.bidder] + r.bid.points > _budget(state, r.bidder), r
        elif why.startswith("over the cap"):
            assert nuclear is not None, r
            assert capped[r.bidder, nuclear] + r.bid.points > \
                favor_of(MAP, state, r.bidder, nuclear), r
        elif why.endswith("may not bid"):
            assert r.bidder not in PLAYED or r.bidder in dissolution(state).silenced, r
        elif why.startswith("a bid is at least"):
            assert r.bid.points < 1, r
        elif why.startswith("no unit in"):
            assert province_of(r.bid.order.unit.location) not in units, r
        elif why.endswith("is not neutral"):
            assert units[province_of(r.bid.order.unit.location)].power in PLAYED, r
        elif why.startswith("illegal order"):
            bid_unit = units[province_of(r.bid.order.unit.location)]
            assert check_movement(board, bid_unit.power, r.bid.order)[0] is None, r
        else:
            assert order is not None and unit is not None, r
            target = _target(order)
            victim = units.get(target) if target else None
            if why.startswith("cohesion"):  # §9.2, §9.2.3
                assert victim is not None, r
                friends = ("NATO", "ISRAEL") if unit.power == "US_NAVY" else (unit.power,)
                assert victim.power in friends, r
            elif why.startswith("prejudice"):  # §9.3
                assert nuclear is not None and isinstance(order, (SupportMove, Convoy)), r
                assert target is not None
                attacker = units[province_of(order.target.location)]
                defender = victim.power if victim is not None else state.owner_of[target]
                assert attacker.power in PLAYED and defender in PLAYED, r
                assert defender != attacker.power, r
                assert favor_of(MAP, state, attacker.power, nuclear) <= \
                    favor_of(MAP, state, defender, nuclear), r
            elif why.startswith("deception"):  # §9.1
                assert MAP.powers[unit.power].stationary, r
                assert any(units[p].power == r.bidder and (aimed := _target(res.order))
                           and aimed in units and units[aimed].power == unit.power
                           for p, res in results.items()), r
            else:
                raise AssertionError(f"a bid ignored for an unknown reason: {r}")


@settings(max_examples=examples(800), deadline=None)
@given(SEEDS)
def test_bids_are_counted_within_the_rules(seed: int) -> None:
    check_bids(draw(seed))


@settings(max_examples=examples(600), deadline=None)
@given(SEEDS)
def test_bids_are_ignored_only_for_their_reasons(seed: int) -> None:
    check_ignored(draw(seed))


# -- violations ----------------------------------------------------------------------


def _expected_violations(drawn: Drawn) -> Counter[tuple[str, str, str, str, str]]:
    """§11.6.1-§11.6.3, from the orders obeyed and their results."""
    state = drawn.state
    units = {u.province: u for u in state.units}
    results = obeyed(drawn.resolution.results)
    dislodged = _dislodged(results)
    territory = {n: set(MAP.powers[n].territory) for n in NUCLEAR}
    partners = MAP.tables["favor"]["partners"]
    granting = {n: {n} | {p for p, partner in partners.items() if partner == n}
                for n in NUCLEAR}
    found: Counter[tuple[str, str, str, str, str]] = Counter()
    for origin, result in results.items():
        attacker, move = units[origin], result.order
        if attacker.power not in PLAYED or not isinstance(move, Move):
            continue
        dest = province_of(move.dest)
        target = units.get(dest)
        if target is not None and target.power in NUCLEAR:
            if origin in territory[target.power]:
                found[attacker.power, target.power, FROM_TERRITORY, str(attacker), dest] += 1
            reason = result.reason
            if reason is not None and reason.why in (Why.SORTIE, Why.DISABLES) \
                    and reason.units == (dest,):
                found[attacker.power, target.power, DISABLED, str(attacker), dest] += 1
        if dislodged.get(dest) != origin or MAP.provinces[dest].terrain is Terrain.WATER:
            continue
        near = MAP.province_graph[dest] | {dest}
        for nuclear in NUCLEAR:
            if near.isdisjoint(territory[nuclear]):
                continue
            permitted = False
            for helper, help_result in results.items():
                order = help_result.order
                if units[helper].power not in granting[nuclear]:
                    continue
                if isinstance(order, (SupportMove, Convoy)) \
                        and province_of(order.target.location) == origin \
                        and province_of(order.dest) == dest \
                        and (isinstance(order, SupportMove) or helper in move.path):
                    permitted = True
            if not permitted:
                found[attacker.power, nuclear, NO_PERMISSION, str(attacker), dest] += 1
    return found


def check_violations(drawn: Drawn) -> None:
    violations = drawn.resolution.facts("violations")
    for v in violations:
        assert v.power in PLAYED, v
        assert v.nuclear in NUCLEAR, v
        assert v.via is None or (v.via == "NATO" and v.nuclear == "US_NAVY"), v
        assert v.describe()
    # §11.6.4: every offence against NATO offends the US Navy too, and only those
    against_nato = Counter((v.power, v.kind, v.unit, v.target) for v in violations
                           if v.nuclear == "NATO")
    via_nato = Counter((v.power, v.kind, v.unit, v.target) for v in violations
                       if v.via == "NATO")
    assert against_nato == via_nato
    direct = Counter((v.power, v.nuclear, v.kind, v.unit, v.target)
                     for v in violations if v.via is None)
    assert direct == _expected_violations(drawn)


@settings(max_examples=examples(1000), deadline=None)
@given(SEEDS)
def test_violations_follow_the_moves(seed: int) -> None:
    check_violations(draw(seed))


# -- determinism -----------------------------------------------------------------------


def _normal(results: Sequence[OrderResult]) -> list[tuple[object, ...]]:
    """Results as compared across orderings of the bids: when several units
    cut a support, which one the result names follows the order of the
    orders (the first attacker found), so only the cut itself is compared."""
    out: list[tuple[object, ...]] = []
    for r in results:
        reason = r.reason
        if reason is None:
            out.append((r.power, r.order, r.outcome))
            continue
        units = () if reason.why is Why.CUT else tuple(sorted(reason.units))
        out.append((r.power, r.order, r.outcome, reason.why, units, reason.strength,
                    reason.against, reason.detail))
    return out


@settings(max_examples=examples(200), deadline=None)
@given(SEEDS)
def test_adjudication_is_deterministic(seed: int) -> None:
    drawn = draw(seed)
    again = adjudicate(MAP, drawn.state, drawn.orders, drawn.bids)
    assert again == drawn.resolution
    # the bidders' order changes nothing but the order the bids are reported in
    reordered = adjudicate(MAP, drawn.state, drawn.orders,
                           dict(reversed(list(drawn.bids.items()))))
    assert _normal(reordered.results) == _normal(drawn.resolution.results)
    assert reordered.next == drawn.resolution.next
    assert reordered.facts("violations") == drawn.resolution.facts("violations")
    assert Counter(reordered.facts("bids")) == Counter(drawn.resolution.facts("bids"))


@settings(max_examples=examples(400), deadline=None)
@given(SEEDS)
def test_the_order_of_units_orders_and_bids_does_not_matter(seed: int) -> None:
    """The units' order on the board and the order in which powers' orders and
    bids arrive change nothing (the guess algorithm and the paradox rules look
    at every unit, whichever comes first)."""
    drawn = draw(seed)
    rng = random.Random(seed)
    units = list(drawn.state.units)
    rng.shuffle(units)
    state = drawn.state.evolve(units=tuple(units))
    orders = dict(rng.sample(list(drawn.orders.items()), len(drawn.orders)))
    bids = dict(rng.sample(list(drawn.bids.items()), len(drawn.bids)))
    first, second = drawn.resolution, adjudicate(MAP, state, orders, bids)
    assert sorted(map(repr, _normal(second.results))) == \
        sorted(map(repr, _normal(first.results)))
    assert set(second.next.units) == set(first.next.units)
    assert set(second.next.dislodged) == set(first.next.dislodged)
    assert second.next.contested == first.next.contested
    assert second.next.phase == first.next.phase
    assert second.next.owners == first.next.owners
    assert Counter(second.facts("violations")) == Counter(first.facts("violations"))
    assert Counter(second.facts("bids")) == Counter(first.facts("bids"))


