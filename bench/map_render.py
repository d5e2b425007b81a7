"""How long one standard phase takes to draw: SVG, PNG, and what a results
mail needs (the PNG and the SVG).

The positions are those of random games played with the engine (every
power gives random legal orders each phase), so the maps carry the usual
mix of moves, supports, convoys, retreats and builds. The board is built
and its unchanging layer drawn before timing (the judge does that once per
process); each map is then timed once, with the garbage collector off.
Target: PNG under 300 ms median (issue 4).

Usage::

    .venv/bin/python bench/map_render.py --phases 200
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from cpu import cpu_model
from service_common import random_orders

from engine.adjustments import centre_counts
from engine.game import adjudicate
from engine.map import GameMap, UnitKind
from engine.orders import Build, Order, Retreat, UnitRef
from engine.phase import PhaseKind
from engine.state import GameState
from engine.variant_file import load_variant
from judge.maps import attachments
from judge.maps.render import render_png, render_svg, svg_to_png
from judge.maps.scene import Scene, scene_after
from parser.orders import OrderError, parse_order


def scenes(game_map: GameMap, count: int, seed: int) -> list[Scene]:
    """``count`` maps from random games of up to ten years."""
    rng = random.Random(seed)
    found: list[Scene] = []
    while len(found) < count:
        state = GameState.initial(game_map)
        for _ in range(30):
            orders = phase_orders(game_map, state, rng)
            resolution = adjudicate(game_map, state, orders)
            found.append(scene_after("bench", resolution))
            state = resolution.next
            if resolution.winner or len(found) == count:
                break
    return found


def phase_orders(game_map: GameMap, state: GameState, rng: random.Random
                 ) -> dict[str, list[Order]]:
    """Random legal moves and supports; each dislodged unit retreats where
    it may; each power builds on its free home centres."""
    orders: dict[str, list[Order]] = {}
    kind = state.phase.kind
    if kind is PhaseKind.MOVEMENT:
        for power in game_map.powers:
            for text in random_orders(game_map, state, power, rng):
                order = parse_order(text, game_map)
                if not isinstance(order, OrderError):
                    orders.setdefault(power, []).append(order)
    elif kind is PhaseKind.RETREAT:
        for d in state.dislodged:
            if d.retreats:
                orders.setdefault(d.unit.power, []).append(
                    Retreat(UnitRef(d.unit.location, d.unit.kind), rng.choice(d.retreats)))
    else:
        counts = centre_counts(game_map, state)
        taken = {u.province for u in state.units}
        owners = state.owner_of
        for power, info in game_map.powers.items():
            free = [c for c in info.home if c not in taken and owners.get(c) == power]
            due = counts.get(power, 0) - len(state.units_of(power))
            for centre in free[:max(due, 0)]:
                fleet = game_map.is_coastal(centre) and not game_map.provinces[centre].coasts
                orders.setdefault(power, []).append(
                    Build(centre, UnitKind.FLEET if fleet and rng.random() < 0.5
                          else UnitKind.ARMY))
    return orders


def timed(call: Callable[[], Any]) -> float:
    gc.disable()
    try:
        start = time.perf_counter()
        call()
        return (time.perf_counter() - start) * 1000
    finally:
        gc.enable()


def summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median_ms": round(statistics.median(ordered), 1),
            "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1], 1),
            "max_ms": round(ordered[-1], 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game_map = load_variant("standard")
    maps = scenes(game_map, args.phases, args.seed)
    start = time.perf_counter()
    render_png(game_map, maps[0])  # the board, its shapes and its layer, once
    first = (time.perf_counter() - start) * 1000
    results = {
        "machine": cpu_model(),
        "phases": len(maps),
        "first_map_ms (board built)": round(first, 1),
        "svg": summary([timed(lambda s=s: render_svg(game_map, s)) for s in maps]),
        "png": summary([timed(lambda s=s: render_png(game_map, s)) for s in maps]),
        "png, the whole SVG through cairosvg (no board layer; for comparison)": summary(
            [timed(lambda s=s: svg_to_png(render_svg(game_map, s))) for s in maps[:50]]),
        "results mail (png + svg)": summary(
            [timed(lambda s=s: attachments(game_map, s)) for s in maps]),
    }
    sizes = [len(attachments(game_map, s)[0][2]) for s in maps[:20]]
    results["png_kb_median"] = round(statistics.median(sizes) / 1024, 1)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
