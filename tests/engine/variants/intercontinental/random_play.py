"""Random Intercontinental games on the provisional board, for the
random-play test and bench/intercontinental.py: the colour groups drawn
from a seed (§3), then each phase random legal orders for every major
power's units, random Diplomacy Point bids for the minors' and affiliates'
units (some over the 2 DP cap or the pool, some void by the Attacking &
Allocating rule, some for units that are not there), retreats, and Winter
builds that often name an additional home centre (§9.1).

The orders are drawn on the map in force (the split Suez before the canal
opens, the canal after), as a player sees it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.adjustments import adjustment_due
from engine.bids import Bid
from engine.map import GameMap, UnitKind, province_of
from engine.orders import (
    Build,
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
)
from engine.phase import PhaseKind
from engine.state import GameState, Seat
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental import assignment, suez

MAP = load_variant("intercontinental")
RULES = rules_for(MAP)
SUEZ = suez.canal(MAP).province
MAJORS = frozenset(n for n, p in MAP.powers.items() if not p.ordered_by_bids)


def ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def opening(seed: int) -> GameState:
    """Spring 1865 with the colour groups of the seed's §3 draw as seats."""
    seats = assignment.seats(MAP, assignment.draw(seed))
    return GameState.initial(MAP).evolve(
        seats=tuple(Seat(group, powers) for group, powers in seats))


@dataclass(frozen=True)
class Turn:
    """One phase's orders and bids (bids keyed by a power of the seat)."""

    orders: dict[str, list[Order]]
    bids: dict[str, list[Bid]]


def _order_for(rng: random.Random, phase_map: GameMap, unit: Unit,
               units: Mapping[str, Unit], moves: Mapping[str, str]) -> MovementOrder:
    """A legal order for the unit: a move to a neighbour, a support of a
    neighbour's hold or of a move already drawn that it can reach, or a hold."""
    roll = rng.random()
    neighbours = sorted(phase_map.neighbours(unit.kind, unit.location))
    if roll < 0.55 and neighbours:
        # fleets seek Suez, so that games reach the canal's opening with a
        # fleet on a coast of it (§5.2)
        suez = [n for n in neighbours if province_of(n) == SUEZ]
        return Move(ref(unit), rng.choice(suez if suez and roll < 0.4 else neighbours))
    if roll < 0.85:
        reachable = [(p, d) for p, d in moves.items() if p != unit.province
                     and d != unit.province
                     and phase_map.reaches_province(unit.kind, unit.location, d)]
        if reachable:
            mover, dest = rng.choice(sorted(reachable))
            return SupportMove(ref(unit), ref(units[mover]), dest)
        near = [p for p in sorted(units) if p != unit.province
                and phase_map.reaches_province(unit.kind, unit.location, p)]
        if near:
            return SupportHold(ref(unit), ref(units[rng.choice(near)]))
    return Hold(ref(unit))


def movement(rng: random.Random, state: GameState) -> Turn:
    phase_map = RULES.map_for(MAP, state)
    units = {u.province: u for u in state.units}
    moves: dict[str, str] = {}
    orders: dict[str, list[Order]] = {}
    for prov in sorted(units):
        unit = units[prov]
        if unit.power not in MAJORS or rng.random() < 0.03:
            continue  # no order: the unit holds
        order = _order_for(rng, phase_map, unit, units, moves)
        if isinstance(order, Move):
            moves[prov] = province_of(order.dest)
        orders.setdefault(unit.power, []).append(order)
    return Turn(orders, _bids(rng, phase_map, state, units, moves))


def _bids(rng: random.Random, phase_map: GameMap, state: GameState,
          units: Mapping[str, Unit], moves: Mapping[str, str]) -> dict[str, list[Bid]]:
    """Each seat bids about its pool on neutral units' orders: supports of
    its moves, attacks, holds; now and then 3 DP on one order (over §11.3's
    cap), more than the pool (§11.1), or a unit that is not there."""
    neutral = sorted(p for p, u in units.items() if u.power not in MAJORS)
    out: dict[str, list[Bid]] = {}
    for seat in state.seats:
        if not any(u.power in seat.powers for u in state.units):
            continue
        wanted = rng.choice([0.5, 1.0, 1.0, 1.5])  # share of the pool bid
        budget = max(1, round(wanted * sum(
            min(3, len(state.centres_of(p))) for p in seat.powers)))
        # the judge files a seat's bids under its first power; now and then
        # another power of the seat bids too, from the same pool (§11.1)
        split = rng.random() < 0.3
        while budget > 0 and neutral:
            unit = units[rng.choice(neutral)]
            order = _order_for(rng, phase_map, unit, units, moves)
            points = min(budget, rng.choice([1, 1, 2, 2, 3]))
            if rng.random() < 0.02:
                order = Hold(UnitRef(rng.choice(sorted(phase_map.provinces))))
            bidder = rng.choice(seat.powers) if split else seat.powers[0]
            out.setdefault(bidder, []).append(Bid(points, order))
            budget -= points
    return out


def retreats(rng: random.Random, state: GameState) -> Turn:
    orders: dict[str, list[Order]] = {}
    for d in state.dislodged:
        if d.retreats and rng.random() < 0.85:
            order: Order = Retreat(ref(d.unit), rng.choice(sorted(d.retreats)))
        else:
            order = Disband(ref(d.unit))
        orders.setdefault(d.unit.power, []).append(order)
    return Turn(orders, {})


def winter(rng: random.Random, state: GameState) -> Turn:
    """Builds, first in centres that would name an additional home (half
    the time), or removals; now and then a second naming build, which the
    engine refuses (§9.1: one additional home, ever)."""
    phase_map = RULES.map_for(MAP, state)
    occupied = {u.province for u in state.units}
    owners = state.owner_of
    orders: dict[str, list[Order]] = {}
    for power in sorted(MAJORS):
        due = adjustment_due(phase_map, state, power)
        if due < 0:
            units = sorted(state.units_of(power), key=lambda u: u.province)
            for unit in rng.sample(units, min(-due, len(units))):
                orders.setdefault(power, []).append(Remove(ref(unit)))
            continue
        sites = sorted(c for c in RULES.build_sites(phase_map, state, power)
                       if owners.get(c) == power and c not in occupied)
        rng.shuffle(sites)
        home = set(phase_map.powers[power].home)
        if rng.random() < 0.5:
            sites.sort(key=lambda c: c in home)  # the candidates first
        builds = sites[:due + (1 if rng.random() < 0.1 else 0)]
        # now and then a build in an owned centre that is no build site (a
        # captured home of another major's, §9.1 rule 3): refused
        others = sorted(c for c in owners if owners[c] == power and c not in occupied
                        and c not in sites)
        if due > 0 and others and rng.random() < 0.3:
            builds.insert(0, rng.choice(others))
        for centre in builds:
            fleet = phase_map.is_coastal(centre) and not phase_map.provinces[centre].coasts
            kind = UnitKind.FLEET if fleet and rng.random() < 0.4 else UnitKind.ARMY
            orders.setdefault(power, []).append(Build(centre, kind))
    return Turn(orders, {})


def turn(rng: random.Random, state: GameState) -> Turn:
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        return movement(rng, state)
    if kind is PhaseKind.RETREAT:
        return retreats(rng, state)
    return winter(rng, state)
