"""How long an Intercontinental phase takes to draw (419 provinces, 3200
pixels wide): the PNG, and what a results mail needs (the PNG and the SVG).

The positions are the opening and Spring 1870 (Suez a canal), seated by a
§3 draw. The board is built and its layer drawn before timing, as the
judge does once per process (that first map's time is reported apart);
each map is then timed with the garbage collector off. Every picture drawn
is checked (the PNG as wide as the variant's key says, the mail's overview
and views each a picture as wide as a mail shows, none blank): the script
stops with an error, printing no figure, if one is not.

Usage::

    .venv/bin/python bench/intercontinental_map.py --repeat 20
"""

from __future__ import annotations

import argparse
import gc
import io
import statistics
import time

from cpu import cpu_model
from map_render import checked
from PIL import Image

from engine.phase import Phase
from engine.state import GameState, Seat
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental import assignment
from judge.maps import attachments
from judge.maps.key import map_key
from judge.maps.png import COMPRESSOR
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
    first_ms = (time.perf_counter() - start) * 1e3
    key = map_key(game_map, opening)
    for scene in scenes:  # the pictures timed below, checked once
        png = Image.open(io.BytesIO(render_png(game_map, scene)))
        colours = png.convert("RGB").getcolors(64)
        if key is None or png.width != key.pixels or (colours is not None and len(colours) < 8):
            raise SystemExit(f"intercontinental_map: a wrong PNG, {png.width} x {png.height}")
        checked(attachments(game_map, scene), 1 + len(game_map.drawing.views), svg=False)
    print(f"cpu: {cpu_model()}")
    print(f"png compression: {COMPRESSOR}")  # isal or zlib: the figures differ by about half
    print(f"first map (board built, layer drawn): {first_ms:.0f} ms,"
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
