"""Schematic maps, for variants without artwork: the documented example
variant (docs/variants.md) and the standard map stripped of its drawing."""

from __future__ import annotations

import dataclasses
import io
import math
import re
from itertools import combinations
from pathlib import Path

from PIL import Image

from engine.map import Drawing, GameMap
from engine.state import GameState
from engine.variant_file import load_variant, parse_variant
from judge.maps.render import board_for, power_colours, render_png
from judge.maps.scene import Scene
from judge.maps.schematic import layout, schematic_board

ROOT = Path(__file__).resolve().parents[3]


def example() -> GameMap:
    doc = (ROOT / "docs" / "variants.md").read_text(encoding="utf-8")
    found = re.search(r"```toml\n(.*?)```", doc.split("## A complete example", 1)[1], re.S)
    assert found
    return parse_variant(found.group(1), "example")


def bare_standard() -> GameMap:
    return dataclasses.replace(load_variant("standard"), drawing=Drawing())


def test_every_province_gets_a_disc_of_its_own_inside_the_map() -> None:
    for game_map in (example(), bare_standard()):
        board = schematic_board(game_map)
        assert board.schematic
        centres = {code: board.units[code] for code in game_map.provinces}
        radius = board.unit_size / 0.95
        for (a, pa), (b, pb) in combinations(centres.items(), 2):
            assert math.dist(pa, pb) > 2 * radius, (game_map.name, a, b)
        for x, y in centres.values():
            assert radius <= x <= board.width - radius and radius <= y <= board.height - radius
        land = {c for c, p in game_map.provinces.items() if p.terrain.value in ("land", "coastal")}
        assert set(board.areas) == land
        assert set(board.labels) == set(game_map.provinces)


def test_the_layout_is_the_same_every_time_and_built_once() -> None:
    game_map = example()
    edges = [("ARD", "ASH"), ("ASH", "FEN"), ("FEN", "ARD")]
    assert layout(["ARD", "ASH", "FEN"], edges, "x") == layout(["ARD", "ASH", "FEN"], edges, "x")
    assert schematic_board(game_map).units == schematic_board(example()).units
    assert board_for(game_map) is board_for(game_map)


def test_coordinates_in_the_variant_file_are_used() -> None:
    game_map = example()
    places = {code: (40.0 + 60 * n, 50.0 + 30 * (n % 3)) for n, code in
              enumerate(sorted(game_map.provinces))}
    drawn = dataclasses.replace(game_map, drawing=Drawing(units=places))
    board = schematic_board(drawn)
    assert {code: board.units[code] for code in places} == places
    # a two-coast province's coasts sit on its disc's edge, apart from each other
    assert board.units["MID/NC"] != board.units["MID/SC"]


def test_a_schematic_map_draws_units_in_their_colours() -> None:
    game_map = example()
    state = GameState.initial(game_map)
    image = Image.open(io.BytesIO(render_png(game_map, Scene("crowns", state)))).convert("RGB")
    board = board_for(game_map)
    scale = image.size[0] / board.width
    colours = power_colours(game_map)
    for unit in state.units:
        x, y = board.units[unit.location]
        pixel = image.getpixel((round(x * scale), round(y * scale)))
        want = colours[unit.power]
        assert all(abs(a - int(want[n:n + 2], 16)) <= 12
                   for a, n in zip(pixel, (1, 3, 5), strict=True)), (unit, pixel)
