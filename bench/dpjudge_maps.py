"""DPJudge's maps (issue 27): importing every map of tools/dpjudge_maps/, and
a movement phase on the largest imported maps against the standard map.

1. Import: each ``.map`` read with its artwork from judge/maps/artwork/ as
   ``python -m judge.variant_import.ship`` reads it (the map a MAP line names,
   else the map's own name), through ``import_map``: the map and the files it
   USEs, the board, the powers, the artwork's shapes and the ``variant check``
   of the text. Nothing is written (ship's rings, added after writing, are not
   part of it). ``--rounds`` rounds over all maps; the whole import is each
   round's sum (median of rounds), each map the median of its rounds.
2. Movement phases, on ``standard`` (the yardstick) and the largest imported
   variants by provinces: the largest of all and the largest that is offered
   (``unfinished_reason`` None), if they differ. The phases are the first
   ``--years`` Springs and Falls of a random game from the variant's opening,
   every unit ordered (bench/service_common.py's random legal orders: moves,
   supports, holds). Timed:
   * ``engine.game.adjudicate`` in this process, each phase once to warm up,
     then ``--repeat`` rounds, each call once with the garbage collector off;
   * ``judge adjudicate --jsonl`` as a whole process (exec to exit) on the
     first movement phase, written in the JSON phase form (docs/cli.md), and
     on all the phases in one process: the median of ``--runs`` runs, the
     variants taking turns within a run;
   * ``render_png`` of each phase's results map, after one warm drawing (the
     board's layer is drawn once per process), ``min(--repeat, 5)`` rounds.
   Wall and processor time, the variants taking turns within each round
   (a shared machine's busy moments then fall on all of them alike).

Any failure (a map ship imports that does not import, an error line or a
missing line from ``judge adjudicate``, a PNG that is no picture) exits 1 with
the reason and no figure.

Usage::

    .venv/bin/python bench/dpjudge_maps.py
    .venv/bin/python bench/dpjudge_maps.py --rounds 1 --years 1 --repeat 2 --runs 1 \
        --variants standard pure
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (ROOT, HERE):  # the judge's packages, and this script's sibling modules
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from cpu import cpu_model  # noqa: E402
from map_render import phase_orders  # noqa: E402
from PIL import Image  # noqa: E402
from service_common import random_orders  # noqa: E402
from timing import figures  # noqa: E402

from engine.game import adjudicate  # noqa: E402
from engine.map import GameMap  # noqa: E402
from engine.orders import Order  # noqa: E402
from engine.phase import PhaseKind  # noqa: E402
from engine.state import GameState  # noqa: E402
from engine.variant_file import load_variant, shipped_variants, unfinished_reason  # noqa: E402
from engine.variants import opening_position  # noqa: E402
from judge.maps.postscript import ARTWORK  # noqa: E402
from judge.maps.render import render_png  # noqa: E402
from judge.maps.scene import scene_after  # noqa: E402
from judge.variant_import.cli import IMPORTED_MARK, shipped_folder  # noqa: E402
from judge.variant_import.importer import import_map, variant_name  # noqa: E402
from judge.variant_import.ship import SOURCES, TITLES, artwork_name  # noqa: E402
from parser.orders import OrderError, parse_order  # noqa: E402

CONSOLE_SCRIPT = "import sys; from judge.cli import main; sys.exit(main())"
TIMEOUT_S = 600
PNG_ROUNDS = 5  # render_png is slower: fewer rounds of it


class BenchFailure(Exception):
    """The benchmark stopped measuring: no figure may be reported."""


def timed(call: Callable[[], Any]) -> tuple[int, int]:
    """Wall and processor nanoseconds ``call()`` took, the garbage collector
    off. The processor time is steadier when other work shares the cores."""
    gc.disable()
    try:
        wall, cpu = time.perf_counter_ns(), time.process_time_ns()
        call()
        return time.perf_counter_ns() - wall, time.process_time_ns() - cpu
    finally:
        gc.enable()


def both(pairs: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """Wall figures (median, p95, max) and the processor time's median, in ms."""
    return {**figures([w for w, _ in pairs]),
            "cpu_median_ms": round(statistics.median(c for _, c in pairs) / 1e6, 4)}


# -- 1. importing -----------------------------------------------------------------

def shipped_imports(folder: Path | None = None) -> set[str]:
    """The variants ship writes: those whose shipped file says it was imported."""
    folder = folder or shipped_folder()
    return {p.stem for p in folder.glob("*.toml")
            if IMPORTED_MARK in p.read_text(encoding="utf-8")}


def import_one(path: Path) -> bool:
    """Import one map as ship does, writing nothing; whether it gave a variant."""
    art = ARTWORK / f"{artwork_name(path)}.ps"
    name = variant_name(path)
    result = import_map(path, art if art.is_file() else None, name=name,
                        title=TITLES.get(name))
    return result.text is not None


def time_imports(sources: Path, rounds: int, must_import: set[str]) -> dict[str, Any]:
    """Every map imported ``rounds`` times: the whole import and each map's
    median; BenchFailure if a map in ``must_import`` gives no variant."""
    maps = sorted(sources.glob("*.map"))
    if not maps:
        raise BenchFailure(f"no .map files in {sources}")
    per_map: dict[str, list[float]] = {p.stem: [] for p in maps}
    wholes, cpus = [], []
    refused: set[str] = set()
    for _ in range(rounds):
        whole = cpu = 0
        for path in maps:
            ok = True

            def run(path: Path = path) -> None:
                nonlocal ok
                ok = import_one(path)
            ns, cpu_ns = timed(run)
            if not ok:
                refused.add(variant_name(path))
            whole += ns
            cpu += cpu_ns
            per_map[path.stem].append(ns / 1e6)
        wholes.append(whole / 1e9)
        cpus.append(cpu / 1e9)
    failed = sorted(refused & must_import)
    if failed:
        raise BenchFailure(f"maps ship imports gave no variant: {', '.join(failed)}")
    medians = sorted(((statistics.median(ms), name) for name, ms in per_map.items()),
                     reverse=True)
    return {"maps": len(maps), "rounds": rounds,
            "whole import, s (median of rounds)": round(statistics.median(wholes), 2),
            "whole import, s (each round)": [round(w, 2) for w in wholes],
            "whole import, processor s (median of rounds)": round(statistics.median(cpus), 2),
            "per map, ms (median)": round(statistics.median(m for m, _ in medians), 1),
            "slowest maps, ms": {name: round(ms, 1) for ms, name in medians[:6]},
            "refused (not shipped)": sorted(refused)}


# -- 2. movement phases -----------------------------------------------------------

def largest_variants(imported: set[str]) -> list[str]:
    """The largest imported variant by provinces, and the largest offered one."""
    sizes = sorted(((len(load_variant(n).provinces), n) for n in shipped_variants()
                    if n in imported), reverse=True)
    if not sizes:
        raise BenchFailure("no imported variant is shipped")
    chosen = [sizes[0][1]]
    offered = [n for _, n in sizes if unfinished_reason(n) is None]
    if offered and offered[0] not in chosen:
        chosen.append(offered[0])
    return chosen


@dataclass(frozen=True)
class MovementPhase:
    state: GameState
    texts: dict[str, list[str]]  # the orders as a player writes them
    orders: dict[str, list[Order]]  # the same, parsed


def movement_phases(game_map: GameMap, years: int, seed: int) -> list[MovementPhase]:
    """The movement phases of the first ``years`` years of a random game,
    every unit ordered; retreats and builds as bench/map_render.py gives them."""
    rng = random.Random(seed)
    state = opening_position(game_map)
    found: list[MovementPhase] = []
    for _ in range(years * 4):  # Spring, Fall, their retreats, Winter
        if state.phase.kind is PhaseKind.MOVEMENT:
            texts = {p: random_orders(game_map, state, p, rng) for p in game_map.powers
                     if state.units_of(p)}
            orders: dict[str, list[Order]] = {}
            for power, lines in texts.items():
                for line in lines:
                    order = parse_order(line, game_map)
                    if isinstance(order, OrderError):
                        raise BenchFailure(f"{game_map.name}: {line!r} does not parse: {order}")
                    orders.setdefault(power, []).append(order)
            found.append(MovementPhase(state, texts, orders))
        else:
            orders = phase_orders(game_map, state, rng)
        resolution = adjudicate(game_map, state, orders)
        if resolution.winner:
            break
        state = resolution.next
        if len(found) == years * 2:
            break
    if not found:
        raise BenchFailure(f"{game_map.name}: no movement phase")
    return found


def phase_json(variant: str, phase: MovementPhase) -> dict[str, Any]:
    """The phase in ``judge adjudicate``'s input form (docs/cli.md)."""
    units: dict[str, list[str]] = {}
    for unit in phase.state.units:
        units.setdefault(unit.power, []).append(str(unit))
    centers: dict[str, list[str]] = {}
    for centre, power in sorted(phase.state.owner_of.items()):
        centers.setdefault(power, []).append(centre)
    return {"variant": variant, "phase": str(phase.state.phase), "units": units,
            "centers": centers, "orders": phase.texts}


def run_judge(path: Path, lines: int) -> tuple[float, float]:
    """Seconds, exec to exit, and processor seconds (user and system) of
    ``judge adjudicate --jsonl`` on the phases in ``path``, its output
    checked: one resolution a line, no error."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with path.open("rb") as stdin:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CONSOLE_SCRIPT, "adjudicate", "--jsonl"],
                              stdin=stdin, capture_output=True, cwd=ROOT, env=env,
                              timeout=TIMEOUT_S, check=False)
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = done.stdout.decode().splitlines()
    if done.returncode or len(out) != lines or any('"error"' in o for o in out):
        raise BenchFailure(f"judge adjudicate --jsonl {path.name}: exit {done.returncode}, "
                           f"{len(out)} lines for {lines}: "
                           f"{(done.stderr.decode() or ' '.join(out))[:300]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_processes(phases: dict[str, list[MovementPhase]], runs: int, folder: Path
                   ) -> dict[str, dict[str, float]]:
    """``judge adjudicate --jsonl`` on each variant's first phase, and on all
    its phases, the variants taking turns within each run so that a busy
    moment of the machine falls on all of them alike; medians in seconds."""
    files: dict[tuple[str, str], tuple[Path, int]] = {}
    for variant, found in phases.items():
        lines = [phase_json(variant, p) for p in found]
        for label, chosen in (("one phase", lines[:1]), (f"{len(lines)} phases", lines)):
            path = folder / f"{variant} {label}.jsonl"
            path.write_text("".join(json.dumps(line) + "\n" for line in chosen),
                            encoding="utf-8")
            files[variant, label] = path, len(chosen)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {key: [] for key in files}
    for _ in range(runs):
        for key, (path, count) in files.items():
            times[key].append(run_judge(path, count))
    out: dict[str, dict[str, float]] = {variant: {} for variant in phases}
    for (variant, label), took in times.items():
        out[variant][f"judge adjudicate --jsonl, {label}, s (median)"] = round(
            statistics.median(w for w, _ in took), 3)
        out[variant][f"judge adjudicate --jsonl, {label}, processor s (median)"] = round(
            statistics.median(c for _, c in took), 3)
    return out


def checked_png(data: bytes) -> bytes:
    """A PNG picture of more than a few colours, or BenchFailure."""
    image = Image.open(io.BytesIO(data))
    image.load()
    colours = image.convert("RGB").getcolors(64)
    if image.format != "PNG" or image.width < 100 or (colours is not None and len(colours) < 4):
        raise BenchFailure(f"a wrong picture: {image.format} {image.width} x {image.height}")
    return data


def time_in_process(found: dict[str, list[MovementPhase]], repeat: int) -> dict[str, Any]:
    """adjudicate() and render_png() on each variant's phases, in this
    process, after a warm round (each board's layer drawn once). The
    variants take turns within each round, so that a busy moment of the
    machine falls on all of them alike."""
    maps = {v: load_variant(v) for v in found}
    scenes, first_png = {}, {}
    for variant, phases in found.items():
        game_map = maps[variant]
        resolutions = [adjudicate(game_map, p.state, p.orders) for p in phases]
        scenes[variant] = [scene_after("bench", r) for r in resolutions]
        start = time.perf_counter()
        checked_png(render_png(game_map, scenes[variant][0]))  # the board and its layer
        first_png[variant] = (time.perf_counter() - start) * 1000
        for scene in scenes[variant]:
            checked_png(render_png(game_map, scene))
    times: dict[str, list[tuple[int, int]]] = {v: [] for v in found}
    for _ in range(repeat):
        for variant, phases in found.items():
            game_map = maps[variant]
            times[variant] += [timed(partial(adjudicate, game_map, p.state, p.orders))
                               for p in phases]
    pngs: dict[str, list[tuple[int, int]]] = {v: [] for v in found}
    for _ in range(min(repeat, PNG_ROUNDS)):
        for variant in found:
            game_map = maps[variant]
            pngs[variant] += [timed(partial(render_png, game_map, s))
                              for s in scenes[variant]]
    return {variant: {
        "provinces": len(maps[variant].provinces),
        "units at the start": len(phases[0].state.units),
        "movement phases": len(phases),
        "orders a phase (median)": statistics.median(
            sum(len(o) for o in p.orders.values()) for p in phases),
        "units a phase (median)": statistics.median(len(p.state.units) for p in phases),
        "adjudicate()": both(times[variant]),
        "render_png, first (board built), ms": round(first_png[variant], 1),
        "render_png": both(pngs[variant]),
    } for variant, phases in found.items()}


def ratios(results: dict[str, dict[str, Any]], yardstick: str) -> dict[str, dict[str, float]]:
    """Each variant's medians over the yardstick's."""
    base = results[yardstick]
    out = {}
    for variant, got in results.items():
        if variant == yardstick:
            continue
        one = "judge adjudicate --jsonl, one phase, {} (median)"
        out[f"{variant} / {yardstick}"] = {
            f"{what}, {clock}": round(got[what][key] / base[what][key], 2)
            for what in ("adjudicate()", "render_png")
            for clock, key in (("wall", "median_ms"), ("processor", "cpu_median_ms"))} | {
            f"judge adjudicate --jsonl, one phase, {clock}": round(
                got[one.format(key)] / base[one.format(key)], 2)
            for clock, key in (("wall", "s"), ("processor", "processor s"))}
    return out


def measure(args: argparse.Namespace) -> dict[str, Any]:
    imported = shipped_imports()
    results: dict[str, Any] = {
        "machine": f"{platform.node()}, {cpu_model()}, {os.cpu_count()} cores, "
                   f"Python {platform.python_version()}",
        "load average before": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "import": time_imports(Path(args.sources), args.rounds, imported),
    }
    variants = args.variants or ["standard", *largest_variants(imported)]
    found = {v: movement_phases(load_variant(v), args.years, args.seed) for v in variants}
    phases = time_in_process(found, args.repeat)
    with tempfile.TemporaryDirectory() as folder:
        for variant, timed in time_processes(found, args.runs, Path(folder)).items():
            phases[variant].update(timed)
    results["movement phases"] = phases
    if "standard" in phases:
        results["ratios"] = ratios(phases, "standard")
    results["load average after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sources", default=str(SOURCES), help="the maps (tools/dpjudge_maps)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the import (5)")
    parser.add_argument("--years", type=int, default=5, help="years of each random game (5)")
    parser.add_argument("--repeat", type=int, default=50, help="rounds of adjudicate() (50)")
    parser.add_argument("--runs", type=int, default=9, help="runs of judge adjudicate (9)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variants", nargs="*",
                        help="default: standard, the largest imported, the largest offered")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    try:
        results = measure(args)
    except BenchFailure as exc:
        print(f"dpjudge_maps: {exc}", file=sys.stderr)
        return 1
    results["whole run, s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
