"""Random Dissolution phases for the property tests: positions drawn from
the opening, orders for player units (with wing convoys, criss-crosses and
paradoxes), bids on neutral units, and what the results say happened.

A phase starts from the opening position with some units removed or
moved, some Favor and centres changed, now and then a player in exile.
The players' orders mostly fit together (moves, sorties of wings, supports
of the moves drawn, convoys along explicit paths of fleets and wings),
with some nonsense among them; random bidders bid on the neutral units'
orders.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from engine.bids import Bid
from engine.game import Resolution, adjudicate
from engine.map import UnitKind, province_of
from engine.orders import (
    Convoy,
    Disband,
    Hold,
    Move,
    MovementOrder,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
)
from engine.outcomes import OrderResult, Outcome, Why
from engine.phase import Phase, PhaseKind, Season
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.dissolution.state import DissolutionState

MAP = load_variant("dissolution")
RULES = rules_for(MAP)
PLAYED = sorted(n for n, p in MAP.powers.items() if not p.ordered_by_bids)
# the variant file's own facts, read here apart from the rules module that uses them
FAVOR_TABLE = MAP.tables["favor"]
NUCLEAR = sorted(FAVOR_TABLE["slices"].values())
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
    return unit.power in NUCLEAR


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
             if u.power in NUCLEAR or rng.random() >= removal]
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
    favor = sorted((p, nuclear, value) for p, values in FAVOR_TABLE["start"].items()
                   for nuclear, value in values.items())  # the starting values
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
    return state.evolve(units=tuple(out), owners=tuple(sorted(owners.items()))).with_part(
        DissolutionState(favor=tuple(sorted(favor)), exiles=exiles, silenced=silenced))


# -- drawing orders and bids ---------------------------------------------------------


def _linked(a: Unit, b: Unit) -> bool:
    """§3.3: a wing reaches every other wing for convoys."""
    if a.kind is UnitKind.WING and b.kind is UnitKind.WING:
        return True
    return (MAP.reaches_province(a.kind, a.location, b.province)
            or MAP.reaches_province(b.kind, b.location, a.province))


def _carrier(unit: Unit) -> bool:
    return MAP.provinces[unit.province].terrain in MAP.traits(unit.kind).convoys_from


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


