"""Properties that hold for any position and any orders: random games are
played through every phase kind and the board is checked after each phase."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import adjudicate
from engine.map import province_of
from engine.orders import (
    Order,
)
from engine.outcomes import Outcome
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variant_file import load_variant
from tests.engine.random_orders import random_orders
from tests.examples import examples

MAP = load_variant("standard")


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
        orders = random_orders(rng, MAP, state)
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
        orders = random_orders(rng, MAP, state)
        first = adjudicate(MAP, state, orders)
        second = adjudicate(MAP, state, orders)
        assert first.results == second.results
        assert first.next == second.next
        state = first.next
