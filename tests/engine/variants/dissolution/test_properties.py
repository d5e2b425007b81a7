"""Properties of Dissolution's movement phases that hold for any position,
any orders and any bids.

Random phases are drawn from the opening position (some units removed or
moved, some Favor and centres changed, now and then a player in exile),
with orders for the players' units that mostly fit together (moves,
sorties of wings, supports of the moves drawn, convoys along explicit
paths of fleets and wings) plus some nonsense, and with bids from random
bidders on the neutral units' orders. The board, the bids and the
violations are then checked against the rules (§ numbers are those of
/work/shared/rules/dissolution-v2.1-full-rules.txt), each from the results
rather than from the engine's internals where possible.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bids import Bid, BidResult
from engine.game import Resolution, adjudicate
from engine.legality import check_movement
from engine.map import Terrain, UnitKind, province_of
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from engine.outcomes import OrderResult, Outcome, Why
from engine.phase import Phase, PhaseKind, Season
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.dissolution.neutral import budget
from engine.variants.dissolution.violations import DISABLED, FROM_TERRITORY, NO_PERMISSION
from tests.engine.test_properties import random_orders as standard_random_orders

MAP = load_variant("dissolution")
RULES = rules_for(MAP)
PLAYED = sorted(n for n, p in MAP.powers.items() if not p.ordered_by_bids)
NUCLEAR = sorted(n for n, p in MAP.powers.items() if p.is_nuclear)
NEUTRAL = sorted(n for n, p in MAP.powers.items() if p.ordered_by_bids)
OIL = frozenset(p.code for p in MAP.provinces.values()
                if p.centre is not None and "oil" in p.centre.flags)
MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
REPLACED = "another order for this unit replaces it"  # engine.order_sets' void reason


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def _stationary(unit: Unit) -> bool:
    """§3.7: wings, and every neutral unit but the US Navy's fleets."""
    return unit.kind is UnitKind.WING or MAP.powers[unit.power].stationary


def _invulnerable(unit: Unit) -> bool:
    """§3.8: every nuclear power's unit."""
    return MAP.powers[unit.power].is_nuclear


def _target(order: Order) -> str | None:
    """The province an order attacks or helps to attack."""
    if isinstance(order, (Move, SupportMove, Convoy)):
        return province_of(order.dest)
    return None


# -- drawing a position ------------------------------------------------------------


def _locations(kind: UnitKind) -> list[str]:
    return sorted(loc for prov in MAP.provinces for loc in MAP.locations_of(prov)
                  if MAP.can_stand(kind, loc))


STANDING = {kind: _locations(kind) for kind in MAP.kinds}
TERRITORY = sorted({p for n in NUCLEAR for p in MAP.powers[n].territory})


def _near(province: str, radius: int) -> set[str]:
    seen = {province}
    frontier = {province}
    for _ in range(radius):
        frontier = {q for p in frontier for q in MAP.province_graph[p]} - seen
        seen |= frontier
    return seen


def _place(rng: random.Random, unit: Unit, occupied: set[str],
           provinces: set[str] | None) -> Unit:
    """The unit moved to a free location among ``provinces`` (anywhere if None)."""
    options = [loc for loc in STANDING[unit.kind] if province_of(loc) not in occupied
               and (provinces is None or province_of(loc) in provinces)]
    if unit.power == "US_NAVY":
        options = [o for o in options if province_of(o) not in MAP.powers["US_NAVY"].barred]
    if not options:
        return unit
    return Unit(unit.power, unit.kind, rng.choice(options))


def random_position(rng: random.Random) -> GameState:
    state = GameState.initial(MAP)
    season = rng.choice([Season.SPRING, Season.FALL])
    state = state.evolve(phase=Phase(1992 + rng.randrange(3), season, PhaseKind.MOVEMENT))
    removal = rng.choice([0.0, 0.1, 0.3])
    units = [u for u in state.units
             if MAP.powers[u.power].is_nuclear or rng.random() >= removal]
    occupied = {u.province for u in units}
    out: list[Unit] = []
    shuffle = rng.choice([0.0, 0.2, 0.5])
    wings = rng.choice([0.0, 0.05, 0.2])
    for unit in units:
        power = MAP.powers[unit.power]
        movable = not power.ordered_by_bids or unit.power == "US_NAVY"
        if movable and unit.kind is not UnitKind.WING and rng.random() < shuffle:
            occupied.discard(unit.province)
            where = rng.random()
            if where < 0.15 and not power.ordered_by_bids:
                unit = _place(rng, unit, occupied, set(TERRITORY))
            elif where < 0.2:
                unit = _place(rng, unit, occupied, None)
            else:
                unit = _place(rng, unit, occupied, _near(unit.province, 2))
            occupied.add(unit.province)
        if not power.ordered_by_bids and unit.kind is UnitKind.ARMY and rng.random() < wings:
            unit = Unit(unit.power, UnitKind.WING, unit.location)  # a player's wing
        out.append(unit)
    rng.shuffle(out)
    favor = list(state.favor)
    if rng.random() < 0.6:
        favor = [(p, n, rng.choice([0, 0, 1, 2, 3]) if rng.random() < 0.3 else v)
                 for p, n, v in favor]
    owners = dict(state.owners)
    if rng.random() < 0.5:
        for centre in sorted(owners):
            if rng.random() < 0.1:
                owners[centre] = rng.choice(PLAYED)
    exiles: frozenset[str] = frozenset()
    silenced: frozenset[str] = frozenset()
    if rng.random() < 0.15:
        exiles = frozenset(rng.sample(PLAYED, rng.randint(1, 2)))
        if rng.random() < 0.5:
            silenced = frozenset([min(exiles)])
    return state.evolve(units=tuple(out), favor=tuple(sorted(favor)),
                        owners=tuple(sorted(owners.items())), exiles=exiles,
                        silenced=silenced)


# -- drawing orders and bids ---------------------------------------------------------


def _linked(a: Unit, b: Unit) -> bool:
    """§3.3: a wing reaches every other wing for convoys."""
    if a.kind is UnitKind.WING and b.kind is UnitKind.WING:
        return True
    return (MAP.reaches_province(a.kind, a.location, b.province)
            or MAP.reaches_province(b.kind, b.location, a.province))


def _carrier(unit: Unit) -> bool:
    return MAP.provinces[unit.province].terrain in unit.kind.traits.convoys_from


def _convoy_path(rng: random.Random, army: Unit, units: Mapping[str, Unit]
                 ) -> tuple[tuple[str, ...], str] | None:
    """A chain of fleets at sea and wings from the army to some destination."""
    carriers = [u for u in units.values() if _carrier(u) and u.province != army.province]
    first = [c for c in carriers if MAP.reaches_province(c.kind, c.location, army.province)]
    if not first:
        return None
    path = [rng.choice(first)]
    while rng.random() < 0.25:
        nxt = [c for c in carriers if c not in path and _linked(path[-1], c)]
        if not nxt:
            break
        path.append(rng.choice(nxt))
    last = path[-1]
    on_path = {c.province for c in path} | {army.province}
    dests = [p for p in MAP.province_neighbours(last.kind, last.location)
             if MAP.can_stand(UnitKind.ARMY, p) and p not in on_path]
    if last.kind is UnitKind.WING:
        dests += [c.province for c in carriers
                  if c.kind is UnitKind.WING and c.province not in on_path]
    if not dests:
        return None
    held = [d for d in dests if d in units]  # aim at units: criss-crosses, paradoxes
    if held and rng.random() < 0.6:
        return tuple(c.province for c in path), rng.choice(sorted(held))
    return tuple(c.province for c in path), rng.choice(sorted(dests))


def _nonsense(rng: random.Random, unit: Unit, units: Mapping[str, Unit]) -> Order:
    provinces = sorted(MAP.provinces)
    other = units[rng.choice(sorted(units))]
    me = _ref(unit)
    choice = rng.randrange(10)
    if choice == 0:
        return Move(me, rng.choice(provinces))
    if choice == 1:
        return Move(me, rng.choice(provinces),
                    path=tuple(rng.sample(provinces, rng.randint(1, 3))))
    if choice == 2:
        return Move(me, rng.choice(provinces), via_convoy=True)
    if choice == 3:
        return SupportMove(me, _ref(other), rng.choice(provinces))
    if choice == 4:
        return Convoy(me, _ref(other), rng.choice(provinces))
    if choice == 5:
        return SupportHold(me, UnitRef(rng.choice(provinces)))
    if choice == 6:
        return Move(me, unit.province)
    if choice == 7:
        return Hold(UnitRef(unit.province, rng.choice(list(UnitKind))))
    if choice == 8:
        return Retreat(me, rng.choice(provinces))
    return Move(UnitRef(rng.choice(provinces)), rng.choice(provinces))


def _criss_cross(rng: random.Random, units: Mapping[str, Unit], plan: dict[str, Order],
                 sponsor: dict[str, str]) -> None:
    """§3.11.1: two armies convoyed by wings onto each other's wing."""
    wings = [u for u in units.values() if u.kind is UnitKind.WING and u.province not in plan]
    carried = {w.province: [a for a in units.values() if a.kind is UnitKind.ARMY
                            and a.province not in plan and a.power in PLAYED
                            and a.province in MAP.province_neighbours(w.kind, w.location)]
               for w in wings}
    pairs = [(w1, w2) for w1 in wings for w2 in wings
             if w1.province < w2.province and carried[w1.province] and carried[w2.province]]
    if not pairs:
        return
    w1, w2 = rng.choice(pairs)
    a1 = rng.choice(carried[w1.province])
    others = [a for a in carried[w2.province] if a != a1]
    if not others:
        return
    a2 = rng.choice(others)
    for army, wing, dest in ((a1, w1, w2.province), (a2, w2, w1.province)):
        plan[army.province] = Move(_ref(army), dest, path=(wing.province,))
        backer = _backer(rng, army)
        sponsor[army.province] = backer
        plan[wing.province] = Convoy(_ref(wing), _ref(army), dest)
        sponsor[wing.province] = backer
    for army, dest in ((a1, w2.province), (a2, w1.province)):
        helpers = [u for u in units.values() if u.province not in plan
                   and MAP.reaches_province(u.kind, u.location, dest)]
        for helper in rng.sample(helpers, min(len(helpers), rng.randint(0, 2))):
            plan[helper.province] = SupportMove(_ref(helper), _ref(army), dest)
            sponsor[helper.province] = sponsor[army.province]


def _paradox(rng: random.Random, units: Mapping[str, Unit], plan: dict[str, Order],
             sponsor: dict[str, str]) -> None:
    """§3.11.2: a convoyed army attacks a unit that supports an attack on one
    of the army's carriers (the army cuts that support only if it arrives)."""
    convoyed = [(p, o) for p, o in plan.items() if isinstance(o, Move) and o.path
                and province_of(o.dest) in units]
    if not convoyed:
        return
    army, move = rng.choice(convoyed)
    assert isinstance(move, Move)
    target = units[province_of(move.dest)]
    carrier = rng.choice(move.path)
    if not MAP.reaches_province(target.kind, target.location, carrier):
        return
    attackers = [u for u in units.values() if u.province not in (army, target.province)
                 and u.province not in move.path and (u.province not in plan or
                                                      isinstance(plan[u.province], Hold))
                 and MAP.reaches_province(u.kind, u.location, carrier)]
    if not attackers:
        return
    attacker = rng.choice(attackers)
    backer = _backer(rng, attacker)
    plan[attacker.province] = Move(_ref(attacker), carrier)
    sponsor[attacker.province] = backer
    plan[target.province] = SupportMove(_ref(target), _ref(attacker), carrier)
    sponsor[target.province] = backer


def _backer(rng: random.Random, unit: Unit) -> str:
    """Who wants this unit's move: its player, or for a neutral unit some player."""
    return unit.power if unit.power in PLAYED else rng.choice(PLAYED)


def random_plan(rng: random.Random, state: GameState
                ) -> tuple[dict[str, Order], dict[str, str]]:
    """An order for every unit, drawn so that supports and convoys often
    match the moves drawn; and for the units whose order serves another's
    move (convoys, supports), the power of the unit moved: its player is
    the one who would bid for a neutral unit's help."""
    units = {u.province: u for u in state.units}
    plan: dict[str, Order] = {}
    sponsor: dict[str, str] = {}
    convoys = rng.choice([0.1, 0.3])
    for prov in sorted(units):
        unit = units[prov]
        rate = convoys if unit.power in PLAYED else convoys / 4
        if unit.kind is UnitKind.ARMY and rng.random() < rate:
            found = _convoy_path(rng, unit, units)
            if found is not None:
                path, dest = found
                plan[prov] = Move(_ref(unit), dest, path=path)
                sponsor[prov] = _backer(rng, unit)
                for carrier in path:
                    if rng.random() < 0.95:
                        plan[carrier] = Convoy(_ref(units[carrier]), _ref(unit), dest)
                        sponsor[carrier] = sponsor[prov]
    if rng.random() < 0.5:
        _criss_cross(rng, units, plan, sponsor)
    for _ in range(rng.choice([0, 1, 2])):
        _paradox(rng, units, plan, sponsor)
    for prov in sorted(units):
        unit = units[prov]
        if prov in plan:
            continue
        roll = rng.random()
        neighbours = sorted(MAP.neighbours(unit.kind, unit.location))
        if roll < 0.05:
            plan[prov] = _nonsense(rng, unit, units)
        elif roll < 0.6 and neighbours:
            plan[prov] = Move(_ref(unit), rng.choice(neighbours))  # a sortie, for a wing
            if unit.power in PLAYED or rng.random() < 0.2:
                sponsor[prov] = _backer(rng, unit)
        else:
            plan[prov] = Hold(_ref(unit))
    moves = [(p, o) for p, o in plan.items() if isinstance(o, Move)]
    for prov in sorted(units):
        unit = units[prov]
        if not isinstance(plan[prov], Hold) or rng.random() < 0.35:
            continue
        reachable = [(p, o) for p, o in moves if p != prov and province_of(o.dest) != prov
                     and MAP.reaches_province(unit.kind, unit.location, province_of(o.dest))]
        holding = [p for p in units if p != prov and not isinstance(plan[p], Move)
                   and MAP.reaches_province(unit.kind, unit.location, p)]
        if reachable and rng.random() < 0.75:
            mover, move = rng.choice(reachable)
            assert isinstance(move, Move)
            plan[prov] = SupportMove(_ref(unit), _ref(units[mover]), province_of(move.dest))
            sponsor[prov] = sponsor.get(mover, units[mover].power)
        elif holding:
            held = rng.choice(holding)
            plan[prov] = SupportHold(_ref(unit), _ref(units[held]))
            sponsor[prov] = units[held].power
    return plan, sponsor


def _neutral_alternative(rng: random.Random, unit: Unit, units: Mapping[str, Unit]) -> Order:
    neighbours = sorted(MAP.neighbours(unit.kind, unit.location))
    roll = rng.random()
    if roll < 0.3 or not neighbours:
        return Hold(_ref(unit))
    if roll < 0.6:
        return Move(_ref(unit), rng.choice(neighbours))
    near = [units[p] for p in sorted(units)
            if p != unit.province and MAP.reaches_province(unit.kind, unit.location, p)]
    if not near:
        return Hold(_ref(unit))
    other = rng.choice(near)
    if roll < 0.75:
        return SupportHold(_ref(unit), _ref(other))
    dests = [p for p in MAP.province_neighbours(other.kind, other.location)
             if p != unit.province and MAP.reaches_province(unit.kind, unit.location, p)]
    if dests:
        return SupportMove(_ref(unit), _ref(other), rng.choice(sorted(dests)))
    return _nonsense(rng, unit, units)


def random_orders_and_bids(rng: random.Random, state: GameState
                           ) -> tuple[dict[str, list[Order]], dict[str, list[Bid]]]:
    units = {u.province: u for u in state.units}
    plan, sponsor = random_plan(rng, state)
    orders: dict[str, list[Order]] = {}
    bids: dict[str, list[Bid]] = {}
    first: dict[str, list[Bid]] = {}  # bids for the bidder's own plans, written first
    bidders = [*PLAYED * 8, "NATO", "NOBODY"]
    bidding = rng.choice([0.2, 0.4, 0.8])
    for prov in sorted(plan):
        unit, order = units[prov], plan[prov]
        if not MAP.powers[unit.power].ordered_by_bids:
            if rng.random() < 0.05:
                continue  # no order: the unit holds
            power = unit.power if rng.random() > 0.02 else rng.choice(PLAYED)
            if rng.random() < 0.05:
                # replaced by the next order
                orders.setdefault(power, []).append(_nonsense(rng, unit, units))
            orders.setdefault(power, []).append(order)
            continue
        backer = sponsor.get(prov)
        if backer is not None and backer in PLAYED and isinstance(order, MOVEMENT_ORDERS) \
                and rng.random() < 0.9:  # the player helped bids for it
            first.setdefault(backer, []).append(Bid(rng.choice([1, 1, 2]), order))
            if rng.random() < 0.7:
                continue
        if rng.random() < bidding and (rng.random() < 0.3 or not isinstance(order, Hold)):
            for _ in range(rng.choice([1, 1, 2])):
                bid_order = order if rng.random() < 0.7 else \
                    _neutral_alternative(rng, unit, units)
                if not isinstance(bid_order, MOVEMENT_ORDERS):
                    continue
                points = rng.choice([1, 1, 1, 2, 2, 3]) if rng.random() > 0.02 else 0
                if rng.random() < 0.3:
                    bid_order = _respelt(bid_order)
                bids.setdefault(rng.choice(bidders), []).append(Bid(points, bid_order))
    for _ in range(rng.randrange(3)):  # bids on players' units and on empty provinces
        unit = units[rng.choice(sorted(units))]
        anywhere = UnitRef(rng.choice(sorted(MAP.provinces)))
        bids.setdefault(rng.choice(PLAYED), []).append(
            Bid(1, rng.choice([Hold(_ref(unit)), Hold(anywhere)])))
    for power_bids in bids.values():
        rng.shuffle(power_bids)
    for power, power_bids in first.items():
        if rng.random() < 0.8:
            bids[power] = power_bids + bids.get(power, [])
        else:
            bids[power] = rng.sample(power_bids + bids.get(power, []),
                                     len(power_bids) + len(bids.get(power, [])))
    keys = list(bids)
    rng.shuffle(keys)
    return orders, {k: bids[k] for k in keys}


def _bare(ref: UnitRef) -> UnitRef:
    return UnitRef(province_of(ref.location))


def _respelt(order: MovementOrder) -> MovementOrder:
    """The same order as a player might write it: units by province only."""
    if isinstance(order, Hold):
        return Hold(_bare(order.unit))
    if isinstance(order, Move):
        return Move(_bare(order.unit), order.dest, order.via_convoy, order.path)
    if isinstance(order, SupportHold):
        return SupportHold(_bare(order.unit), _bare(order.target))
    if isinstance(order, SupportMove):
        return SupportMove(_bare(order.unit), _bare(order.target), order.dest)
    return Convoy(_bare(order.unit), _bare(order.target), order.dest)


def order_key(order: Order) -> tuple[object, ...]:
    """An order by what it does, however it was written."""
    target = getattr(order, "target", None)
    dest = getattr(order, "dest", None)
    unit = getattr(order, "unit", None)
    return (type(order).__name__, unit and province_of(unit.location),
            target and province_of(target.location), dest and province_of(dest),
            getattr(order, "path", ()))


@dataclass(frozen=True)
class Drawn:
    state: GameState
    orders: dict[str, list[Order]]
    bids: dict[str, list[Bid]]
    resolution: Resolution


def draw(seed: int) -> Drawn:
    rng = random.Random(seed)
    state = random_position(rng)
    orders, bids = random_orders_and_bids(rng, state)
    return Drawn(state, orders, bids, adjudicate(MAP, state, orders, bids))


def obeyed(results: Sequence[OrderResult]) -> dict[str, OrderResult]:
    """The result of the order each unit obeyed, by the unit's province
    (illegal, replaced and retaliation results aside)."""
    out: dict[str, OrderResult] = {}
    for result in results:
        if result.outcome is Outcome.ILLEGAL or isinstance(result.order, Disband):
            continue
        if result.outcome is Outcome.VOID and result.reason is not None \
                and result.reason.detail == REPLACED:
            continue
        assert isinstance(result.order, MOVEMENT_ORDERS), result
        prov = province_of(result.order.unit.location)
        assert prov not in out, f"two obeyed orders for {prov}: {out[prov]} and {result}"
        out[prov] = result
    return out


def _moved(result: OrderResult) -> str | None:
    """Where the unit went, if its order was a move that succeeded."""
    order = result.order
    if isinstance(order, Move) and result.outcome is Outcome.SUCCEEDS:
        return province_of(order.dest)
    return None


def _dislodged(results: Mapping[str, OrderResult]) -> dict[str, str]:
    """Province of each dislodged unit -> province of its dislodger: a move
    succeeded into a province whose unit did not move away. (A unit that was
    ordered to move reports its move's failure, not the dislodgement.)"""
    out: dict[str, str] = {}
    for prov, result in results.items():
        dest = _moved(result)
        if dest is not None and dest in results and _moved(results[dest]) is None:
            assert dest not in out, f"{dest} dislodged twice"
            out[dest] = prov
    for prov, result in results.items():
        reason = result.reason
        if reason is not None and reason.why is Why.DISLODGED:
            assert out.get(prov) == reason.units[0], result
    return out


SEEDS = st.integers(min_value=0, max_value=2**32)


@pytest.mark.parametrize(("orders", "bids"), [
    ({}, {"UKRAINE": [Bid(1, Move(UnitRef("SVE"), "NIZ"))]}),
    ({"KAZAKHSTAN": [SupportMove(UnitRef("AKT", UnitKind.ARMY),
                                 UnitRef("SVE", UnitKind.WING), "AKM")]}, {}),
], ids=["bid W Sve - Niz", "A Akt S W Sve - Akm"])
def test_an_inland_wing_may_sortie(orders: dict[str, list[Order]],
                                   bids: dict[str, list[Bid]]) -> None:
    """Found by these properties: a wing with no fleet adjacency raised
    KeyError when ordered to move or when its move was supported (§3.7)."""
    state = GameState.initial(MAP)
    resolution = adjudicate(MAP, state, orders, bids)
    results = obeyed(resolution.results)
    if bids:  # the sortie prevails into empty Nizhny Novgorod, and the wing stays
        sve = results["SVE"]
        assert sve.order == Move(UnitRef("SVE", UnitKind.WING), "NIZ")
        assert sve.reason is not None and sve.reason.why is Why.SORTIE
    else:  # the support is legal; Sverdlovsk holds, so it is void
        assert results["AKT"].outcome is Outcome.VOID
    assert Unit("RUSSIA", UnitKind.WING, "SVE") in resolution.next.units


# -- the board ------------------------------------------------------------------------


def check_board(drawn: Drawn) -> None:
    state, resolution = drawn.state, drawn.resolution
    after = resolution.next
    before = {u.province: u for u in state.units}
    results = obeyed(resolution.results)
    # every unit answered exactly once, as the order it obeyed, by its own power
    assert set(results) == set(before)
    for prov, result in results.items():
        assert result.power == before[prov].power, result
        assert result.outcome is not Outcome.ILLEGAL
        if result.outcome is not Outcome.SUCCEEDS and result.reason is not None:
            assert result.reason.describe()
    dislodged = _dislodged(results)
    retaliated = [r for r in resolution.results if r.reason is not None
                  and r.reason.why is Why.RETALIATION]
    # no two units in one province; each where its kind may stand
    provinces = [u.province for u in after.units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    for unit in after.units:
        assert MAP.can_stand(unit.kind, unit.location), unit
    # units conserved: a dislodged stationary unit disappears without a retreat
    assert len(after.units) + len(dislodged) + len(retaliated) == len(before)
    retreating = {d.unit for d in after.dislodged}
    for d in after.dislodged:
        assert not _stationary(d.unit), f"stationary {d.unit} retreats"
        assert d.unit.province in dislodged
    assert retreating == {before[p] for p in dislodged if not _stationary(before[p])}
    assert (after.phase.kind is PhaseKind.RETREAT) == bool(retreating)
    if retreating:
        assert not retaliated, "retaliation before the retreats"
    occupied = set(provinces)
    gone = {r.order.unit.location for r in retaliated if isinstance(r.order, Disband)}
    for prov, attacker in dislodged.items():  # (the dislodger may meet retaliation)
        assert prov in occupied or prov in gone, "dislodged but nobody moved in"
        move = results[attacker]
        assert isinstance(move.order, Move) and province_of(move.order.dest) == prov
        assert move.outcome is Outcome.SUCCEEDS, move
    # where each unit went
    for prov, result in results.items():
        unit, order = before[prov], result.order
        if prov in dislodged:
            continue
        if isinstance(order, Move) and result.outcome is Outcome.SUCCEEDS:
            assert not _stationary(unit), f"stationary {unit} moved: {order}"
            moved = Unit(unit.power, unit.kind, order.dest)
        else:
            moved = unit
        assert moved in after.units or moved.location in gone, (moved, result)
    # §3.10: an army convoyed along its path only when every unit named convoyed it,
    # and none of them was dislodged or disabled (§3.9)
    for prov, result in results.items():
        order = result.order
        if not (isinstance(order, Move) and order.path and result.outcome is Outcome.SUCCEEDS):
            continue
        for carrier in order.path:
            carried = results[carrier]
            assert carried.order == Convoy(_ref(before[carrier]), _ref(before[prov]),
                                           province_of(order.dest)), (result, carried)
            assert carrier not in dislodged and carried.outcome is Outcome.SUCCEEDS, \
                (result, carried)
    # §3.11.1: a criss-cross is two convoyed attacks on each other's carriers; the
    # weaker one, or both when equal, fail
    for result in results.values():
        reason = result.reason
        if reason is None or reason.why is not Why.CRISS_CROSS:
            continue
        mine, rival = result.order, results[reason.units[0]]
        theirs = rival.order
        assert isinstance(mine, Move) and isinstance(theirs, Move), (result, rival)
        assert province_of(mine.dest) in theirs.path and province_of(theirs.dest) in mine.path
        assert reason.strength is not None and reason.against is not None
        assert reason.strength <= reason.against, result
        if reason.strength == reason.against:
            assert rival.outcome is not Outcome.SUCCEEDS, (result, rival)
            assert rival.reason is not None and rival.reason.why is Why.CRISS_CROSS, rival
    # §3.9: a disabling attack voids the defender's support or convoy; a power's
    # own units never disable one another
    for prov, result in results.items():
        reason = result.reason
        if not (isinstance(result.order, Move) and reason is not None
                and reason.why in (Why.SORTIE, Why.DISABLES) and reason.units):
            continue
        victim = reason.units[0]
        assert before[victim].power != before[prov].power, f"own unit disabled: {result}"
        assert victim not in dislodged
        if isinstance(results[victim].order, (SupportHold, SupportMove, Convoy)):
            assert results[victim].outcome is not Outcome.SUCCEEDS, (result, results[victim])
    # §3.7: a sortie (or a standoff) into an empty province leaves it contested (kept
    # for the retreats, when there are any)
    for result in results.values() if after.dislodged else ():
        reason = result.reason
        if isinstance(result.order, Move) and reason is not None \
                and reason.why in (Why.SORTIE, Why.BOUNCED):
            dest = province_of(result.order.dest)
            if dest not in before:
                assert dest in occupied or dest in after.contested, result
    # stationary units never change province; invulnerable ones are never dislodged
    before_units = set(before.values())
    for unit in after.units:
        if _stationary(unit):
            assert unit in before_units, f"{unit} arrived: it is stationary (§3.7)"
    for prov, unit in before.items():
        if _invulnerable(unit):
            assert prov not in dislodged, f"invulnerable {unit} dislodged (§3.8)"
    invulnerable_count = Counter((u.power, u.kind) for u in before.values() if _invulnerable(u))
    assert invulnerable_count == Counter(
        (u.power, u.kind) for u in after.units if _invulnerable(u))
    for unit in after.units:
        assert unit.province not in MAP.powers[unit.power].barred, unit
    # retreats: never into occupied, contested, zero-Favor territory (§11.4.2), nor back
    # at the attacker unless it came by convoy
    for d in after.dislodged:
        barred = {p for n in NUCLEAR if state.favor_of(d.unit.power, n) == 0
                  for p in MAP.powers[n].territory}
        for loc in d.retreats:
            prov = province_of(loc)
            assert prov not in occupied and prov not in after.contested
            assert prov not in barred, f"{d.unit} may retreat into {prov} at zero Favor"
            assert d.by_convoy or prov != d.attacker
            assert MAP.adjacent(d.unit.kind, d.unit.location, loc)


def check_end_of_season(before: GameState, resolution: Resolution) -> None:
    """After a season's movement and retreats (§2.1.4-§2.1.5, §4.6, §11.4.2)."""
    after = resolution.next
    assert after.phase.kind is not PhaseKind.RETREAT
    assert not after.dislodged
    retaliated = [r.order for r in resolution.results
                  if r.reason is not None and r.reason.why is Why.RETALIATION]
    for order in retaliated:
        assert isinstance(order, Disband)
    for unit in after.units:
        if unit.power in PLAYED:
            for n in NUCLEAR:
                if unit.province in MAP.powers[n].territory:
                    assert before.favor_of(unit.power, n) > 0, \
                        f"{unit} survives in {n}'s territory at zero Favor (§11.4.2)"
    if before.phase.season is Season.SPRING:
        assert after.phase == Phase(before.phase.year, Season.FALL, PhaseKind.MOVEMENT)
        assert after.owners == before.owners
        return
    assert after.phase == Phase(before.phase.year, Season.WINTER, PhaseKind.ADJUSTMENT)
    owner, old = after.owner_of, before.owner_of
    on_board = {u.province: u for u in after.units}
    for centre in MAP.supply_centres:
        holder = on_board.get(centre)
        if holder is None:
            assert owner.get(centre) == old.get(centre)
        elif holder.power == "US_NAVY":  # §4.6: the US Navy never captures
            assert owner.get(centre) == old.get(centre), centre
        else:
            assert owner.get(centre) == holder.power, centre
    owning = {p for _, p in after.owners}
    for power in PLAYED:
        if power not in owning:
            assert power in after.exiles, f"{power} owns nothing and is not in exile"


def _random_retreats(rng: random.Random, state: GameState) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for d in state.dislodged:
        choices: list[Order] = [Disband(_ref(d.unit))]
        choices += [Retreat(_ref(d.unit), r) for r in d.retreats]
        choices += [Retreat(_ref(d.unit), loc)
                    for loc in sorted(MAP.neighbours(d.unit.kind, d.unit.location))]
        orders.setdefault(d.unit.power, []).append(rng.choice(choices))
    return orders


@settings(max_examples=1000, deadline=None)
@given(SEEDS)
def test_movement_keeps_the_board_sound(seed: int) -> None:
    drawn = draw(seed)
    check_board(drawn)
    resolution = drawn.resolution
    if resolution.next.phase.kind is PhaseKind.RETREAT:
        retreats = _random_retreats(random.Random(seed), resolution.next)
        resolution = adjudicate(MAP, resolution.next, retreats)
        for unit in resolution.next.units:  # a retreat goes where it was offered
            if unit not in drawn.resolution.next.units:
                assert any(d.unit.power == unit.power and d.unit.kind is unit.kind
                           and unit.location in d.retreats
                           for d in drawn.resolution.next.dislodged), unit
    check_end_of_season(drawn.state, resolution)


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
    if power in state.exiles:
        return 1
    units = len(state.units_of(power))
    oil = any(state.owner_of.get(c) == power for c in OIL)
    return max(1, min(units, 4) + oil)


def check_bids(drawn: Drawn) -> None:
    state, resolution = drawn.state, drawn.resolution
    units = {u.province: u for u in state.units}
    results = obeyed(resolution.results)
    board = RULES.board(RULES.map_for(MAP, state), state, units)
    assert len(resolution.bids) == sum(len(b) for b in drawn.bids.values())
    assert Counter((r.bidder, r.bid) for r in resolution.bids) == Counter(
        (bidder, bid) for bidder, bids in drawn.bids.items() for bid in bids)
    counted = [r for r in resolution.bids if r.counted]
    spent: Counter[str] = Counter()
    on_nuclear: Counter[tuple[str, str]] = Counter()
    per_unit: dict[str, list[BidResult]] = {}
    for r in counted:
        assert r.bidder in PLAYED and r.bidder not in state.silenced, r
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
        assert points <= state.favor_of(bidder, nuclear), (bidder, nuclear, points)
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
                assert state.favor_of(attacker.power, unit.power) > \
                    state.favor_of(defender, unit.power), f"prejudice broken (§9.3): {r}"
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
    board = RULES.board(RULES.map_for(MAP, state), state, units)
    spent: Counter[str] = Counter()
    capped: Counter[tuple[str, str]] = Counter()
    for r in resolution.bids:  # in the order written, bidder by bidder
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
                state.favor_of(r.bidder, nuclear), r
        elif why.endswith("may not bid"):
            assert r.bidder not in PLAYED or r.bidder in state.silenced, r
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
                assert state.favor_of(attacker.power, nuclear) <= \
                    state.favor_of(defender, nuclear), r
            elif why.startswith("deception"):  # §9.1
                assert MAP.powers[unit.power].stationary, r
                assert any(units[p].power == r.bidder and (aimed := _target(res.order))
                           and aimed in units and units[aimed].power == unit.power
                           for p, res in results.items()), r
            else:
                raise AssertionError(f"a bid ignored for an unknown reason: {r}")


@settings(max_examples=800, deadline=None)
@given(SEEDS)
def test_bids_are_counted_within_the_rules(seed: int) -> None:
    check_bids(draw(seed))


@settings(max_examples=600, deadline=None)
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
    granting = {n: {n} | {p for p, power in MAP.powers.items() if power.partner == n}
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
    violations = drawn.resolution.violations
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


@settings(max_examples=1000, deadline=None)
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


@settings(max_examples=200, deadline=None)
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
    assert reordered.violations == drawn.resolution.violations
    assert Counter(reordered.bids) == Counter(drawn.resolution.bids)


@settings(max_examples=400, deadline=None)
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
    assert Counter(second.violations) == Counter(first.violations)
    assert Counter(second.bids) == Counter(first.bids)


# -- whole games ---------------------------------------------------------------------------


def _random_adjustments(rng: random.Random, state: GameState) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    occupied = {u.province for u in state.units}
    for power in PLAYED:
        mine = state.units_of(power)
        for centre in state.centres_of(power):
            if centre not in occupied and rng.random() < 0.5:
                kind = rng.choice([UnitKind.ARMY, UnitKind.FLEET, UnitKind.WING])
                loc = centre
                if kind is UnitKind.FLEET and MAP.provinces[centre].coasts:
                    loc = f"{centre}/{rng.choice(MAP.provinces[centre].coasts)}"
                orders.setdefault(power, []).append(Build(loc, kind))
        if mine and rng.random() < 0.3:
            orders.setdefault(power, []).append(Remove(_ref(rng.choice(mine))))
        if rng.random() < 0.2:
            orders.setdefault(power, []).append(Waive())
    return orders


def _effective_vp(state: GameState, power: str) -> int:
    """§1.4, §4.6: the values of the power's centres the US Navy does not occupy."""
    navy = {u.province for u in state.units if u.power == "US_NAVY"}
    total = 0
    for centre in state.centres_of(power):
        info = MAP.provinces[centre].centre
        if centre not in navy and info is not None:
            total += info.value
    return total


def check_adjustments(before: GameState, after: GameState) -> None:
    """Winter (§4.2-§4.5): half the effective points rounded up; a wing only
    from 12 points and one at a time; minors rebuild, nuclear powers never."""
    assert not after.dislodged
    assert after.phase == Phase(before.phase.year + 1, Season.SPRING, PhaseKind.MOVEMENT)
    for power in PLAYED:
        vp = _effective_vp(before, power)
        mine = after.units_of(power)
        assert len(mine) <= (vp + 1) // 2, (power, vp, mine)  # removals, or civil disorder
        new_wings = [u for u in mine if u.kind is UnitKind.WING and u not in before.units]
        if new_wings:
            assert vp >= 12, f"{power} built a wing with {vp} points"
            assert sum(u.kind is UnitKind.WING for u in mine) == 1, power
    kept = [u for u in before.units if MAP.powers[u.power].is_nuclear]
    assert sorted(map(str, kept)) == sorted(
        str(u) for u in after.units if MAP.powers[u.power].is_nuclear)
    occupied = {u.province for u in before.units}
    owner = before.owner_of
    for name in NEUTRAL:
        if MAP.powers[name].is_nuclear:
            continue
        for centre in MAP.powers[name].home:  # §4.5
            if centre not in occupied and owner.get(centre, name) == name:
                assert Unit(name, UnitKind.ARMY, centre) in after.units, (name, centre)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_random_games_keep_the_board_sound(seed: int) -> None:
    """Two years of random play: every movement phase keeps the rules above."""
    rng = random.Random(seed)
    state = GameState.initial(MAP)
    for _ in range(9):
        kind = state.phase.kind
        if kind is PhaseKind.MOVEMENT:
            orders, bids = random_orders_and_bids(rng, state)
            drawn = Drawn(state, orders, bids, adjudicate(MAP, state, orders, bids))
            check_board(drawn)
            check_bids(drawn)
            check_ignored(drawn)
            check_violations(drawn)
            resolution = drawn.resolution
        elif kind is PhaseKind.RETREAT:
            resolution = adjudicate(MAP, state, _random_retreats(rng, state))
        else:
            resolution = adjudicate(MAP, state, _random_adjustments(rng, state))
            check_adjustments(state, resolution.next)
        for result in resolution.results:
            if result.outcome is not Outcome.SUCCEEDS and result.reason is not None:
                assert result.reason.describe()
        if resolution.winner:
            break
        state = resolution.next


# -- the standard game -------------------------------------------------------------------------


STANDARD = load_variant("standard")


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_standard_game_ignores_bids_and_has_no_violations(seed: int) -> None:
    """The hooks Dissolution added change nothing in the standard game: bids
    are not asked for, units are neither stationary nor invulnerable, and no
    violations are found."""
    rng = random.Random(seed)
    state = GameState.initial(STANDARD)
    for _ in range(6):
        orders = standard_random_orders(rng, state)
        bids = {power: [Bid(rng.randint(1, 3), o) for o in power_orders
                        if isinstance(o, MOVEMENT_ORDERS)]
                for power, power_orders in orders.items()}
        plain = adjudicate(STANDARD, state, orders)
        with_bids = adjudicate(STANDARD, state, orders, bids)
        assert with_bids == plain
        assert plain.bids == () and plain.violations == ()
        if state.phase.kind is PhaseKind.MOVEMENT:
            before = len(state.units)
            assert len(plain.next.units) + len(plain.next.dislodged) == before
        if plain.winner:
            break
        state = plain.next
