"""How long an Intercontinental phase takes to draw (419 provinces, 3200
pixels wide): the PNG, and what a results mail needs (the PNG and the SVG).

The positions are the opening and Spring 1870 (Suez a canal), seated by a
§3 draw. The board is built and its layer drawn before timing, as the
judge does once per process (that first map's time is reported apart);
each map is then timed with the garbage collector off.

Usage::

    .venv/bin/python bench/intercontinental_map.py --repeat 20
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from cpu import cpu_model

from engine.phase import Phase
from engine.state import GameState, Seat
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental import assignment
from judge.maps import attachments
from judge.maps.render import render_png
from judge.maps.scene import Scene


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    game_map = load_variant("intercontinental")
    seats = assignment.seats(game_map, assignment.draw(args.seed))
    opening = rules_for(game_map).opening(game_map, GameState.initial(game_map).evolve(
        seats=tuple(Seat(group, powers) for group, powers in seats)))
    scenes = [Scene("bench", opening),
              Scene("bench", opening.evolve(phase=Phase.parse("S1870M")))]
    start = time.perf_counter()
    first = render_png(game_map, scenes[0])
    print(f"cpu: {cpu_model()}")
    print(f"first map (board built, layer drawn): {(time.perf_counter() - start) * 1e3:.0f} ms,"
          f" PNG {len(first) // 1024} KiB")
    for label, draw in (("PNG", render_png), ("mail pair", attachments)):
        times = []
        gc.disable()
        for _ in range(args.repeat):
            for scene in scenes:
                start = time.perf_counter()
                draw(game_map, scene)
                times.append((time.perf_counter() - start) * 1e3)
        gc.enable()
        times.sort()
        print(f"{label}: median {statistics.median(times):.0f} ms, "
              f"p95 {times[int(len(times) * 0.95) - 1]:.0f} ms, max {times[-1]:.0f} ms "
              f"({len(times)} maps)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
