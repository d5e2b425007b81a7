"""Maps of every phase of the end-to-end game (tests/e2e/data/game.toml),
played through the engine: each PNG decodes at the expected size, units
and centre markers have their power's colour where the variant file puts
them, and each kind of phase keeps the structure of its golden SVG.

UPDATE_GOLDEN=1 rewrites the golden files (look at the maps first).
"""

from __future__ import annotations

import io
import os
import tomllib
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.game import adjudicate
from engine.map import GameMap
from engine.orders import Order
from engine.phase import Phase
from engine.state import GameState
from engine.variant_file import load_variant
from judge.maps.render import (
    PIXELS_WIDE,
    UNOWNED,
    board_for,
    power_colours,
    render_png,
    render_svg,
    svg_to_png,
)
from judge.maps.scene import Scene, scene_after
from parser.orders import OrderError, parse_order

ROOT = Path(__file__).resolve().parents[3]
GAME = ROOT / "tests" / "e2e" / "data" / "game.toml"
GOLDEN = Path(__file__).parent / "data" / "golden"
SVG = "{http://www.w3.org/2000/svg}"


@cache
def standard() -> GameMap:
    return load_variant("standard")


@cache
def scenes() -> dict[str, Scene]:
    """The map of every phase of the game, by the phase it shows."""
    game_map = standard()
    state = GameState.initial(game_map)
    found = {str(state.phase): Scene("tester", state)}
    for step in tomllib.loads(GAME.read_text(encoding="utf-8"))["phase"]:
        orders: dict[str, list[Order]] = {}
        for power, lines in step.get("orders", {}).items():
            for line in lines:
                order = parse_order(line, game_map)
                assert not isinstance(order, OrderError), line
                orders.setdefault(power, []).append(order)
        resolution = adjudicate(game_map, state, orders)
        scene = scene_after("tester", resolution)
        found[scene.phase] = scene
        state = resolution.next
    return found


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def near(pixel: tuple[int, ...], colour: str, slack: int = 12) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(pixel[:3], rgb(colour), strict=True))


@pytest.mark.parametrize("phase", list(scenes()))
def test_every_phase_draws_to_a_png_with_units_and_centres_in_colour(phase: str) -> None:
    game_map, scene = standard(), scenes()[phase]
    board = board_for(game_map)
    svg = render_svg(game_map, scene)
    image = Image.open(io.BytesIO(render_png(game_map, scene)))
    image.load()
    assert image.format == "PNG"
    root = ET.fromstring(svg)
    _, _, width, height = (float(v) for v in root.attrib["viewBox"].split())
    assert image.size == (PIXELS_WIDE, round(PIXELS_WIDE * height / width))
    scale = PIXELS_WIDE / width
    pixels = image.convert("RGB")
    colours = power_colours(game_map)

    def at(point: tuple[float, float]) -> tuple[int, ...]:
        return tuple(pixels.getpixel((round(point[0] * scale), round(point[1] * scale))))

    for unit in scene.position.units:
        pixel = at(board.units[unit.location])
        assert near(pixel, colours[unit.power]), (unit, pixel)
    owners = dict(scene.position.owners)
    for centre, point in board.centres.items():
        want = colours[owners[centre]] if centre in owners else UNOWNED
        assert near(at(point), want), (centre, at(point), want)


@pytest.mark.slow
def test_the_png_is_the_svg_drawn() -> None:
    """The PNG lays the phase over a picture of the board made once; it
    must look like the whole SVG drawn in one go."""
    game_map, scene = standard(), scenes()["F1901R"]
    fast = Image.open(io.BytesIO(render_png(game_map, scene))).convert("RGB")
    whole = Image.open(io.BytesIO(svg_to_png(render_svg(game_map, scene)))).convert("RGB")
    assert fast.size == whole.size
    # edges are smoothed a little differently; nothing else may differ
    difference = ImageChops.difference(fast, whole)
    assert max(ImageStat.Stat(difference).mean) < 2.0
    far_off = sum(1 for pixel in difference.get_flattened_data() if max(pixel) > 100)
    assert far_off < fast.size[0] * fast.size[1] * 0.002, far_off


def structure(svg: str) -> list[str]:
    """What a map is made of, without its coordinates: each element that
    stands for something (it has a class), with its data attributes."""
    root = ET.fromstring(svg)
    lines = [" ".join(f"{k}={v}" for k, v in sorted(root.attrib.items())
                      if k.startswith("data-") or k in ("width", "height", "viewBox"))]
    for element in root.iter():
        kind = element.attrib.get("class")
        if kind is None:
            continue
        data = " ".join(f"{k}={v}" for k, v in sorted(element.attrib.items())
                        if k.startswith("data-"))
        text = (element.text or "").strip() if element.tag == f"{SVG}text" else ""
        lines.append(f"{element.tag.removeprefix(SVG)}.{kind} {data} {text}".rstrip())
    return lines


# one map per kind of phase: the opening, after movement, a retreat to
# make, after retreats, after adjustments
KINDS = {"opening": "S1901M", "after-movement": "F1901M", "retreats": "F1901R",
         "after-retreats": "W1901A", "after-adjustments": "S1902M"}


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_phase_keeps_the_structure_of_its_golden_map(kind: str) -> None:
    svg = render_svg(standard(), scenes()[KINDS[kind]])
    golden = GOLDEN / f"{kind}.svg"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(svg, encoding="utf-8")
    assert structure(svg) == structure(golden.read_text(encoding="utf-8"))


def classes(svg: str) -> list[tuple[str, str, str]]:
    root = ET.fromstring(svg)
    return [(e.attrib["class"], e.attrib.get("data-power", ""),
             e.attrib.get("data-order", e.attrib.get("data-location", "")))
            for e in root.iter() if "class" in e.attrib]


def test_the_orders_drawn_are_those_adjudicated_with_failures_marked() -> None:
    after_movement = classes(render_svg(standard(), scenes()["F1901M"]))
    assert ("order move failed", "AUSTRIA", "A VIE - GAL") in after_movement
    assert ("order move", "FRANCE", "A PAR - BUR") in after_movement
    assert ("order support", "FRANCE", "A MAR S A PAR - BUR") in after_movement
    assert not any(kind == "order" for kind, _, what in after_movement if what == "A VEN H")
    retreats = classes(render_svg(standard(), scenes()["F1901R"]))
    assert ("order convoy", "ENGLAND", "F NTH C A YOR - NWY") in retreats
    assert ("order support hold", "RUSSIA", "A UKR S F RUM") in retreats
    assert ("unit army dislodged", "FRANCE", "BUR") in retreats
    assert ("unit army", "GERMANY", "BUR") in retreats
    builds = classes(render_svg(standard(), scenes()["S1902M"]))
    assert ("order build", "FRANCE", "BUILD F BRE") in builds
    assert ("unit fleet", "FRANCE", "BRE") in builds


def test_a_convoyed_army_is_drawn_through_its_fleet() -> None:
    svg = render_svg(standard(), scenes()["F1901R"])
    root = ET.fromstring(svg)
    move = next(e for e in root.iter() if e.attrib.get("data-order") == "A APU - TUN")
    line = next(iter(move)).attrib["d"]  # M start L ION L end-of-line
    assert line.count("L") == 2, line
    ion = board_for(standard()).units["ION"]
    bend = [float(v) for v in line.split("L")[1].split()]
    assert abs(bend[0] - ion[0]) < 0.1 and abs(bend[1] - ion[1]) < 0.1


def test_removals_and_disbands_cross_out_the_unit() -> None:
    game_map = standard()
    opening = GameState.initial(game_map)
    state = opening.evolve(phase=Phase.parse("W1901A"),
                           owners=tuple((c, p) for c, p in opening.owners if c != "BRE"))
    order = parse_order("REMOVE F BRE", game_map)
    assert not isinstance(order, OrderError)
    resolution = adjudicate(game_map, state, {"FRANCE": [order]})
    scene = scene_after("x", resolution)
    drawn = classes(render_svg(game_map, scene))
    # drawn as lost, as every unit a phase takes off the board (test_losses.py)
    assert ("lost fleet", "FRANCE", "BRE") in drawn
    assert not any(what == "BRE" for kind, _, what in drawn if kind.startswith("unit"))


def test_every_location_has_a_place_for_its_unit_inside_the_map() -> None:
    game_map = standard()
    board = board_for(game_map)
    for code in game_map.provinces:
        for location in game_map.locations_of(code):
            x, y = board.units[location]
            assert 0 < x < board.width and 0 < y < board.height, location
    assert {k for k in board.units if "/" in k} == {
        "BUL/EC", "BUL/SC", "SPA/NC", "SPA/SC", "STP/NC", "STP/SC"}


def test_a_map_that_cannot_be_drawn_is_left_out_not_the_mail(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import judge.maps

    def broken(*_: object, **__: object) -> str:
        raise ValueError("no artwork")

    monkeypatch.setattr(judge.maps, "render_svg", broken)
    assert judge.maps.attachments_or_none(standard(), scenes()["F1901M"]) == ()
    assert "could not draw the map of tester F1901M" in caplog.text
