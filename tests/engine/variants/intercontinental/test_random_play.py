"""Random games on the provisional board, Spring 1865 to the end of 1871,
Winters and retreats included (random_play.py draws the orders and bids),
with the variant's invariants checked after every phase:

* every colour group still holds its four powers, one per theatre (§1.2, §3);
* each centre has one owner and the owners cover all 180 centres;
* after each Winter no major power has more units than centres;
* each group's pool is §11.1's formula, recomputed here from the position,
  and no group's counted bids exceed it or put more than 2 DP on an order;
* minors' and affiliates' units never leave their provinces (§10);
* Suez has two coasts, fleets only on them, before Spring of the canal's
  year (1870, §5.2) and one coast after, with no fleet on a coast;
* each power names at most one additional home centre, never a centre
  that is or was a major power's home (§9.1), and builds only on its sites;
* at the end of each year the winner, if any, is the group with 72 centres
  or more and strictly the most (§2.0).

The seeds are a fixed list (data/random_play.toml) so a failure replays;
the phases they play are the coverage test's business: the draws must
reach every part the invariants speak of.
"""

from __future__ import annotations

import functools
import random
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.game import Resolution, adjudicate
from engine.map import UnitKind
from engine.orders import Build, Move
from engine.outcomes import Outcome
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variants.intercontinental import diplomacy_points, suez
from engine.variants.intercontinental.facts import load_facts
from engine.variants.intercontinental.state import of as intercontinental
from tests.engine.variants.intercontinental.random_play import MAJORS, MAP, RULES, opening, turn

pytestmark = pytest.mark.slow

DATA = tomllib.loads((Path(__file__).parent / "data" / "random_play.toml").read_text())
SEEDS: list[int] = DATA["seeds"]
LAST_YEAR: int = DATA["last_year"]
CANAL = suez.canal(MAP)
ORIGINAL_HOMES = frozenset(c for p in MAJORS for c in MAP.powers[p].home)
STARTS = {name: {loc.split("/")[0] for _, loc in power.units}
          for name, power in MAP.powers.items() if power.ordered_by_bids}


@dataclass
class Seen:
    """What the random games reached, for the coverage test."""

    phases: Counter[str] = field(default_factory=Counter)
    ignored: Counter[str] = field(default_factory=Counter)
    counted: int = 0
    additional_homes: int = 0
    neutral_moves_bid: int = 0
    refused_builds: int = 0  # builds off the power's sites, refused
    suez_fleets: Counter[str] = field(default_factory=Counter)  # split / canal


@functools.cache
def game(seed: int) -> tuple[tuple[GameState, Resolution], ...]:
    """The seed's game, phase by phase, played once for both tests."""
    rng = random.Random(f"intercontinental random play:{seed}")
    state = opening(seed)
    phases = []
    while state.phase.year <= LAST_YEAR:
        drawn = turn(rng, state)
        resolution = adjudicate(MAP, state, drawn.orders, drawn.bids)
        phases.append((state, resolution))
        if resolution.winner:
            break
        state = resolution.next
    return tuple(phases)


def _pool(state: GameState, powers: tuple[str, ...]) -> int:
    """§11.1, written out again: a DP per centre, at most 3 a power; 1 for a
    player with units but no centres; none for a player out of the game."""
    owned = Counter(owner for _, owner in state.owners)
    points = sum(min(3, owned[p]) for p in powers)
    if points == 0 and any(u.power in powers for u in state.units):
        return 1
    return points


def check_groups(state: GameState) -> None:
    facts = load_facts()
    assert len(state.seats) == len(facts.groups) == 8
    assert sorted(p for s in state.seats for p in s.powers) == sorted(MAJORS)
    for seat in state.seats:
        theatres = {facts.powers[MAP.powers[p].letter].theatre for p in seat.powers}
        assert len(seat.powers) == 4 and len(theatres) == 4, seat
    players = diplomacy_points.players(MAP, state)
    assert sorted((p.name, p.powers) for p in players) == \
        sorted((s.player, s.powers) for s in state.seats)
    assert {p.colour for p in players} == set(facts.groups)


def check_centres(state: GameState) -> None:
    centres = [c for c, _ in state.owners]
    assert len(centres) == len(set(centres)), "a centre with two owners"
    assert set(centres) == MAP.supply_centres and len(centres) == 180
    assert sum(Counter(p for _, p in state.owners).values()) == 180


def check_units(before: GameState, after: GameState) -> None:
    if before.phase.kind is PhaseKind.ADJUSTMENT:
        for power in MAJORS:
            assert len(after.units_of(power)) <= len(after.centres_of(power)), power
        sites = {p: RULES.build_sites(MAP, before, p) for p in MAJORS}
        # by province: the Winter before the canal opens moves fleets on
        # Suez's coasts to Suez itself, which builds nothing
        stood = {(u.power, u.province) for u in before.units}
        for unit in after.units:
            if unit.power in MAJORS and (unit.power, unit.province) not in stood:
                assert unit.province in sites[unit.power], f"{unit} built off its sites"
    provinces = [u.province for u in after.units]
    assert len(provinces) == len(set(provinces)), "two units in a province"
    for unit in after.units:
        if unit.power not in MAJORS:
            assert unit.province in STARTS[unit.power], f"{unit} left its province"


def check_pools(state: GameState, resolution: Resolution) -> None:
    for seat in state.seats:
        expected = _pool(state, seat.powers)
        for power in seat.powers:
            assert RULES.bid_allowance(MAP, state, power)[0] == expected, (seat, power)
        counted = [r for r in resolution.facts("bids") if r.counted and r.bidder in seat.powers]
        assert sum(r.bid.points for r in counted) <= expected, seat.player
        per_order = Counter(str(r.order) for r in counted for _ in range(r.bid.points))
        assert max(per_order.values(), default=0) <= 2, seat.player


def check_suez(state: GameState) -> None:
    phase_map = RULES.map_for(MAP, state)
    fleets = [u for u in state.units if u.province == CANAL.province]
    if state.phase.year < CANAL.opens:
        assert phase_map.provinces[CANAL.province].coasts == ("NC", "SC")
        assert all(u.location != u.province for u in fleets if u.kind is UnitKind.FLEET)
    else:
        assert phase_map.provinces[CANAL.province].coasts == ()
        assert all(u.location == u.province for u in fleets), fleets


def check_homes(before: GameState, after: GameState) -> None:
    named = dict(intercontinental(after).additional_homes)
    assert len(named) == len(intercontinental(after).additional_homes), "a power named two"
    assert len(set(named.values())) == len(named), "one centre named twice"
    assert set(intercontinental(before).additional_homes) \
        <= set(intercontinental(after).additional_homes), "a name forgotten"
    for power, centre in named.items():
        assert power in MAJORS and centre not in ORIGINAL_HOMES, (power, centre)


def check_victory(state: GameState, resolution: Resolution) -> None:
    """§2.0 at the end of each year: a group wins with 72 centres or more
    and strictly the most; minors' and affiliates' centres count for nobody."""
    if resolution.next.phase.kind is not PhaseKind.ADJUSTMENT or \
            state.phase.kind is PhaseKind.ADJUSTMENT:
        return
    owned = Counter(owner for _, owner in resolution.next.owners)
    totals = sorted(((sum(owned[p] for p in s.powers), s.player) for s in state.seats),
                    reverse=True)
    (best, leader), (second, _) = totals[0], totals[1]
    expected = leader if best >= 72 and best > second else None
    assert resolution.winner == expected, (resolution.winner, totals[:2])


def check(state: GameState, resolution: Resolution, seen: Seen) -> None:
    after = resolution.next
    seen.phases[state.phase.kind.name] += 1
    check_groups(after)
    check_centres(after)
    check_units(state, after)
    check_suez(state)
    check_suez(after)
    check_homes(state, after)
    check_victory(state, resolution)
    if state.phase.kind is PhaseKind.MOVEMENT:
        check_pools(state, resolution)
        for result in resolution.results:
            if isinstance(result.order, Move) and result.power not in MAJORS:
                seen.neutral_moves_bid += 1
                assert result.outcome is not Outcome.SUCCEEDS, result
    seen.refused_builds += sum(1 for r in resolution.results if isinstance(r.order, Build)
                               and r.outcome is Outcome.ILLEGAL
                               and "adjustments to make" not in str(r.reason))
    seen.counted += sum(1 for r in resolution.facts("bids") if r.counted)
    seen.ignored.update(m.group(0) for r in resolution.facts("bids") if not r.counted
                        for m in [re.search(r"§[0-9.]+[0-9]", r.why)] if m)
    seen.suez_fleets["canal" if state.phase.year >= CANAL.opens else "split"] += sum(
        1 for u in state.units if u.province == CANAL.province and u.kind is UnitKind.FLEET)
    seen.additional_homes += len(intercontinental(after).additional_homes) \
        - len(intercontinental(state).additional_homes)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_game_keeps_the_invariants(seed: int) -> None:
    first = opening(seed)
    check_groups(first)
    check_centres(first)
    phases = game(seed)
    for state, resolution in phases:
        check(state, resolution, Seen())
    last = phases[-1][1]
    assert last.winner or last.next.phase.year == LAST_YEAR + 1, last.next.phase


def test_the_games_reach_every_part() -> None:
    """The draws reach what the invariants speak of: Winters, retreats,
    counted bids and bids ignored under each of §11.1-§11.3, bids moving a
    neutral unit, additional home centres named and builds off the sites
    refused, fleets in Suez before and after the canal opens."""
    seen = Seen()
    for seed in SEEDS:
        for state, resolution in game(seed):
            check(state, resolution, seen)
    assert seen.phases["ADJUSTMENT"] >= 7 * len(SEEDS) and seen.phases["RETREAT"] > 0
    assert seen.counted > 0 and seen.additional_homes > 0
    assert seen.neutral_moves_bid > 0 and seen.refused_builds > 0
    assert seen.suez_fleets["split"] > 0 and seen.suez_fleets["canal"] > 0, seen.suez_fleets
    for section in ("§11.1", "§11.2", "§11.3"):
        assert seen.ignored[section] > 0, (section, seen.ignored)
