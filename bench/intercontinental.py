"""How long an Intercontinental movement phase takes to adjudicate, with all
eight colour groups' orders and Diplomacy Point bids.

Target (issue 15): a movement phase with all 8 groups' orders (about 200
units, minors and affiliates included) and bids, median at most 10 ms.

The phases are those of the random-play test's games
(tests/engine/variants/intercontinental/random_play.py): the colour groups
drawn from a seed (§3), then from Spring 1865 every major power's units
ordered at random (moves, supports of the moves drawn, holds), each group
bidding about its pool on minors' and affiliates' orders (some bids over
the 2 DP cap, the pool, or void by §11.2), retreats and Winter builds,
through the Winter of ``--last-year``. Every movement phase of those games
is timed: the opening's and the mid-game's, the canal open or not.

``engine.game.adjudicate`` is timed on each phase, every phase once before
timing (the board's caches, the facts file), then ``--repeat`` rounds; each
call once with ``time.perf_counter_ns()`` and the garbage collector off, as
bench/timing.py and bench/dissolution.py do.

Usage::

    .venv/bin/python bench/intercontinental.py
    .venv/bin/python bench/intercontinental.py --games 2 --repeat 200 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import io
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.engine

from cpu import cpu_model
from timing import figures, timed_ns

from engine.bids import Bid
from engine.game import adjudicate
from engine.orders import Order
from engine.phase import PhaseKind
from engine.state import GameState
from tests.engine.variants.intercontinental.random_play import (
    MAJORS,
    MAP,
    opening,
    turn,
)

TARGET_MS = 10.0


@dataclass(frozen=True)
class Phase:
    label: str
    state: GameState
    orders: dict[str, list[Order]]
    bids: dict[str, list[Bid]]

    def run(self) -> None:
        adjudicate(MAP, self.state, self.orders, self.bids)


def play(games: int, last_year: int, seed: int) -> list[Phase]:
    """Every movement phase of ``games`` random games."""
    found = []
    for game in range(seed, seed + games):
        rng = random.Random(f"intercontinental bench:{game}")
        state = opening(game)
        while state.phase.year <= last_year:
            drawn = turn(rng, state)
            if state.phase.kind is PhaseKind.MOVEMENT:
                found.append(Phase(f"game {game} {state.phase}", state,
                                   drawn.orders, drawn.bids))
            resolution = adjudicate(MAP, state, drawn.orders, drawn.bids)
            if resolution.winner:
                break
            state = resolution.next
    return found


def describe(phases: Sequence[Phase]) -> str:
    units = [len(p.state.units) for p in phases]
    majors = [sum(1 for u in p.state.units if u.power in MAJORS) for p in phases]
    orders = [sum(len(o) for o in p.orders.values()) for p in phases]
    bids = [sum(len(b) for b in p.bids.values()) for p in phases]
    return (f"{len(phases)} movement phases; a phase, median: {statistics.median(units):.0f} "
            f"units ({statistics.median(majors):.0f} the majors'), "
            f"{statistics.median(orders):.0f} orders, {statistics.median(bids):.0f} bids")


def profile(phases: Sequence[Phase], rounds: int, top: int) -> str:
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        for phase in phases:
            phase.run()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2, help="random games (2)")
    parser.add_argument("--last-year", type=int, default=1871,
                        help="the games' last year (1871)")
    parser.add_argument("--repeat", type=int, default=200, help="timed rounds (200)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (1)")
    parser.add_argument("--profile", action="store_true", help="also profile with cProfile")
    parser.add_argument("--top", type=int, default=30, help="profile lines to print (30)")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    phases = play(args.games, args.last_year, args.seed)
    print(f"machine: {platform.node()}, {cpu_model()}, Python {platform.python_version()}")
    print(f"phases generated in {time.perf_counter() - started:.1f} s: {describe(phases)}")
    for phase in phases:  # warm: the canal's board, the facts file, the map's caches
        phase.run()
    times: list[list[int]] = [[] for _ in phases]
    for _ in range(args.repeat):
        for i, phase in enumerate(phases):
            times[i].append(timed_ns(phase.run))
    flat = [ns for per in times for ns in per]
    result = figures(flat)
    print(f"adjudicate(): {result}")
    medians = sorted((statistics.median(ns) / 1e6, p.label) for p, ns in zip(phases, times,
                                                                             strict=True))
    print(f"per phase, medians: {medians[0][0]:.2f} ms ({medians[0][1]}) to "
          f"{medians[-1][0]:.2f} ms ({medians[-1][1]})")
    met = result["median_ms"] <= TARGET_MS
    print(f"median {result['median_ms']} ms against the target of {TARGET_MS} ms: "
          f"{'met' if met else 'NOT met'}")
    if args.profile:
        print(profile(phases, max(1, min(args.repeat, 5)), args.top))
    print(f"whole run: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
