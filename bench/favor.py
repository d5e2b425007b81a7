"""How long Dissolution's Winter (ten players' adjustments and Embassy orders
on the Favor map) and its movement phases with kicks take to adjudicate.

Target (issue "Dissolution part 2"): a Winter phase with ten players'
adjustments and Embassy orders, and a movement phase with kicks, each
median at most 2 ms on this machine.

The phases come from seeded games played from the opening with Embassies
(``engine.ways_to_play.setup(game_map, 10)``), so a seed always gives the
same ones. In Spring and Autumn the players order and bid as in
bench/dissolution.py, and more often attack where it offends a nuclear power
(§11.6): nuclear units, and units in or next to nuclear territory. Before
each Winter most players are made to build or remove (units taken off their
centres, or armies put next to their units); each writes its adjustments
(armies, fleets, now and then a wing, WAIVE, removals) and an order for
each of its five Embassies: up to three moves within the slice (a few try
more), supports of moves and holds, also across slice borders and out of a
Perimeter (``E I1p S PA I0z - I1q``), holds. Kicked Embassies mostly hold;
the other required holds (§11.5.3) are not known to the players. The games
go on from the Winters so benchmarked.

All orders are text read by ``parser.parse_order`` before the timing; then
``engine.game.adjudicate`` is timed on both sets as bench/dissolution.py does
(warm first, ``--repeat`` rounds, the sets taking turns, gc off).

Usage::

    .venv/bin/python bench/favor.py
    .venv/bin/python bench/favor.py --games 8 --years 5 --repeat 30 --profile
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT, HERE):  # the judge's packages, and this script's sibling modules
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import dissolution as bd  # noqa: E402
from timing import write_json  # noqa: E402

from engine import ways_to_play  # noqa: E402
from engine.adjustments import adjustment_due  # noqa: E402
from engine.game import adjudicate  # noqa: E402
from engine.map import GameMap, Terrain, UnitKind  # noqa: E402
from engine.orders import Build, Move, Remove, Retreat, Waive  # noqa: E402
from engine.outcomes import Outcome, Why  # noqa: E402
from engine.phase import PhaseKind  # noqa: E402
from engine.state import GameState  # noqa: E402
from engine.units import Unit  # noqa: E402
from engine.variant_file import load_variant  # noqa: E402
from engine.variants import rules_for  # noqa: E402
from engine.variants.dissolution.favor_board import FavorBoard, favor_board  # noqa: E402
from engine.variants.dissolution.nuclear import nuclear_powers  # noqa: E402
from engine.variants.dissolution.state import of as dissolution  # noqa: E402

TARGET_MS = 2.0
HOOKS = {"Winter": ("winter_orders",),  # the Embassies' orders and retreats
         "movement with kicks": ("neutral_orders", "violations", "after_movement",
                                 "retaliation")}  # after_movement: the kicks


# -- Spring and Autumn: attacks that offend nuclear powers -------------------

class KickingPlanner(bd.Planner):
    """bench/dissolution.py's players, more eager to attack nuclear units
    and units in or next to nuclear territory (§11.6.1-§11.6.3)."""

    def __init__(self, game_map: GameMap, state: GameState, rng: random.Random) -> None:
        super().__init__(game_map, state, rng, bidding=True)
        self.nuclear = nuclear_powers(game_map)
        territory = set(self.nuclear.territory(game_map))
        near = territory | {n for t in territory for n in game_map.province_graph.get(t, ())}
        self.sensitive = {p for p in near if game_map.provinces[p].terrain is not Terrain.WATER}

    def first(self, unit: Unit) -> None:
        if unit.kind in (UnitKind.ARMY, UnitKind.FLEET):
            places = (self.map.army_moves[unit.province] if unit.kind is UnitKind.ARMY
                      else self.map.fleet_moves.get(unit.location, frozenset()))
            nuclear, exposed = [], []
            for dest in sorted(places):
                other = self.units.get(dest.partition("/")[0])
                if other is None or other.power == unit.power:
                    continue
                if self.nuclear.is_nuclear(other.power):
                    nuclear.append(dest)
                elif other.province in self.sensitive:
                    exposed.append(dest)
            roll = self.rng.random()
            targets = nuclear if nuclear and roll < 0.5 else exposed if roll < 0.6 else []
            if targets:
                self.orders[unit.province] = Move(bd.ref(unit), self.rng.choice(targets))
                return
        super().first(unit)


# -- Winter: most players adjust, every player orders its Embassies ----------

def unbalance(game_map: GameMap, state: GameState, rng: random.Random) -> GameState:
    """The Winter position with, for most players, units taken off its
    centres (builds) or armies added next to its units (removals)."""
    units = list(state.units)
    occupied = {u.province for u in units}
    centres = game_map.supply_centres
    for power in bd.players(game_map):
        mine = sorted((u for u in units if u.power == power), key=lambda u: u.province)
        if not mine or power in dissolution(state).exiles:
            continue
        roll, count = rng.random(), rng.choice((1, 1, 2))
        if roll < 0.45 and len(mine) > count:
            on_centres = [u for u in mine if u.province in centres] or mine
            for unit in rng.sample(on_centres, min(count, len(on_centres))):
                units.remove(unit)
                occupied.discard(unit.province)
        elif roll < 0.85:
            for _ in range(count):
                free = sorted({p for u in mine for p in game_map.army_moves.get(u.province, ())
                               if p not in occupied and game_map.can_stand(UnitKind.ARMY, p)
                               and p not in state.closed})
                if free:
                    place = rng.choice(free)
                    units.append(Unit(power, UnitKind.ARMY, place))
                    occupied.add(place)
    return state.evolve(units=tuple(units))


def adjustment_texts(game_map: GameMap, state: GameState, power: str,
                     rng: random.Random) -> list[str]:
    """Builds (now and then a wing, or WAIVE) or removals, as text."""
    due = adjustment_due(game_map, state, power)
    if due < 0:
        mine = sorted(state.units_of(power), key=lambda u: u.province)
        return [f"Remove {u.kind.value} {u.location.title()}"
                for u in rng.sample(mine, min(-due, len(mine)))]
    occupied = {u.province for u in state.units}
    owners = state.owner_of
    sites = sorted(c for c in bd.build_sites(game_map, state, power)
                   if owners.get(c) == power and c not in occupied)
    rng.shuffle(sites)
    out = []
    for centre in sites[:due]:
        roll = rng.random()
        if roll < 0.12 and game_map.can_stand(UnitKind.WING, centre):
            kind = UnitKind.WING  # refused under 12 points or with a wing already (§4.4)
        elif roll < 0.45 and game_map.is_coastal(centre) and not game_map.provinces[centre].coasts:
            kind = UnitKind.FLEET
        else:
            kind = UnitKind.ARMY
        out.append(f"Build {kind.value} {centre.title()}")
    if out and rng.random() < 0.2:
        out[-1] = "WAIVE"  # one build waived
    return out


class EmbassyPlanner:
    """Every player's orders for its five Embassies in one Winter."""

    def __init__(self, game_map: GameMap, board: FavorBoard, state: GameState,
                 rng: random.Random) -> None:
        self.map, self.board, self.state, self.rng = game_map, board, state, rng
        self.at = {space: power for power, _, space in dissolution(state).embassies  # hex -> power
                   if not board.spaces[space].is_perimeter}
        self.moves: dict[tuple[str, str], str] = {}  # (power, origin) -> destination

    def plan(self) -> dict[str, list[str]]:
        by_power: dict[str, list[tuple[str, str]]] = {}
        for power, nuclear, space in dissolution(self.state).embassies:
            by_power.setdefault(power, []).append((nuclear, space))
        for power in sorted(by_power):
            self.choose_moves(power, by_power[power])
        texts: dict[str, list[str]] = {}
        for power in sorted(by_power):
            for _, space in sorted(by_power[power]):
                dest = self.moves.get((power, space))
                texts.setdefault(power, []).append(
                    f"E {space} - {dest}" if dest else self.other(power, space))
        return texts

    def choose_moves(self, power: str, embassies: list[tuple[str, str]]) -> None:
        """Up to three moves (a few players try four), towards higher values
        and into other Embassies' hexes; kicked Embassies mostly hold."""
        rng = self.rng
        tries = rng.choice((2, 3, 3, 3, 3, 3, 4))
        order = sorted(embassies)
        rng.shuffle(order)
        made = 0
        for nuclear, space in order:
            if made >= tries or rng.random() > 0.6:
                continue
            if (power, nuclear) in dissolution(self.state).kicked and rng.random() < 0.6:
                continue  # they know this one must hold (§11.5.3.1)
            here = self.board.spaces[space].value
            options = sorted(self.board.moves(space))
            weights = [(1 + max(0, self.board.spaces[d].value - here)) ** 2
                       * (3.0 if d in self.at else 1.0)
                       * (0.2 if self.board.spaces[d].is_perimeter else 1.0) for d in options]
            if options:
                self.moves[(power, space)] = rng.choices(options, weights)[0]
                made += 1

    def other(self, power: str, space: str) -> str:
        """A support (of a move, or of a hold) or a hold."""
        rng = self.rng
        near = self.board.neighbours[space]
        if self.board.spaces[space].is_perimeter:
            if rng.random() < 0.08 and near:  # refused: no support from a Perimeter
                return f"E {space} S {sorted(near)[0]}"
            return f"E {space} H"
        weighted: list[tuple[float, str]] = [(0.6, f"E {space} H")]
        for (mover, origin), dest in sorted(self.moves.items()):
            if dest not in near or dest == space or self.at.get(dest) == power:
                continue
            weight = 5.0 if mover == power else 3.0 if dest in self.at else 0.8
            if self.board.spaces[origin].is_perimeter:
                # the power must be named (§11.5.2); now and then it is forgotten
                who = "" if rng.random() < 0.12 else f"{self.map.powers[mover].letter} "
                weighted.append((weight, f"E {space} S {who}{origin} - {dest}"))
            else:
                weighted.append((weight, f"E {space} S {origin} - {dest}"))
        for hex_ in sorted(near & self.at.keys()):
            owner = self.at[hex_]
            if (owner, hex_) not in self.moves:
                weighted.append((1.5 if owner == power else 0.3, f"E {space} S {hex_}"))
        return rng.choices([t for _, t in weighted], [w for w, _ in weighted])[0]


# -- The games ---------------------------------------------------------------

def play(game_map: GameMap, games: int, years: int, seed: int
         ) -> tuple[list[bd.Phase], list[bd.Phase]]:
    """The Winter phases and the movement phases of ``games`` games."""
    rng = random.Random(f"favor:{seed}")
    board = favor_board(game_map)
    winters: list[bd.Phase] = []
    movements: list[bd.Phase] = []
    for game in range(1, games + 1):
        state = ways_to_play.setup(game_map, 10)
        last_year = state.phase.year + years - 1
        while state.phase.year <= last_year:
            label = f"game {game} {state.phase}"
            if state.phase.kind is PhaseKind.RETREAT:
                state = adjudicate(game_map, state, bd.other_orders(game_map, state, rng)).next
                continue
            if state.phase.kind is PhaseKind.MOVEMENT:
                planner = KickingPlanner(game_map, state, rng)
                phase = bd.Phase(label, state, planner.plan())
                phase.bid_texts = planner.bid_texts()
                movements.append(phase)
            else:
                state = unbalance(game_map, state, rng)
                texts = EmbassyPlanner(game_map, board, state, rng).plan()
                for power in bd.players(game_map):
                    texts.setdefault(power, [])[:0] = adjustment_texts(game_map, state,
                                                                       power, rng)
                phase = bd.Phase(label, state, texts)
                winters.append(phase)
            bd.parse_phase(game_map, phase)
            resolution = bd.run_phase(game_map, phase)
            if resolution.winner:
                break
            state = resolution.next
    return winters, movements


# -- What the phases contain -------------------------------------------------

_REASONS = (("must hold: kicked", "must hold: kicked this year (§11.5.3.1)"),
            ("has units in", "must hold: units in the territory (§11.5.3.2)"),
            ("retaliated", "must hold: retaliation this year (§11.5.3.3)"),
            ("at most 2", "move limit after a kick: 2 (§11.5.4)"),
            ("at most 3", "move limit: 3 (§11.5.4)"),
            ("Perimeter cannot support", "support from a Perimeter (§11.5.2)"),
            ("say whose", "support of an Embassy in a Perimeter, power not named (§11.5.2)"),
            ("not ordered to do that", "support of an order not given (or refused)"),
            ("a wing needs", "a wing needs 12 victory points (§4.4)"))


def reason_of(detail: str) -> str:
    for key, name in _REASONS:
        if key in detail:
            return name
    return re.sub(r"\b[A-Z]{2,}(_[A-Z]+)?\b", "P", re.sub(r"\b[A-Z][0-5][a-z]\b", "X", detail))


def winter_coverage(game_map: GameMap, phases: Sequence[bd.Phase]) -> dict[str, Any]:
    counts: Counter[str] = Counter()
    illegal: Counter[str] = Counter()
    adjusting: list[int] = []
    sample: list[str] = []
    for phase in phases:
        resolution = bd.run_phase(game_map, phase)
        powers = set()
        for r in resolution.results:
            unit = getattr(r.order, "unit", None)
            embassy = unit is not None and unit.kind is UnitKind.EMBASSY
            what = ("Embassy " if embassy else "") + type(r.order).__name__.lower()
            if bd.is_neutral(game_map, r.power):
                what = "neutral minor's rebuild (§4.5)"
            elif isinstance(r.order, (Build, Remove, Waive)):
                powers.add(r.power)
            if isinstance(r.order, Retreat) and r.reason and r.reason.why is Why.RETREATED:
                to = "a Perimeter" if r.order.dest.endswith("0z") else "a hex"
                counts[f"Embassies dislodged, retreated to {to}"] += 1
                if len(sample) < 6:
                    sample.append(f"{phase.label}: {r.power} {r.order} ({r.reason.describe()})")
                continue
            why = f" ({r.reason.why.value})" if embassy and r.outcome is Outcome.FAILS \
                and r.reason else ""
            counts[f"{what}: {r.outcome.value}{why}"] += 1
            if r.outcome in (Outcome.ILLEGAL, Outcome.VOID) and r.reason is not None:
                illegal[f"{r.outcome.value}, {'Embassy' if embassy else 'adjustment'}: "
                        + reason_of(r.reason.detail or r.reason.describe())] += 1
        adjusting.append(len(powers))
        written = [t for ts in phase.order_texts.values() for t in ts if t.startswith("E ")]
        counts["Embassy orders written"] += len(written)
        counts["Embassy orders written: holds"] += sum(1 for t in written if t.endswith(" H"))
        counts["Embassies on another space after the Winter"] += sum(
            1 for a, b in zip(sorted(dissolution(phase.state).embassies),
                              sorted(dissolution(resolution.next).embassies),
                              strict=True) if a != b)
    return {"results": dict(sorted(counts.items())),
            "illegal and void orders by reason": dict(illegal.most_common()),
            "players with adjustments per Winter": adjusting,
            "sample of Embassy retreats": sample}


def movement_coverage(game_map: GameMap, phases: Sequence[bd.Phase]) -> dict[str, Any]:
    kinds: Counter[str] = Counter()
    per_phase: list[tuple[int, int]] = []
    to_perimeter = destroyed = 0
    sample: list[str] = []
    for phase in phases:
        resolution = bd.run_phase(game_map, phase)
        per_phase.append((len(resolution.violations), len(resolution.kicks)))
        for v in resolution.violations:
            kinds[v.kind + (" (via NATO)" if v.via else "")] += 1
            if len(sample) < 6:
                sample.append(f"{phase.label}: {v.describe()}")
        to_perimeter += sum(1 for k in resolution.kicks if k.to.endswith("0z"))
        destroyed += sum(1 for r in resolution.results if r.reason is not None
                         and r.reason.why is Why.RETALIATION)
    return {"violations, kicks per phase": " ".join(f"{v}/{k}" for v, k in per_phase),
            "phases with a kick": f"{sum(1 for _, k in per_phase if k)} of {len(phases)}",
            "violations": sum(v for v, _ in per_phase), "kicks": sum(k for _, k in per_phase),
            "violations by kind": dict(kinds.most_common()),
            "kicks to a Perimeter": to_perimeter,
            "units destroyed by retaliation in these phases": destroyed,
            "sample of violations": sample}


def hook_times(game_map: GameMap, phases: Sequence[bd.Phase], rounds: int,
               hooks: Sequence[str]) -> dict[str, float]:
    """Median µs per phase of some of the rules' hooks, timed by wrapping
    them on the rules object (a separate pass, as bench/dissolution.py does)."""
    rules = rules_for(game_map)
    spent: Counter[str] = Counter()
    per_phase: dict[str, list[int]] = {name: [] for name in (*hooks, "whole adjudicate()")}

    def wrap(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def timed_hook(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter_ns()
            out = original(*args, **kwargs)
            spent[name] += time.perf_counter_ns() - start
            return out
        return timed_hook

    for name in hooks:
        setattr(rules, name, wrap(name, getattr(rules, name)))
    try:
        for _ in range(rounds):
            for phase in phases:
                spent.clear()
                per_phase["whole adjudicate()"].append(
                    bd.timed_ns(partial(bd.run_phase, game_map, phase)))
                for name in hooks:
                    per_phase[name].append(spent.get(name, 0))
    finally:
        for name in hooks:
            delattr(rules, name)  # back to the class's methods
    return {name: round(statistics.median(ns) / 1e3, 1) for name, ns in per_phase.items()}


def show(found: dict[str, Any]) -> None:
    for key, value in found.items():
        if isinstance(value, list) and value and isinstance(value[0], str):
            print(f"  {key}:" + "".join(f"\n    {item}" for item in value))
        else:
            print(f"  {key}: {value}")


# ---------------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games played (6)")
    parser.add_argument("--years", type=int, default=4, help="years per game (4)")
    parser.add_argument("--repeat", type=int, default=50, help="timed rounds (50)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--quiet", action="store_true", help="no coverage or per-phase table")
    parser.add_argument("--profile", action="store_true", help="also profile with cProfile")
    parser.add_argument("--top", type=int, default=25, help="profile lines to print (25)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    game_map = load_variant("dissolution")
    winters, movements = play(game_map, args.games, args.years, args.seed)
    sets = {"Winter": (game_map, winters, args.repeat),
            "movement with kicks": (game_map, movements, args.repeat)}
    summary: dict[str, Any] = {"machine": bd.machine(), "args": {
        k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}}
    print(f"machine: {summary['machine']}")
    print(f"phases generated in {time.perf_counter() - started:.1f} s")
    times = bd.time_rounds(sets)
    for name, (_, phases, _) in sets.items():
        flat = [ns for per in times[name] for ns in per]
        described = bd.describe(phases)
        if name == "Winter":
            del described["bids per phase (median)"]
        summary[name] = {"phases": described, "adjudicate": bd.figures(flat)}
        print(f"\n{name}: {described}")
        print(f"  adjudicate(): {summary[name]['adjudicate']}")
        if args.quiet:
            continue
        for line in bd.per_phase_table(phases, times[name]):
            print(line)
        found = (winter_coverage if name == "Winter" else movement_coverage)(game_map, phases)
        summary[name]["coverage"] = found
        show(found)
    print()
    for name, (_, phases, _) in sets.items():
        median = summary[name]["adjudicate"]["median_ms"]
        summary[name]["target met"] = median <= TARGET_MS
        print(f"{name}: median {median} ms, p95 {summary[name]['adjudicate']['p95_ms']} ms, "
              f"against the target of {TARGET_MS} ms: "
              f"{'met' if median <= TARGET_MS else 'NOT met'}")
        hooks = hook_times(game_map, phases, max(1, min(args.repeat, 10)), HOOKS[name])
        summary[name]["hooks_us"] = hooks
        print(f"  rules hooks, median µs per phase: {hooks}")
    if args.profile:
        for name, (_, phases, _) in sets.items():
            print(f"\nprofile, {name}:")
            print(bd.profile(game_map, phases, max(1, min(args.repeat, 10)), args.top))
    print(f"\nwhole run: {time.perf_counter() - started:.1f} s")
    write_json(args.json, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
