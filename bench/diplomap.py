"""How long a Diplomap movement phase takes to adjudicate on a board that
has already changed 20 times.

Target (issue 16): a standard-map movement phase with map orders, after 20
changes already in the state, median at most 2 ms on this machine.

The 20 changes are valid Draws and Erases picked at random (``--seed``) and
carried out one by one with no units on the board; the phase then has the
opening units that still stand on unchanged provinces, each ordered to move
to a random neighbour or to hold, and a Draw and an Erase from three powers.
``engine.game.adjudicate`` is timed (warm first, gc off) ``--repeat`` times;
the board in force is cached (it was built when the orders were read), the
board after the phase's changes is not (a deadline meets it first), so the
figure is the phase's own work: the moves, the map orders checked and
carried out, the new board's map built, the units moved onto it and the
retreats mapped. The plain opening phase is timed beside it as a reference
(the host's speed varies; the ratio does not).

Usage::

    .venv/bin/python bench/diplomap.py
    .venv/bin/python bench/diplomap.py --repeat 500 --seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT, HERE):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from cpu import cpu_model  # noqa: E402
from timing import figures, timed_ns  # noqa: E402

from engine.diplomap.adjudication import adjudicate_map_orders  # noqa: E402
from engine.diplomap.in_force import apply_changes, forget, with_diplomap  # noqa: E402
from engine.diplomap.state import DiplomapState  # noqa: E402
from engine.diplomap.state import of as diplomap  # noqa: E402
from engine.diplomap.values import EDGE, Draw, Erase, MapChange, MapOrder, Side  # noqa: E402
from engine.game import adjudicate  # noqa: E402
from engine.map import GameMap, Terrain  # noqa: E402
from engine.orders import Hold, Move, Order, UnitRef  # noqa: E402
from engine.state import GameState  # noqa: E402
from engine.variant_file import load_variant  # noqa: E402


def random_order(board: GameMap, rng: random.Random) -> MapOrder:
    codes = sorted(c for c, p in board.provinces.items() if p.terrain is not Terrain.IMPASSABLE)
    code = rng.choice(codes)
    ring = board.rings[code]
    first, second = rng.choice(ring), rng.choice(ring)
    if rng.random() < 0.5:
        return Draw((code, first), (code, second), code if first == second else None,
                    Side(compass=rng.choice("NSEW")))
    if first == EDGE:
        first = next(n for n in ring if n != EDGE)
    return Erase((code, first))


def changed_board(game_map: GameMap, count: int, rng: random.Random
                  ) -> tuple[MapChange, ...]:
    state = GameState.initial(game_map).evolve(units=())
    changes: tuple[MapChange, ...] = ()
    while len(changes) < count:
        board = apply_changes(game_map, changes)
        outcome = adjudicate_map_orders(board, state, (), {"ENGLAND": [random_order(board, rng)]})
        changes = (*changes, *outcome.changes)[:count]
    return changes


def main() -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--repeat", type=int, default=300)
    args.add_argument("--seed", type=int, default=1)
    args.add_argument("--changes", type=int, default=20)
    opts = args.parse_args()
    rng = random.Random(opts.seed)
    game_map = with_diplomap(load_variant("standard"))
    changes = changed_board(game_map, opts.changes, rng)
    board = apply_changes(game_map, changes)
    opening = GameState.initial(game_map)
    units = tuple(u for u in opening.units if u.province in board.provinces)
    owners = tuple((c, p) for c, p in opening.owners if c in board.provinces)
    state = opening.evolve(units=units, owners=owners).with_part(DiplomapState(changes))
    orders = random_moves(board, state, rng)
    map_orders = {power: [random_order(board, rng), random_order(board, rng)]
                  for power in ("FRANCE", "RUSSIA", "TURKEY")}
    first = adjudicate(game_map, state, orders, map_orders=map_orders)
    plain_map, plain_state, plain_orders = plain_phase(rng)
    adjudicate(plain_map, plain_state, plain_orders)
    ns: list[int] = []
    plain_ns: list[int] = []
    made = diplomap(first.next).map_changes
    for _ in range(opts.repeat):  # interleaved: both see the host at the same speed
        forget(game_map, made)  # a deadline meets the board its changes make for the first time
        ns.append(timed_ns(lambda: adjudicate(game_map, state, orders, map_orders=map_orders)))
        plain_ns.append(timed_ns(lambda: adjudicate(plain_map, plain_state, plain_orders)))
    done = sum(r.succeeded for r in first.map_results)
    print(f"board: {len(changes)} changes, {len(board.provinces)} provinces; "
          f"{len(units)} units; {len(first.map_results)} map orders, {done} carried out")
    found, plain = figures(ns), figures(plain_ns)
    print(f"adjudicate, {opts.repeat} runs: median {found['median_ms']:.3f} ms, "
          f"p95 {found['p95_ms']:.3f} ms, max {found['max_ms']:.3f} ms ({cpu_model()})")
    print(f"the plain opening phase (22 units, no Diplomap), interleaved: median "
          f"{plain['median_ms']:.3f} ms; ratio {found['median_ms'] / plain['median_ms']:.1f}")
    return 0


def plain_phase(rng: random.Random) -> tuple[GameMap, GameState, dict[str, list[Order]]]:
    """A reference timed beside the Diplomap phase: the standard game's
    Spring 1901 with every unit moving at random or holding, no Diplomap.
    The host's speed varies (a shared VM); the ratio does not."""
    game_map = load_variant("standard")
    state = GameState.initial(game_map)
    return game_map, state, random_moves(game_map, state, rng)


def random_moves(board: GameMap, state: GameState, rng: random.Random
                 ) -> dict[str, list[Order]]:
    """Each unit moves to a random neighbour (70 %) or holds."""
    orders: dict[str, list[Order]] = {}
    for unit in state.units:
        near = sorted(board.neighbours(unit.kind, unit.location))
        order: Order = Move(UnitRef(unit.location, unit.kind), rng.choice(near)) \
            if near and rng.random() < 0.7 else Hold(UnitRef(unit.location, unit.kind))
        orders.setdefault(unit.power, []).append(order)
    return orders


if __name__ == "__main__":
    raise SystemExit(main())
