"""How long a Dissolution movement phase takes to adjudicate, with every
player's orders and Diplomacy Point bids, beside the standard game's figure
from the same run.

Target (the Dissolution issue): a Dissolution movement phase with all ten
players' orders and bids, median at most 2 ms on this machine; and the
standard figures must not get slower.

The phases come from games played with the engine from each variant's
opening position, drawn from a seeded ``random.Random``, so they vary but a
seed always gives the same ones. In every movement phase each player power
orders every unit (moves, supports of orders actually given, holds, convoys
with an explicit path: ``A CAI - ASW - KHM`` with ``W ASW C CAI - KHM``, over
its own wings and fleets at sea or over neutral wings it bids for), and in
Dissolution each player writes bids for neutral units (minor and nuclear)
that add up to its whole budget: supports of its own moves and holds, the
convoys it needs, attacks by neutral units and help for other players. Some
of them are ignored as the rules say (deception, cohesion, prejudice, the
Favor caps). Dislodged units retreat or disband at random; each Winter the
players build where they may.

Orders and bids are written as text and read with ``parser.parse_order`` and
``parser.bids.parse_bid`` before the timing. Then ``engine.game.adjudicate``
is timed on every phase, warm first, ``--repeat`` rounds, the variants taking
turns round by round; each call once with ``time.perf_counter_ns()`` and the
garbage collector off, as bench/timing.py does.

Usage::

    .venv/bin/python bench/dissolution.py
    .venv/bin/python bench/dissolution.py --standard-phases bench/out/phases.json
    .venv/bin/python bench/dissolution.py --standard-only      # also runs on older commits
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import io
import json
import platform
import pstats
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cpu import cpu_model
from timing import figures, timed_ns, write_json

import engine
from engine.adjustments import adjustment_due
from engine.game import Resolution, adjudicate
from engine.map import GameMap, Terrain, UnitKind
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
)
from engine.outcomes import Outcome
from engine.phase import PhaseKind
from engine.state import GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants.dissolution.nuclear import nuclear_powers
from parser import OrderError, parse_order

if TYPE_CHECKING:  # Dissolution's modules are imported where used: --standard-only
    from engine.bids import Bid  # runs on commits that predate them

TARGET_MS = 2.0

# Moves of wings on provinces without a fleet list (Russia's W SVE) are written
# too; before 1364310 they raised KeyError in Board.move_target. False leaves
# them out, to time commits from before that fix.
WING_MOVES_FROM_LAND = True


# ---------------------------------------------------------------------------
# The phases
# ---------------------------------------------------------------------------

@dataclass
class Phase:
    """One movement phase: the position, and what the players wrote."""

    label: str  # "game 1 S1992M"
    state: GameState
    order_texts: dict[str, list[str]]
    bid_texts: dict[str, list[str]] = field(default_factory=dict)
    orders: dict[str, list[Order]] = field(default_factory=dict)  # parsed
    bids: dict[str, list[Bid]] | None = None  # parsed; None where nobody bids

    @property
    def units(self) -> int:
        return len(self.state.units)

    @property
    def order_count(self) -> int:
        return sum(len(os) for os in self.order_texts.values())

    @property
    def bid_count(self) -> int:
        return sum(len(bs) for bs in self.bid_texts.values())


def is_neutral(game_map: GameMap, power: str) -> bool:
    return bool(getattr(game_map.powers[power], "ordered_by_bids", False))


def players(game_map: GameMap) -> list[str]:
    """The powers players order (every power in the standard game)."""
    return [p for p in game_map.powers if not is_neutral(game_map, p)]


def ref(unit: Unit) -> UnitRef:
    return UnitRef(unit.location, unit.kind)


class Planner:
    """Every player's orders for one movement phase, and (where neutral
    units are steered by bids) every player's bids."""

    def __init__(self, game_map: GameMap, state: GameState, rng: random.Random,
                 bidding: bool) -> None:
        self.map = game_map
        self.state = state
        self.rng = rng
        self.bidding = bidding
        self.units: dict[str, Unit] = {u.province: u for u in state.units}
        self.players = players(game_map)
        self.orders: dict[str, MovementOrder] = {}  # by province, the players' units
        self.to_support: list[Unit] = []  # decided once every move is known
        self.carrying: set[str] = set()  # units already on a convoy path
        self.wants: dict[str, list[MovementOrder]] = {}  # neutral convoys a player needs

    # -- the players' orders --------------------------------------------------

    def plan(self) -> dict[str, list[str]]:
        mine = sorted((u for u in self.state.units if u.power in self.players),
                      key=lambda u: u.province)
        for unit in mine:
            if unit.province in self.orders:
                continue  # already given a convoy order
            self.first(unit)
        for unit in self.to_support:
            if unit.province not in self.orders:
                self.orders[unit.province] = self.support(unit)
        texts: dict[str, list[str]] = {}
        for unit in mine:
            texts.setdefault(unit.power, []).append(str(self.orders[unit.province]))
        return texts

    def first(self, unit: Unit) -> None:
        roll = self.rng.random()
        me = ref(unit)
        if unit.kind is UnitKind.ARMY:
            if roll < 0.2 and self.convoy(unit):
                return
            dests = self.open(unit, self.map.army_moves[unit.province])
            if roll < 0.6 and dests:  # none from Crete, an island (§6.5)
                self.orders[unit.province] = Move(me, self.rng.choice(dests))
            elif roll < 0.92:
                self.to_support.append(unit)
            else:
                self.orders[unit.province] = Hold(me)
        elif unit.kind is UnitKind.FLEET:
            dests = self.open(unit, self.map.fleet_moves.get(unit.location, frozenset()))
            if roll < 0.55 and dests:
                self.orders[unit.province] = Move(me, self.rng.choice(dests))
            elif roll < 0.9:
                self.to_support.append(unit)
            else:
                self.orders[unit.province] = Hold(me)
        else:  # a wing: stationary, so a move is a sortie
            ground = sorted(p for p in self.map.province_neighbours(unit.kind, unit.location)
                            if self.map.can_stand(unit.kind, p))
            if roll < 0.08 and ground and may_move(self.map, unit):
                self.orders[unit.province] = Move(me, self.rng.choice(ground))
            elif roll < 0.8:
                self.to_support.append(unit)
            else:
                self.orders[unit.province] = Hold(me)

    def open(self, unit: Unit, places: frozenset[str]) -> list[str]:
        """Where a move may go, the provinces of the power's own units left
        out (unless nothing else is left)."""
        ordered = sorted(places)
        free = [d for d in ordered if (other := self.units.get(d.partition("/")[0])) is None
                or other.power != unit.power]
        return free or ordered

    def carriers(self, army: Unit, near: str | None) -> list[Unit]:
        """Units that could carry ``army`` next (reaching ``near``, or
        linked to the previous carrier when ``near`` is None): the
        player's own, or neutral ones it can bid for."""
        out = []
        for unit in self.units.values():
            if unit.province == army.province or unit.province in self.carrying:
                continue
            if not can_convoy(self.map, unit):
                continue
            own = unit.power == army.power and unit.province not in self.orders
            if not (own or (self.bidding and is_neutral(self.map, unit.power))):
                continue
            if near is None or self.map.reaches_province(unit.kind, unit.location, near):
                out.append(unit)
        return sorted(out, key=lambda u: u.province)

    def convoy(self, army: Unit) -> bool:
        """Order ``army`` across one or two carriers, with its path named."""
        first = self.carriers(army, army.province)
        if not first:
            return False
        path = [self.rng.choice(first)]
        if path[0].kind.value == "W" and self.rng.random() < 0.3:
            # a wing reaches every other wing (§3.3)
            jumps = [u for u in self.carriers(army, None)
                     if u.kind is path[0].kind and u.province != path[0].province]
            if jumps:
                path.append(self.rng.choice(jumps))
        last = path[-1]
        places = {u.province for u in path}
        dests = sorted(
            p for p in province_neighbours(self.map, last.kind, last.location)
            if self.map.can_stand(UnitKind.ARMY, p) and p != army.province and p not in places
            and p not in self.map.army_moves[army.province])
        if not dests:
            return False
        dest = self.rng.choice(dests)
        if self.bidding:  # binding paths: the army names its carriers
            move = Move(ref(army), dest, path=tuple(u.province for u in path))
        else:
            move = Move(ref(army), dest, via_convoy=True)
        self.orders[army.province] = move
        for carrier in path:
            self.carrying.add(carrier.province)
            order = Convoy(ref(carrier), ref(army), dest)
            if carrier.power == army.power:
                self.orders[carrier.province] = order
            else:
                self.wants.setdefault(army.power, []).append(order)
        return True

    def moves(self) -> list[tuple[Unit, str]]:
        """Every player's move so far: the unit and its destination province."""
        return [(self.units[p], o.dest.partition("/")[0]) for p, o in self.orders.items()
                if isinstance(o, Move)]

    def support(self, unit: Unit) -> MovementOrder:
        """Support a move that was ordered, or a unit that stays, in reach."""
        me = ref(unit)
        weighted: list[tuple[float, MovementOrder]] = []
        for mover, dest in self.moves():
            if mover is unit or dest == unit.province:
                continue
            if self.map.reaches_province(unit.kind, unit.location, dest):
                weight = 4.0 if mover.power == unit.power else 1.0
                weighted.append((weight, SupportMove(me, ref(mover), dest)))
        for prov, other in self.units.items():
            if other is unit or isinstance(self.orders.get(prov), Move):
                continue
            if self.map.reaches_province(unit.kind, unit.location, prov):
                weight = 1.5 if other.power == unit.power else 0.3
                weighted.append((weight, SupportHold(me, ref(other))))
        return pick(self.rng, weighted) or Hold(me)

    # -- the players' bids ----------------------------------------------------

    def bid_texts(self) -> dict[str, list[str]]:
        from engine.variants.dissolution.neutral import budget

        out: dict[str, list[str]] = {}
        for power in self.players:
            points = budget(self.map, self.state, power)
            out[power] = [f"{p}: {order}" for p, order in self.bids_of(power, points)]
        return out

    def bids_of(self, power: str, points: int) -> list[tuple[int, MovementOrder]]:
        """Bids adding up to ``points``: first the convoys the player needs,
        then orders drawn from the neutral units within reach."""
        rng = self.rng
        bids: list[tuple[int, MovementOrder]] = []
        for order in self.wants.get(power, ()):
            if points:
                bids.append((1, order))
                points -= 1
        candidates = self.bid_candidates(power)
        while points > 0 and candidates:
            chosen = pick(rng, candidates)
            assert chosen is not None
            candidates = [(w, o) for w, o in candidates if o is not chosen]
            spent = min(points, rng.choice((1, 1, 1, 2, 2, 3)))
            bids.append((spent, chosen))
            points -= spent
        if points > 0 and bids:  # the rest on the first bid's order
            bids.append((points, bids[0][1]))
        return bids

    def bid_candidates(self, power: str) -> list[tuple[float, MovementOrder]]:
        mine = [u for u in self.units.values() if u.power == power]
        moves = self.moves()
        near = {u.province for u in mine} | {d for u, d in moves if u.power == power}
        out: list[tuple[float, MovementOrder]] = []
        for prov, neutral in sorted(self.units.items()):
            if not is_neutral(self.map, neutral.power) or prov in self.carrying:
                continue
            reach = self.map.province_neighbours(neutral.kind, neutral.location)
            if not reach & near:
                continue
            me = ref(neutral)
            for mover, dest in moves:
                if dest in reach and dest != prov:
                    # help for the player's own moves; for others' (prejudice may bar it)
                    weight = 5.0 if mover.power == power else 0.6
                    out.append((weight, SupportMove(me, ref(mover), dest)))
            for unit in mine:
                if unit.province in reach and not isinstance(self.orders.get(unit.province),
                                                             Move):
                    out.append((2.0, SupportHold(me, ref(unit))))
            for dest in sorted(reach) if may_move(self.map, neutral) else ():
                victim = self.units.get(dest)
                if victim is not None and victim.power != power and \
                        self.map.can_stand(neutral.kind, dest) and \
                        dest not in self.map.powers[neutral.power].barred:
                    # an attack: on a player's unit, or on its own or a friend's (cohesion)
                    out.append((0.8, Move(me, dest)))
            out.append((0.3, Hold(me)))
        return out


def province_neighbours(game_map: GameMap, kind: UnitKind, location: str) -> frozenset[str]:
    """The provinces a unit of this kind at ``location`` reaches."""
    if hasattr(game_map, "province_neighbours"):
        return game_map.province_neighbours(kind, location)
    # a commit before wings
    return frozenset(d.partition("/")[0] for d in game_map.neighbours(kind, location))


def may_move(game_map: GameMap, unit: Unit) -> bool:
    """Whether to write a move for this unit (see WING_MOVES_FROM_LAND)."""
    return WING_MOVES_FROM_LAND or unit.kind is not UnitKind.WING \
        or unit.location in game_map.fleet_moves


def can_convoy(game_map: GameMap, unit: Unit) -> bool:
    """Can the unit convoy where it stands (a fleet at sea; a wing anywhere)?"""
    terrain = game_map.provinces[unit.province].terrain
    traits = getattr(unit.kind, "traits", None)
    if traits is None:  # a commit before unit kinds had traits: fleets at sea
        return unit.kind is UnitKind.FLEET and terrain is Terrain.WATER
    return terrain in traits.convoys_from


def pick(rng: random.Random, weighted: Sequence[tuple[float, MovementOrder]]
         ) -> MovementOrder | None:
    if not weighted:
        return None
    return rng.choices([o for _, o in weighted], [w for w, _ in weighted])[0]


def other_orders(game_map: GameMap, state: GameState, rng: random.Random
                 ) -> dict[str, list[Order]]:
    """Retreats (or disbands) and Winter builds and removals."""
    orders: dict[str, list[Order]] = {}
    if state.phase.kind is PhaseKind.RETREAT:
        for d in state.dislodged:
            if d.retreats and rng.random() < 0.85:
                order: Order = Retreat(ref(d.unit), rng.choice(d.retreats))
            else:
                order = Disband(ref(d.unit))
            orders.setdefault(d.unit.power, []).append(order)
        return orders
    occupied = {u.province for u in state.units}
    owners = state.owner_of
    for power in players(game_map):
        due = adjustment_due(game_map, state, power)
        if due < 0:
            units = sorted(state.units_of(power), key=lambda u: u.province)
            for unit in rng.sample(units, min(-due, len(units))):
                orders.setdefault(power, []).append(Remove(ref(unit)))
            continue
        sites = sorted(c for c in build_sites(game_map, state, power)
                       if owners.get(c) == power and c not in occupied)
        rng.shuffle(sites)
        for centre in sites[:due]:
            fleet = game_map.is_coastal(centre) and not game_map.provinces[centre].coasts
            kind = UnitKind.FLEET if fleet and rng.random() < 0.4 else UnitKind.ARMY
            orders.setdefault(power, []).append(Build(centre, kind))
    return orders


def build_sites(game_map: GameMap, state: GameState, power: str) -> set[str]:
    try:
        from engine.variants import rules_for
    except ImportError:  # a commit before rules hooks: home centres
        return set(game_map.powers[power].home)
    return set(rules_for(game_map).build_sites(game_map, state, power))


def parse_phase(game_map: GameMap, phase: Phase) -> None:
    """The players' texts through the order and bid readers."""
    phase.orders = _read(phase, phase.order_texts, lambda line: parse_order(line, game_map))
    if not phase.bid_texts:
        return
    from parser.bids import parse_bid

    phase.bids = _read(phase, phase.bid_texts, lambda line: parse_bid(line, game_map))


def _read(phase: Phase, texts: Mapping[str, list[str]],
          read: Callable[[str], Any]) -> dict[str, list[Any]]:
    """Every power's lines through ``read``; a line it cannot read stops the run."""
    out: dict[str, list[Any]] = {}
    for power, lines in texts.items():
        for line in lines:
            value = read(line)
            if isinstance(value, OrderError):
                raise SystemExit(f"{phase.label}: {power} {line!r}: {value.message}")
            out.setdefault(power, []).append(value)
    return out


def run_phase(game_map: GameMap, phase: Phase) -> Resolution:
    if phase.bids is None:
        return adjudicate(game_map, phase.state, phase.orders)
    return adjudicate(game_map, phase.state, phase.orders, phase.bids)


def play(game_map: GameMap, count: int, years: int, seed: int) -> list[Phase]:
    """``count`` movement phases from games of up to ``years`` years."""
    rng = random.Random(f"{game_map.name}:{seed}")
    bidding = any(is_neutral(game_map, p) for p in game_map.powers)
    found: list[Phase] = []
    game = 0
    while len(found) < count:
        game += 1
        state = GameState.initial(game_map)
        last_year = state.phase.year + years - 1
        while state.phase.year <= last_year and len(found) < count:
            if state.phase.kind is PhaseKind.MOVEMENT:
                planner = Planner(game_map, state, rng, bidding)
                phase = Phase(f"game {game} {state.phase}", state, planner.plan())
                if bidding:
                    phase.bid_texts = planner.bid_texts()
                parse_phase(game_map, phase)
                found.append(phase)
                resolution = run_phase(game_map, phase)
            else:
                resolution = adjudicate(game_map, state, other_orders(game_map, state, rng))
            if resolution.winner:
                break
            state = resolution.next
    return found


def saved_standard_phases(path: Path) -> list[Phase]:
    """The movement phases bench/adjudication.py saved with --save-phases
    (the phases of bench/README.md's standard figure)."""
    from conversion import convert_order, engine_state

    game_map = load_variant("standard")
    out = []
    for n, saved in enumerate(json.loads(path.read_text())):
        state = engine_state(game_map, saved["phase"], saved["units"], saved["centres"])
        orders = {p: [convert_order(o, "M") for o in os] for p, os in saved["orders"].items()}
        texts = {p: [str(o) for o in os] for p, os in orders.items()}
        out.append(Phase(f"saved {n} {saved['phase']}", state, texts, orders=orders))
    return out


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def time_rounds(sets: Mapping[str, tuple[GameMap, list[Phase], int]]
                ) -> dict[str, list[list[int]]]:
    """Each set's phases, one call each per round, the sets taking turns;
    per set, per phase, the times of its calls. The third item of a set is
    its number of rounds."""
    for game_map, phases, _ in sets.values():  # warm: caches, the first import of rules
        for phase in phases:
            run_phase(game_map, phase)
    out: dict[str, list[list[int]]] = {
        name: [[] for _ in phases] for name, (_, phases, _) in sets.items()}
    for round_no in range(max(r for _, _, r in sets.values())):
        for name, (game_map, phases, rounds) in sets.items():
            if round_no >= rounds:
                continue
            for i, phase in enumerate(phases):
                out[name][i].append(timed_ns(partial(run_phase, game_map, phase)))
    return out


def time_parsing(game_map: GameMap, phases: Sequence[Phase], rounds: int) -> list[int]:
    """The intake: each phase's order and bid texts read (median per phase)."""
    out = []
    for _ in range(rounds):
        for phase in phases:
            out.append(timed_ns(partial(parse_phase, game_map, phase)))
    return out


def stages(game_map: GameMap, phases: Sequence[Phase], rounds: int) -> dict[str, float]:
    """Median µs per phase of the Dissolution hooks that the standard game
    lacks, timed by wrapping them on the rules object (a separate pass)."""
    from engine.variants import rules_for

    rules = rules_for(game_map)
    spent: dict[str, int] = Counter()
    per_phase: dict[str, list[int]] = {}
    hooks = ("map_for", "neutral_orders", "violations", "retaliation")
    originals = {name: getattr(rules, name) for name in hooks}

    def wrap(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def timed_hook(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter_ns()
            try:
                return original(*args, **kwargs)
            finally:
                spent[name] += time.perf_counter_ns() - start
        return timed_hook

    for name, original in originals.items():
        setattr(rules, name, wrap(name, original))
    try:
        for _ in range(rounds):
            for phase in phases:
                spent.clear()
                total = timed_ns(partial(run_phase, game_map, phase))
                for name in hooks:
                    per_phase.setdefault(name, []).append(spent.get(name, 0))
                per_phase.setdefault("whole adjudicate()", []).append(total)
    finally:
        for name in hooks:
            delattr(rules, name)  # back to the class's methods
    return {name: round(statistics.median(ns) / 1e3, 1) for name, ns in per_phase.items()}


def profile(game_map: GameMap, phases: Sequence[Phase], rounds: int, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        for phase in phases:
            run_phase(game_map, phase)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return out.getvalue()


# ---------------------------------------------------------------------------
# What the phases contain, and whether the bids took effect
# ---------------------------------------------------------------------------

def coverage(game_map: GameMap, phases: Sequence[Phase]) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    bids_on: Counter[str] = Counter()
    sample: list[str] = []
    convoys: list[str] = []
    changed = 0
    for phase in phases:
        resolution = run_phase(game_map, phase)
        neutral = {p for p in game_map.powers if is_neutral(game_map, p)}
        for r in resolution.results:
            if isinstance(r.order, Disband):
                counts["units destroyed by retaliation"] += 1
                continue
            kind = type(r.order).__name__.lower()
            who = "neutral" if r.power in neutral else "player"
            counts[f"{who} {kind} orders"] += 1
            if r.outcome is Outcome.ILLEGAL:
                counts[f"{who} illegal orders"] += 1
            if isinstance(r.order, Move):
                counts[f"{who} moves that {'succeed' if r.outcome is Outcome.SUCCEEDS else 'fail'}"
                       ] += 1
                if r.order.path or r.order.via_convoy:
                    counts[f"convoyed moves that "
                           f"{'succeed' if r.outcome is Outcome.SUCCEEDS else 'fail'}"] += 1
            if isinstance(r.order, Move) and (r.order.path or r.order.via_convoy) \
                    and len(convoys) < 6:
                convoys.append(f"{phase.label}: {r.power} {r.order} -> {r.outcome.value}")
            if who == "neutral" and not isinstance(r.order, Hold) and len(sample) < 12:
                sample.append(f"{phase.label}: {r.power} {r.order} -> {r.outcome.value}"
                              + (f" ({r.reason.describe()})" if r.reason else ""))
        won = {str(b.order) for b in resolution.bids if b.counted}
        for r in resolution.results:
            if r.power in neutral and not isinstance(r.order, Hold):
                counts["neutral orders other than hold: " + (
                    "won by bids" if str(r.order) in won else "default")] += 1
        counts["units dislodged"] += len(resolution.next.dislodged)
        counts["violations"] += len(resolution.violations)
        for b in resolution.bids:
            owner = phase.state.unit_in(b.bid.order.unit.location.partition("/")[0])
            nuclear = owner is not None and nuclear_powers(game_map).is_nuclear(owner.power)
            bids_on["nuclear" if nuclear else "minor"] += 1
            if b.counted:
                reasons["counted"] += 1
            elif b.why.startswith("over the cap"):
                reasons["Favor cap"] += 1
            else:
                reasons[b.why.split(":")[0]] += 1
        if phase.bids is not None:
            without = adjudicate(game_map, phase.state, phase.orders, {})
            if sorted(map(str, without.next.units)) != sorted(map(str, resolution.next.units)) \
                    or len(without.next.dislodged) != len(resolution.next.dislodged):
                changed += 1
    out: dict[str, Any] = {"orders and outcomes": dict(sorted(counts.items())),
                           "sample of convoyed moves": convoys}
    if reasons:
        out["bids"] = {"total": sum(reasons.values()), "on minor units": bids_on["minor"],
                       "on nuclear units": bids_on["nuclear"],
                       "fates": dict(reasons.most_common())}
        out["phases whose board the bids change"] = f"{changed} of {len(phases)}"
        out["sample of neutral orders (not holds)"] = sample
    return out


def describe(phases: Sequence[Phase]) -> dict[str, Any]:
    return {"phases": len(phases),
            "units per phase (median)": statistics.median(p.units for p in phases),
            "orders per phase (median)": statistics.median(p.order_count for p in phases),
            "bids per phase (median)": statistics.median(p.bid_count for p in phases),
            "phase names": names(phases),
            "fingerprint": fingerprint(phases)}


def fingerprint(phases: Sequence[Phase]) -> str:
    """A digest of the positions and texts: the same seed gives the same one."""
    digest = hashlib.sha256()
    for phase in phases:
        units = sorted(f"{u.power} {u}" for u in phase.state.units)
        digest.update(json.dumps([phase.label, units, phase.order_texts,
                                  phase.bid_texts], sort_keys=True).encode())
    return digest.hexdigest()[:12]


def names(phases: Sequence[Phase]) -> dict[str, int] | str:
    found = Counter(p.label.split()[-1] for p in phases)
    if len(found) <= 8:
        return dict(found)
    return f"{len(found)} from {phases[0].label.split()[-1]} to {phases[-1].label.split()[-1]}"


def machine() -> dict[str, Any]:
    import os

    return {"cpus": os.cpu_count(), "cpu": cpu_model(), "python": platform.python_version(),
            "engine": str(Path(engine.__file__).parent)}


def per_phase_table(phases: Sequence[Phase], times: Sequence[Sequence[int]]) -> Iterator[str]:
    yield f"  {'phase':<22} {'units':>5} {'orders':>6} {'bids':>5} {'median ms':>10}"
    for phase, ns in zip(phases, times, strict=True):
        yield (f"  {phase.label:<22} {phase.units:>5} {phase.order_count:>6} "
               f"{phase.bid_count:>5} {statistics.median(ns) / 1e6:>10.3f}")


# ---------------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=16,
                        help="movement phases per variant (16)")
    parser.add_argument("--years", type=int, default=2,
                        help="years per game: its Spring and Fall phases (2)")
    parser.add_argument("--repeat", type=int, default=50,
                        help="timed rounds over the phases (50)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--standard-phases", type=Path,
                        help="also time the standard movement phases bench/adjudication.py "
                             "saved with --save-phases (the README's standard figure)")
    parser.add_argument("--standard-repeat", type=int, default=3,
                        help="rounds over the saved standard phases (3)")
    parser.add_argument("--standard-only", action="store_true",
                        help="only the standard figures (runs on commits before Dissolution)")
    parser.add_argument("--quiet", action="store_true", help="no coverage or per-phase table")
    parser.add_argument("--profile", action="store_true",
                        help="also profile the Dissolution phases with cProfile")
    parser.add_argument("--top", type=int, default=25, help="profile lines to print (25)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    sets: dict[str, tuple[GameMap, list[Phase], int]] = {}
    standard = load_variant("standard")
    if not args.standard_only:
        dissolution = load_variant("dissolution")
        sets["dissolution"] = (dissolution, play(dissolution, args.phases, args.years,
                                                 args.seed), args.repeat)
    sets["standard"] = (standard, play(standard, args.phases, args.years, args.seed),
                        args.repeat)
    if args.standard_phases:
        sets["standard, saved phases"] = (standard, saved_standard_phases(args.standard_phases),
                                          args.standard_repeat)
    generated = time.perf_counter() - started

    summary: dict[str, Any] = {"machine": machine(), "args": {
        k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}}
    print(f"machine: {summary['machine']}")
    print(f"phases generated in {generated:.1f} s")
    times = time_rounds(sets)
    for name, (game_map, phases, _) in sets.items():
        flat = [ns for per in times[name] for ns in per]
        summary[name] = {"phases": describe(phases), "adjudicate": figures(flat)}
        if name != "standard, saved phases":
            parse = time_parsing(game_map, phases, max(1, min(args.repeat, 10)))
            summary[name]["parse orders and bids"] = figures(parse)
        print(f"\n{name}: {describe(phases)}")
        print(f"  adjudicate(): {summary[name]['adjudicate']}")
        if "parse orders and bids" in summary[name]:
            print(f"  parse orders and bids: {summary[name]['parse orders and bids']}")
        if args.quiet or name == "standard, saved phases":
            continue
        for line in per_phase_table(phases, times[name]):
            print(line)
        found = coverage(game_map, phases)
        summary[name]["coverage"] = found
        for key, value in found.items():
            if isinstance(value, list):
                print(f"  {key}:")
                for item in value:
                    print(f"    {item}")
            else:
                print(f"  {key}: {value}")
    if "dissolution" in sets:
        game_map, phases, _ = sets["dissolution"]
        median = summary["dissolution"]["adjudicate"]["median_ms"]
        summary["target met"] = median <= TARGET_MS
        print(f"\nDissolution median {median} ms against the target of {TARGET_MS} ms: "
              f"{'met' if median <= TARGET_MS else 'NOT met'}")
        found_stages = stages(game_map, phases, max(1, min(args.repeat, 10)))
        summary["dissolution"]["stages_us"] = found_stages
        print(f"Dissolution hooks, median µs per phase: {found_stages}")
        if args.profile:
            print(profile(game_map, phases, max(1, min(args.repeat, 10)), args.top))
    print(f"\nwhole run: {time.perf_counter() - started:.1f} s")
    write_json(args.json, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
