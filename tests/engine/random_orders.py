"""Random orders for random games on any map: mostly sensible, with some
nonsense mixed in (tests/engine/test_properties.py, the variant walk in
tests/judge/test_variant_walk.py, bench/deadlines.py)."""

from __future__ import annotations

import random

from engine.adjustments import adjustment_due
from engine.map import GameMap, UnitKind, province_of
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from engine.phase import PhaseKind
from engine.state import GameState
from engine.units import Unit


def _ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


def random_movement_order(rng: random.Random, game_map: GameMap, state: GameState,
                          unit: Unit) -> Order:
    """Mostly sensible orders, with some nonsense mixed in."""
    neighbours = sorted(game_map.neighbours(unit.kind, unit.location))
    others = [u for u in state.units if u is not unit]
    roll = rng.random()
    if roll < 0.1:
        return Hold(_ref(unit))
    if roll < 0.55 and neighbours:
        return Move(_ref(unit), rng.choice(neighbours), via_convoy=rng.random() < 0.05)
    if roll < 0.65 and unit.kind is UnitKind.ARMY:
        coastal = [p for p in game_map.provinces if game_map.is_coastal(p)]
        if coastal:  # a map may have no coast (pure)
            return Move(_ref(unit), rng.choice(coastal))  # maybe by convoy, maybe nonsense
    if roll < 0.8 and others:
        friend = rng.choice(others)
        near = sorted(game_map.neighbours(friend.kind, friend.location))
        if near and rng.random() < 0.6:
            return SupportMove(_ref(unit), _ref(friend), province_of(rng.choice(near)))
        return SupportHold(_ref(unit), _ref(friend))
    if unit.kind is UnitKind.FLEET and game_map.is_water(unit.province):
        armies = [u for u in others if u.kind is UnitKind.ARMY]
        if armies:
            army = rng.choice(armies)
            coastal = [p for p in game_map.provinces if game_map.is_coastal(p)]
            return Convoy(_ref(unit), _ref(army), rng.choice(coastal))
    return Hold(_ref(unit))


def random_orders(rng: random.Random, game_map: GameMap, state: GameState
                  ) -> dict[str, list[Order]]:
    """Orders for every phase kind on ``game_map`` (the board in force),
    builds in home centres, some nonsense mixed in."""
    orders: dict[str, list[Order]] = {}
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        for unit in state.units:
            if rng.random() < 0.95:
                orders.setdefault(unit.power, []).append(
                    random_movement_order(rng, game_map, state, unit))
    elif kind is PhaseKind.RETREAT:
        for d in state.dislodged:
            choices: list[Order] = [Disband(_ref(d.unit))]
            choices += [Retreat(_ref(d.unit), r) for r in d.retreats]
            choices.append(Retreat(_ref(d.unit), d.attacker))  # illegal
            orders.setdefault(d.unit.power, []).append(rng.choice(choices))
    else:
        for power in game_map.powers:
            due = adjustment_due(game_map, state, power)
            if due > 0:
                for home in game_map.powers[power].home:
                    kind_ = rng.choice([UnitKind.ARMY, UnitKind.FLEET])
                    loc = home
                    if kind_ is UnitKind.FLEET and game_map.provinces[home].coasts:
                        loc = f"{home}/{rng.choice(game_map.provinces[home].coasts)}"
                    orders.setdefault(power, []).append(Build(loc, kind_))
                orders.setdefault(power, []).append(Waive())
            elif due < 0 and rng.random() < 0.7:
                mine = state.units_of(power)
                for unit in rng.sample(mine, min(len(mine), -due)):
                    orders.setdefault(power, []).append(Remove(_ref(unit)))
    return orders
