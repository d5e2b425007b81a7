"""Properties of Dissolution's board, seasons and whole games, for any
position, any orders and any bids.

The random phases and how they are drawn: random_phases.py. Each property
is checked from the results rather than from the engine's internals where
possible (§ numbers are those of the Dissolution v2.1 full rules).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings

from engine.bids import Bid
from engine.game import Resolution, adjudicate
from engine.map import UnitKind, province_of
from engine.orders import (
    Build,
    Convoy,
    Disband,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitRef,
    Waive,
)
from engine.outcomes import Outcome, Why
from engine.phase import Phase, PhaseKind, Season
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants.dissolution.state import favor_of
from engine.variants.dissolution.state import of as dissolution
from tests.engine.random_orders import random_orders
from tests.engine.variants.dissolution.random_phases import (
    MAP,
    MOVEMENT_ORDERS,
    NEUTRAL,
    NUCLEAR,
    PLAYED,
    SEEDS,
    Drawn,
    _dislodged,
    _invulnerable,
    _ref,
    _stationary,
    draw,
    obeyed,
    random_orders_and_bids,
)
from tests.engine.variants.dissolution.test_bid_properties import (
    check_bids,
    check_ignored,
    check_violations,
)
from tests.examples import examples


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
        barred = {p for n in NUCLEAR if favor_of(MAP, state, d.unit.power, n) == 0
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
                    assert favor_of(MAP, before, unit.power, n) > 0, \
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
            assert power in dissolution(after).exiles, f"{power} owns nothing and is not in exile"


def _random_retreats(rng: random.Random, state: GameState) -> dict[str, list[Order]]:
    orders: dict[str, list[Order]] = {}
    for d in state.dislodged:
        choices: list[Order] = [Disband(_ref(d.unit))]
        choices += [Retreat(_ref(d.unit), r) for r in d.retreats]
        choices += [Retreat(_ref(d.unit), loc)
                    for loc in sorted(MAP.neighbours(d.unit.kind, d.unit.location))]
        orders.setdefault(d.unit.power, []).append(rng.choice(choices))
    return orders


@settings(max_examples=examples(1000), deadline=None)
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
    kept = [u for u in before.units if u.power in NUCLEAR]
    assert sorted(map(str, kept)) == sorted(
        str(u) for u in after.units if u.power in NUCLEAR)
    occupied = {u.province for u in before.units}
    owner = before.owner_of
    for name in NEUTRAL:
        if name in NUCLEAR:
            continue
        for centre in MAP.powers[name].home:  # §4.5
            if centre not in occupied and owner.get(centre, name) == name:
                assert Unit(name, UnitKind.ARMY, centre) in after.units, (name, centre)


@settings(max_examples=examples(60), deadline=None)
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


@settings(max_examples=examples(60), deadline=None)
@given(SEEDS)
def test_standard_game_ignores_bids_and_has_no_violations(seed: int) -> None:
    """The hooks Dissolution added change nothing in the standard game: bids
    are not asked for, units are neither stationary nor invulnerable, and no
    violations are found."""
    rng = random.Random(seed)
    state = GameState.initial(STANDARD)
    for _ in range(6):
        orders = random_orders(rng, STANDARD, state)
        bids = {power: [Bid(rng.randint(1, 3), o) for o in power_orders
                        if isinstance(o, MOVEMENT_ORDERS)]
                for power, power_orders in orders.items()}
        plain = adjudicate(STANDARD, state, orders)
        with_bids = adjudicate(STANDARD, state, orders, bids)
        assert with_bids == plain
        assert plain.report("bids") is None and plain.report("violations") is None
        if state.phase.kind is PhaseKind.MOVEMENT:
            before = len(state.units)
            assert len(plain.next.units) + len(plain.next.dislodged) == before
        if plain.winner:
            break
        state = plain.next
