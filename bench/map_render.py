"""How long one phase's maps take to draw: for the standard game, SVG, PNG,
and what a results mail needs (the PNG and the SVG); then, per variant,
each map a results mail carries.

The positions are those of random games played with the engine (every
power gives random legal orders each phase), so the maps carry the usual
mix of moves, supports, convoys, retreats and builds. The board is built
and its unchanging layer drawn before timing (the judge does that once per
process); each standard map is then timed once, with the garbage collector
off. Target: PNG under 300 ms median (issue 4).

Per variant (``--variants``; each map timed ``--rounds`` times in a warm
process, the median of them all): the standard map; Dissolution's
geographic map and its Favor map (ten players' games); Intercontinental's
pictures (the overview and a picture per view); the standard map on a
Diplomap board changed 20 times. Issue 26's goals: standard PNG and SVG
20 ms, Dissolution's two maps 60 ms, Intercontinental's pictures 100 ms.
Every picture is checked (a PNG of the width a mail shows, more than a few
colours): the script stops with an error, printing no figure, if one is not.

Usage::

    .venv/bin/python bench/map_render.py --phases 200
    .venv/bin/python bench/map_render.py --phases 20 --variants dissolution intercontinental
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from cpu import cpu_model
from diplomap import changed_board
from PIL import Image
from service_common import random_orders

from engine import ways_to_play
from engine.adjustments import centre_counts
from engine.diplomap.in_force import apply_changes, with_diplomap
from engine.diplomap.state import DiplomapState
from engine.game import adjudicate
from engine.map import GameMap, UnitKind
from engine.orders import Build, Order, Retreat, UnitRef
from engine.phase import Phase, PhaseKind
from engine.state import GameState, Seat
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental import assignment
from judge.maps import Attachment, attachments, other_board_attachments
from judge.maps.board import PIXELS_WIDE
from judge.maps.png import COMPRESSOR
from judge.maps.render import render_png, render_svg, svg_to_png
from judge.maps.scene import Scene, scene_after
from parser.orders import OrderError, parse_order


def scenes(game_map: GameMap, count: int, seed: int,
           opening: GameState | None = None) -> list[Scene]:
    """``count`` maps from random games of up to ten years, from the
    variant's first position or ``opening``."""
    rng = random.Random(seed)
    found: list[Scene] = []
    while len(found) < count:
        state = opening or GameState.initial(game_map)
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


Draw = Callable[[Scene], tuple[Attachment, ...]]


def variant_maps(variant: str, phases: int, seed: int
                 ) -> tuple[GameMap, list[Scene], dict[str, Draw]]:
    """A variant's board, its scenes, and each of its mail's maps by name."""
    if variant == "dissolution":
        game_map = load_variant("dissolution")
        maps = scenes(game_map, phases, seed, ways_to_play.setup(game_map, 10))
        return game_map, maps, {
            "geographic map (png + svg)": lambda s: attachments(game_map, s),
            "Favor map (png + svg)": lambda s: other_board_attachments(game_map, s)}
    if variant == "intercontinental":
        game_map = load_variant("intercontinental")
        seats = assignment.seats(game_map, assignment.draw(seed))
        opening = rules_for(game_map).opening(game_map, GameState.initial(game_map).evolve(
            seats=tuple(Seat(group, powers) for group, powers in seats)))
        maps = [Scene("bench", opening), Scene("bench", opening.evolve(
            phase=Phase.parse("S1870M")))]  # Suez a canal
        return game_map, maps, {
            "pictures (overview and views)": lambda s: attachments(game_map, s)}
    if variant == "diplomap":
        game_map = with_diplomap(load_variant("standard"))
        changes = changed_board(game_map, 20, random.Random(seed))
        board = apply_changes(game_map, changes)
        opening = GameState.initial(game_map)
        state = opening.evolve(
            units=tuple(u for u in opening.units if u.province in board.provinces),
            owners=tuple((c, p) for c, p in opening.owners if c in board.provinces),
        ).with_part(DiplomapState(changes))
        maps = [Scene("bench", state.evolve(phase=Phase.parse(f"S{1901 + n}M")))
                for n in range(max(2, phases // 10))]
        return game_map, maps, {
            "changed board (png + svg)": lambda s: attachments(game_map, s)}
    game_map = load_variant(variant)
    return game_map, scenes(game_map, phases, seed), {
        "png + svg": lambda s: attachments(game_map, s)}


def checked(files: tuple[Attachment, ...], pngs: int = 1, svg: bool = True
            ) -> tuple[Attachment, ...]:
    """The mail's files, each PNG a picture PIXELS_WIDE wide with more than
    a few colours; SystemExit if not (a benchmark that stopped measuring)."""
    found = [data for _, kind, data in files if kind == "image/png"]
    if len(found) != pngs or svg != any(kind == "image/svg+xml" for _, kind, _ in files):
        raise SystemExit(f"map_render: {len(found)} PNGs drawn, not {pngs}, or no SVG")
    for data in found:
        image = Image.open(io.BytesIO(data))
        image.load()
        colours = image.convert("RGB").getcolors(64)
        if image.width != PIXELS_WIDE or image.height < 100 or (
                colours is not None and len(colours) < 8):
            raise SystemExit(f"map_render: a wrong picture ({image.width} x {image.height} "
                             f"pixels, {len(colours or ())} colours)")
    return files


def per_variant(variants: list[str], phases: int, rounds: int, seed: int
                ) -> dict[str, dict[str, Any]]:
    """Each variant's maps: median, p95 and max ms, every scene drawn
    ``rounds`` times after one warm round (boards and layers built)."""
    out: dict[str, dict[str, Any]] = {}
    for variant in variants:
        game_map, maps, kinds = variant_maps(variant, phases, seed)
        # Intercontinental's mail: an overview and a picture per view, no whole SVG
        pngs, svg = 1 + len(game_map.drawing.views), not game_map.drawing.views
        figures: dict[str, Any] = {"maps": len(maps)}
        for name, draw in kinds.items():
            start = time.perf_counter()
            drawn = [draw(s) for s in maps]  # the warm round, checked after
            figures[f"{name}: first round, boards built (ms)"] = round(
                (time.perf_counter() - start) * 1000, 1)
            sizes = [sum(len(data) for _, kind, data in checked(files, pngs, svg)
                         if kind == "image/png") for files in drawn]
            figures[name] = summary([timed(lambda s=s, draw=draw: draw(s))
                                     for _ in range(rounds) for s in maps])
            figures[f"{name}: PNG KB (median)"] = round(statistics.median(sizes) / 1024, 1)
        out[variant] = figures
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game_map = load_variant("standard")
    maps = scenes(game_map, args.phases, args.seed)
    start = time.perf_counter()
    render_png(game_map, maps[0])  # the board, its shapes and its layer, once
    first = (time.perf_counter() - start) * 1000
    results: dict[str, Any] = {
        "machine": cpu_model(),
        "png compression": COMPRESSOR,  # isal or zlib: the figures differ by about half
        "phases": len(maps),
        "first_map_ms (board built)": round(first, 1),
        "svg": summary([timed(lambda s=s: render_svg(game_map, s)) for s in maps]),
        "png": summary([timed(lambda s=s: render_png(game_map, s)) for s in maps]),
        "png, the whole SVG through cairosvg (no board layer; for comparison)": summary(
            [timed(lambda s=s: svg_to_png(render_svg(game_map, s))) for s in maps[:50]]),
        "results mail (png + svg)": summary(
            [timed(lambda s=s: attachments(game_map, s)) for s in maps]),
    }
    sizes = [len(checked(attachments(game_map, s))[0][2]) for s in maps[:20]]
    results["png_kb_median"] = round(statistics.median(sizes) / 1024, 1)
    results["per variant, each mail's maps"] = per_variant(
        args.variants, min(args.phases, 20), args.rounds, args.seed)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for key, value in results.items():
            if isinstance(value, dict) and key.startswith("per variant"):
                for variant, figures in value.items():
                    print(f"{variant}:")
                    for name, figure in figures.items():
                        print(f"  {name}: {figure}")
            else:
                print(f"{key}: {value}")
    return 0


VARIANTS = ("standard", "dissolution", "intercontinental", "diplomap")


if __name__ == "__main__":
    raise SystemExit(main())
