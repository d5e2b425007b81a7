"""Every shipped variant (and Diplomap's layer) walked end to end: its file
passes `judge variant check`, its opening adjudicates, and a random game
of five years (ten for a map imported from DPJudge, which must see
retreats and builds) gives the same results from every phase's position
as kept in a snapshot and as written in `judge adjudicate`'s JSON. A
variant's state that a snapshot or the JSON forgets makes the replayed
phase differ.

Each walk of seed 1 draws, as the results mail draws it, the first phase
of each kind it meets (movement, retreat, adjustment) and its last phase:
drawing every phase took as long as the walk itself, and a later phase
of a kind already drawn runs the same drawing code on another position.
Other variants walk a second seed, undrawn; an imported map walks once,
its game already ten years or more long.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.adjustments import adjustment_due
from engine.bids import Bid
from engine.diplomap.in_force import with_diplomap
from engine.diplomap.values import EDGE, Draw, Erase, MapOrder, Side
from engine.game import Resolution, adjudicate
from engine.map import GameMap, Terrain, UnitKind, province_of
from engine.orders import Build, Move, MovementOrder, Order, SupportMove, UnitRef, Waive
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variant_file import load_variant, shipped_variants
from engine.variants import rules_for
from engine.ways_to_play import setup
from judge import snapshots
from judge.cli import main as judge_main
from judge.maps.render import render_svg
from judge.maps.scene import scene_after
from judge.phase_json import read_state, write_resolution, write_state
from judge.variant_import.catalogue import imported_variants
from tests.engine.random_orders import random_orders
from tests.engine.variants.dissolution.random_phases import random_orders_and_bids
from tests.engine.variants.intercontinental import random_play

YEARS = 5
IMPORTED_YEARS = 10  # a map imported from DPJudge: long enough for retreats and builds
VARIANTS = Path(__file__).resolve().parents[2] / "engine" / "variants"


@dataclass(frozen=True)
class Lines:
    """What the players file in one phase."""

    orders: Mapping[str, list[Order]]
    bids: Mapping[str, list[Bid]]
    map_orders: Mapping[str, list[MapOrder]]


Draw_lines = Callable[[random.Random, GameMap, GameState], Lines]


def _plain(rng: random.Random, game_map: GameMap, state: GameState) -> Lines:
    board = rules_for(game_map).map_for(game_map, state)
    return Lines(random_orders(rng, board, state), {}, {})


def _attacking(rng: random.Random, game_map: GameMap, state: GameState) -> Lines:
    """Random orders, then some supported attacks on neighbouring units:
    on a big board random supports rarely meet their moves, and a walk of
    an imported map must see units dislodged and retreating."""
    lines = _plain(rng, game_map, state)
    if state.phase.kind is PhaseKind.ADJUSTMENT:
        return Lines(_builds(rng, game_map, state, lines.orders), {}, {})
    if state.phase.kind is not PhaseKind.MOVEMENT:
        return lines
    board = rules_for(game_map).map_for(game_map, state)
    orders = {power: list(given) for power, given in lines.orders.items()}
    at = {u.province: u for u in state.units}
    for unit in state.units:
        near = board.neighbours(unit.kind, unit.location)
        targets = sorted(d for d in near
                         if (other := at.get(province_of(d))) and other.power != unit.power)
        # a home held by another power is worth taking back (the shift maps
        # start every power in its neighbour's homes: only homes build)
        homes = sorted(d for d in near if province_of(d) in game_map.powers[unit.power].home
                       and (province_of(d) not in at or d in targets))
        if homes and rng.random() < 0.7:
            targets = homes
        if not targets and not homes and rng.random() < 0.5:
            # no fight here: head for home (the shift maps' powers start far
            # from theirs), or else for the nearest enemy (a sparse board: Sail Ho)
            home = set(game_map.powers[unit.power].home) - {unit.province}
            enemies = {u.province for u in state.units if u.power != unit.power}
            goal = home if home and rng.random() < 0.5 else enemies or home
            distance = board.distances_from(goal)
            nearer = [d for d in near if distance.get(province_of(d), 99)
                      < distance.get(unit.province, 99) and province_of(d) not in at]
            if nearer:
                move = Move(UnitRef(unit.location, unit.kind), rng.choice(sorted(nearer)))
                orders[unit.power] = [o for o in orders.get(unit.power, []) if not (
                    isinstance(o, MovementOrder) and o.unit.location == unit.location)] + [move]
            continue
        if not targets or rng.random() < 0.5:
            continue
        target = rng.choice(targets)
        ordered: dict[str, MovementOrder] = {
            unit.province: Move(UnitRef(unit.location, unit.kind), target)}
        # its own units support it, and now and then another power's (an ally)
        defender = at[province_of(target)].power if province_of(target) in at else None
        for helper in state.units:
            if helper.power != unit.power and (helper.power == defender or rng.random() < 0.7):
                continue
            reach = {province_of(d) for d in board.neighbours(helper.kind, helper.location)}
            if helper is not unit and province_of(target) in reach:
                ordered[helper.province] = SupportMove(UnitRef(helper.location, helper.kind),
                                                       UnitRef(unit.location, unit.kind),
                                                       province_of(target))
        for power in {unit.power, *(at[p].power for p in ordered)}:
            orders[power] = [o for o in orders.get(power, []) if not (
                isinstance(o, MovementOrder) and province_of(o.unit.location) in ordered)]
        for province, order in ordered.items():
            orders.setdefault(at[province].power, []).append(order)
    return Lines(orders, lines.bids, lines.map_orders)


def _builds(rng: random.Random, game_map: GameMap, state: GameState,
            drawn: Mapping[str, list[Order]]) -> dict[str, list[Order]]:
    """Builds at the sites the map's rules give (any owned centre under
    BUILD_ANY, a partisan site...), not only at home; removals as drawn."""
    rules = rules_for(game_map)
    orders: dict[str, list[Order]] = {}
    for power, given in drawn.items():
        if not any(isinstance(o, Build | Waive) for o in given):
            orders[power] = list(given)
            continue
        owners = state.owner_of
        taken = {u.province for u in state.units}
        sites = sorted(s for s in rules.build_sites(game_map, state, power)
                       if s not in taken and (owners.get(s) == power  # an owned centre
                                              or game_map.provinces[s].centre is None))
        for site in rng.sample(sites, min(len(sites), adjustment_due(game_map, state, power))):
            kinds = [k for k in (UnitKind.ARMY, UnitKind.FLEET)
                     if any(game_map.can_stand(k, loc) for loc in game_map.locations_of(site))]
            if kinds:
                kind = rng.choice(kinds)
                loc = next(loc for loc in game_map.locations_of(site)
                           if game_map.can_stand(kind, loc))
                orders.setdefault(power, []).append(Build(loc, kind))
    return orders


def _dissolution(rng: random.Random, game_map: GameMap, state: GameState) -> Lines:
    if state.phase.kind is PhaseKind.MOVEMENT:
        orders, bids = random_orders_and_bids(rng, state)
        return Lines(orders, bids, {})
    return _plain(rng, game_map, state)


def _intercontinental(rng: random.Random, game_map: GameMap, state: GameState) -> Lines:
    drawn = random_play.turn(rng, state)
    return Lines(drawn.orders, drawn.bids, {})


def _map_order(rng: random.Random, board: GameMap) -> MapOrder:
    """A Draw between two borders of a province (a loop when they are one),
    or an Erase of one of its borders: often invalid, sometimes not."""
    land = sorted(code for code, p in board.provinces.items()
                  if p.terrain is not Terrain.IMPASSABLE and code in board.rings)
    code = rng.choice(land)
    sides = [side for side in board.rings[code] if side != EDGE]
    one, two = rng.choice(board.rings[code]), rng.choice(board.rings[code])
    if rng.random() < 0.7 or not sides:
        return Draw((code, one), (code, two), code if one == two else None,
                    Side(compass=rng.choice(["N", "S", "E", "W"])))
    return Erase((code, rng.choice(sides)))


def _diplomap(rng: random.Random, game_map: GameMap, state: GameState) -> Lines:
    lines = _plain(rng, game_map, state)
    if state.phase.kind is not PhaseKind.MOVEMENT:
        return lines
    board = rules_for(game_map).map_for(game_map, state)
    powers = sorted({u.power for u in state.units})
    drawn = {power: [_map_order(rng, board)] for power in rng.sample(powers, 3)}
    return Lines(lines.orders, {}, drawn)


@dataclass(frozen=True)
class Walk:
    """A walk named by its variant: the map is loaded when a test walks it,
    not while the suite is collected (every worker would load every map)."""

    name: str
    variant: str
    lines: Draw_lines
    imported: bool = False  # from DPJudge (the file has a [source] table)
    diplomap: bool = False

    @property
    def game_map(self) -> GameMap:
        game_map = load_variant(self.variant)  # loaded once a process
        return with_diplomap(game_map) if self.diplomap else game_map

    @property
    def years(self) -> int:
        return IMPORTED_YEARS if self.imported else YEARS


def _has_source(name: str) -> bool:
    """The importer's mark, read off the file's lines rather than its TOML:
    parsing every variant file took a second or more of each worker's
    collection (test_every_shipped_variant_is_walked holds it to the
    catalogue's imported_variants)."""
    text = (VARIANTS / f"{name}.toml").read_text(encoding="utf-8")
    return re.search(r"^\[source\]", text, re.MULTILINE) is not None


def _walks() -> list[Walk]:
    drawers: dict[str, Draw_lines] = {"dissolution": _dissolution,
                                      "intercontinental": _intercontinental}
    walks = []
    for name in shipped_variants():
        if not (VARIANTS / f"{name}.toml").exists():
            continue
        imported = _has_source(name)
        walks.append(Walk(name, name, drawers.get(name, _attacking if imported else _plain),
                          imported))
    walks.append(Walk("standard with Diplomap", "standard", _diplomap, diplomap=True))
    return walks


WALKS = _walks()


def test_every_shipped_variant_is_walked() -> None:
    walked = {w.game_map.name for w in WALKS}
    assert set(shipped_variants()) <= walked
    assert {w.name for w in WALKS if w.imported} == set(imported_variants())
    assert any(rules_for(w.game_map).diplomap for w in WALKS)


@pytest.mark.parametrize("name", shipped_variants())
def test_the_variant_file_passes_the_check(name: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = judge_main(["variant", "check", str(VARIANTS / f"{name}.toml")])
    assert code == 0, out.getvalue()


def _adjudicated(walk: Walk, state: GameState, lines: Lines) -> Resolution:
    return adjudicate(walk.game_map, state, lines.orders, lines.bids, map_orders=lines.map_orders)


def _as_json(game_map: GameMap, resolution: Resolution) -> dict[str, Any]:
    """The resolution as `judge adjudicate` writes it, its rows in a fixed
    order (they follow the units' order, which the JSON groups by power)."""
    out = write_resolution(game_map, resolution)
    for key, rows in out.items():
        if isinstance(rows, list):
            out[key] = sorted(rows, key=lambda row: json.dumps(row, sort_keys=True))
    return out


@pytest.mark.parametrize("walk", WALKS, ids=[w.name for w in WALKS])
def test_the_opening_adjudicates(walk: Walk) -> None:
    opening = setup(walk.game_map, len(rules_for(walk.game_map).opening(
        walk.game_map, GameState.initial(walk.game_map)).seats), seed=1)
    resolution = adjudicate(walk.game_map, opening, {})
    assert resolution.next.phase != opening.phase
    if opening.phase.kind is PhaseKind.MOVEMENT:  # not a game opening with builds (W1900A)
        assert {u.province for u in resolution.next.units} == \
            {u.province for u in opening.units}


def _walk_params() -> list[Any]:  # pytest.param's ParameterSet is not public
    return [pytest.param(walk, seed, id=f"{walk.name}-{seed}")
            for walk in WALKS for seed in ((1,) if walk.imported else (1, 2))]


def _check_drawn(walk: Walk, resolution: Resolution) -> None:
    drawn = render_svg(walk.game_map, scene_after(walk.name, resolution))
    assert ET.fromstring(drawn).tag.endswith("svg"), f"{resolution.state.phase}: not drawn"


@pytest.mark.slow
@pytest.mark.parametrize(("walk", "seed"), _walk_params())
def test_every_phase_survives_snapshot_and_json(walk: Walk, seed: int) -> None:
    rng = random.Random(seed)
    game_map = walk.game_map
    players = len(rules_for(game_map).opening(game_map, GameState.initial(game_map)).seats)
    state = setup(game_map, players, seed=seed)
    # years counted by their openings: a flow's year may step by five or
    # count down (Hundred's, Classical's), or open with builds (Chaos's W1900A)
    years = 0
    phases = 0
    retreats = builds = 0
    drawn_kinds: set[PhaseKind] = set()
    while (years < walk.years or not state.phase.opens_year
           # an imported map plays on, up to three times as long, until it has seen
           # both (Classical adjusts every other year; the shift maps build
           # only in homes retaken from their neighbours)
           or (walk.imported and not (retreats and builds) and years < 3 * walk.years)):
        years += state.phase.opens_year
        lines = walk.lines(rng, game_map, state)
        resolution = _adjudicated(walk, state, lines)
        expected = _as_json(game_map, resolution)
        if seed == 1 and state.phase.kind not in drawn_kinds:
            _check_drawn(walk, resolution)
            drawn_kinds.add(state.phase.kind)
        retreats += state.phase.kind is PhaseKind.RETREAT
        if state.phase.kind is PhaseKind.ADJUSTMENT:
            builds += len(resolution.next.units) > len(state.units)

        stored = snapshots.loads(snapshots.dumps(state))
        assert stored == state, f"{state.phase}: the snapshot differs"
        assert _as_json(game_map, _adjudicated(walk, stored, lines)) == expected, \
            f"{state.phase}: the phase from its snapshot adjudicates otherwise"

        json_map, written = read_state(write_state(game_map, state))
        assert json_map.name == game_map.name
        again = adjudicate(json_map, written, lines.orders, lines.bids,
                           map_orders=lines.map_orders)
        assert _as_json(json_map, again) == expected, \
            f"{state.phase}: the phase from its JSON adjudicates otherwise"
        phases += 1
        if resolution.winner or resolution.next.drawn:
            break
        state = resolution.next
    if seed == 1:  # the last position: the one furthest from the opening's
        _check_drawn(walk, resolution)
    assert phases >= 3 * min(YEARS, 2)
    if walk.imported and not (resolution.winner or resolution.next.drawn):
        assert retreats and builds, f"{walk.name}: {retreats} retreat and {builds} build phases"
        assert drawn_kinds == set(PhaseKind), f"{walk.name}: drew only {drawn_kinds}"
