"""Properties that hold for any position and any orders: random games are
played through every phase kind and the board is checked after each phase."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.adjustments import adjustment_due
from engine.game import adjudicate
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
from engine.outcomes import Outcome
from engine.phase import PhaseKind
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from tests.examples import examples

MAP = load_variant("standard")


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
        coastal = [p for p, v in game_map.provinces.items() if game_map.is_coastal(p)]
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
            coastal = [p for p, v in game_map.provinces.items() if game_map.is_coastal(p)]
            return Convoy(_ref(unit), _ref(army), rng.choice(coastal))
    return Hold(_ref(unit))


def random_orders(rng: random.Random, state: GameState) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        for unit in state.units:
            if rng.random() < 0.95:
                orders.setdefault(unit.power, []).append(
                    random_movement_order(rng, MAP, state, unit))
    elif kind is PhaseKind.RETREAT:
        for d in state.dislodged:
            choices: list[Order] = [Disband(_ref(d.unit))]
            choices += [Retreat(_ref(d.unit), r) for r in d.retreats]
            choices.append(Retreat(_ref(d.unit), d.attacker))  # illegal
            orders.setdefault(d.unit.power, []).append(rng.choice(choices))
    else:
        for power in MAP.powers:
            due = adjustment_due(MAP, state, power)
            if due > 0:
                for home in MAP.powers[power].home:
                    kind_ = rng.choice([UnitKind.ARMY, UnitKind.FLEET])
                    loc = home
                    if kind_ is UnitKind.FLEET and MAP.provinces[home].coasts:
                        loc = f"{home}/{rng.choice(MAP.provinces[home].coasts)}"
                    orders.setdefault(power, []).append(Build(loc, kind_))
                orders.setdefault(power, []).append(Waive())
            elif due < 0 and rng.random() < 0.7:
                mine = state.units_of(power)
                for unit in rng.sample(mine, min(len(mine), -due)):
                    orders.setdefault(power, []).append(Remove(_ref(unit)))
    return orders


def check_invariants(before: GameState, after: GameState,
                     orders: dict[str, list[Order]], results: int) -> None:
    provinces = [u.province for u in after.units]
    assert len(provinces) == len(set(provinces)), "two units in one province"
    for unit in after.units:
        assert MAP.can_stand(unit.kind, unit.location), unit
    given_count = sum(len(v) for v in orders.values())
    assert results >= given_count
    if before.phase.kind is PhaseKind.MOVEMENT:
        assert len(after.units) + len(after.dislodged) == len(before.units)
        occupied = set(provinces)
        for d in after.dislodged:
            assert d.unit.province in occupied, "dislodged but nobody moved in"
            for r in d.retreats:
                assert province_of(r) not in occupied
                assert province_of(r) not in after.contested
    else:
        assert not after.dislodged
    for centre, _ in after.owners:
        assert centre in MAP.supply_centres


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_keep_the_board_sound(seed: int) -> None:
    rng = random.Random(seed)
    state = GameState.initial(MAP)
    for _ in range(24):
        orders = random_orders(rng, state)
        resolution = adjudicate(MAP, state, orders)
        check_invariants(state, resolution.next, orders, len(resolution.results))
        for result in resolution.results:
            assert isinstance(result.outcome, Outcome)
            if result.outcome is not Outcome.SUCCEEDS and result.reason is not None:
                assert result.reason.describe()
        if resolution.winner:
            break
        state = resolution.next


def test_adjudication_is_deterministic() -> None:
    rng = random.Random(5)
    state = GameState.initial(MAP)
    for _ in range(10):
        orders = random_orders(rng, state)
        first = adjudicate(MAP, state, orders)
        second = adjudicate(MAP, state, orders)
        assert first.results == second.results
        assert first.next == second.next
        state = first.next
