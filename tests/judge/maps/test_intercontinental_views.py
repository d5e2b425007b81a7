"""Intercontinental at mail size (issue 24): a results mail attaches an
overview and a picture per region of the board (the variant file's
[[map.views]], drawn by judge/maps/views.py), each 1000 pixels wide with
every name at least 11 pixels high and the provisional board's notice on
it, all of them together under 1.5 MB after a played turn; MAP adds the
whole board's SVG. The Blue group's shades (and every other colour a
player may have) stay clear of the sea's blue."""

from __future__ import annotations

import io
import itertools
import xml.etree.ElementTree as ET
from functools import cache

import cairosvg
import numpy as np
import pytest
from PIL import Image

from engine.game import adjudicate
from engine.map import GameMap, UnitKind, View
from engine.orders import Hold, Move, Order, UnitRef
from engine.variants.intercontinental.map_key import PALE
from judge.maps import attachments, file_stem
from judge.maps.board import LAND, SEA
from judge.maps.labels import ASCENT, DESCENT, GLYPH_WIDTH
from judge.maps.render import board_for, board_notice, render_svg
from judge.maps.scene import Scene, scene_after
from judge.maps.views import overview_svg, view_svg
from tests.judge.maps import legibility as L
from tests.judge.maps.ciede2000 import blend, difference
from tests.judge.maps.test_intercontinental_map import POSITIONS, board, position
from tests.judge.maps.test_render import SVG

pytestmark = pytest.mark.slow

MAIL_WIDTH = 1000  # pixels: what a mail client shows of a picture
LEAST_NAME = 11.0  # pixels: a name's font size on screen, at the least
MAIL_BYTES = 1_500_000  # every picture of a results mail together, at the most
APART = 12.0  # ΔE00 between colours of different players, and from the sea


def views() -> tuple[View, ...]:
    return board().drawing.views


@cache
def played() -> Scene:
    """The results of a turn: each major's units moving to their first
    neighbour, where they can (arrows, bounces, moves), the rest holding."""
    game_map = board()
    state = position(POSITIONS["opening"])
    orders: dict[str, list[Order]] = {}
    for unit in state.units:
        if game_map.powers[unit.power].ordered_by_bids:
            continue
        moves = game_map.fleet_moves if unit.kind is UnitKind.FLEET else game_map.army_moves
        targets = sorted(moves.get(unit.location, ()))
        ref = UnitRef(unit.location, unit.kind)
        order: Order = Move(ref, targets[0]) if targets else Hold(ref)
        orders.setdefault(unit.power, []).append(order)
    return scene_after("intercontinental", adjudicate(game_map, state, orders))


def _root(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _scale(root: ET.Element) -> float:
    """Pixels per map unit as the picture is shown."""
    view_box = [float(v) for v in root.attrib["viewBox"].split()]
    assert float(root.attrib["width"]) == MAIL_WIDTH
    return MAIL_WIDTH / view_box[2]


def _texts(root: ET.Element) -> list[tuple[str, float]]:
    """Every text with its font size, inherited from its groups."""
    found = []

    def walk(element: ET.Element, size: float) -> None:
        size = float(element.attrib.get("font-size", size))
        if element.tag == f"{SVG}text":
            found.append(("".join(element.itertext()), size))
        for child in element:
            walk(child, size)

    walk(root, 16.0)
    return found


def test_every_province_lies_whole_in_a_view() -> None:
    """Its unit, its name's box and its centre marker: each province can be
    read on one picture at least."""
    drawing = board_for(board())
    size = drawing.label_size
    drawn = {t.text: (float(t.attrib["x"]), float(t.attrib["y"]))
             for g in _root(render_svg(board(), played())).iter(f"{SVG}g")
             if g.attrib.get("class") == "labels" for t in g}  # where the names are written
    missing = []
    for code in board().provinces:
        x, y = drawn[code]
        half = len(code) * size * GLYPH_WIDTH / 2
        ux, uy = drawing.units[code]
        places = [(x - half, y - size * ASCENT), (x + half, y + size * DESCENT),
                  (ux - drawing.unit_size, uy - drawing.unit_size),
                  (ux + drawing.unit_size, uy + drawing.unit_size)]
        if code in drawing.centres:
            cx, cy = drawing.centres[code]
            places += [(cx - drawing.unit_size / 2, cy - drawing.unit_size / 2),
                       (cx + drawing.unit_size / 2, cy + drawing.unit_size / 2)]
        if not any(all(v.box[0] <= px <= v.box[2] and v.box[1] <= py <= v.box[3]
                       for px, py in places) for v in views()):
            missing.append(code)
    assert not missing


@pytest.mark.parametrize("view", views(), ids=lambda v: v.name)
def test_each_view_writes_every_name_at_least_11_pixels_high(view: View) -> None:
    root = _root(view_svg(board(), played(), view))
    scale = _scale(root)
    labels = [t for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "labels"
              for t in _texts(g)]
    assert len(labels) == len(board().provinces)
    small = [(text, round(size * scale, 1)) for text, size in _texts(root)
             if size * scale < LEAST_NAME]
    assert not small


@pytest.mark.parametrize("view", views(), ids=lambda v: v.name)
def test_each_view_says_what_it_shows_and_that_the_board_is_provisional(view: View) -> None:
    root = _root(view_svg(board(), played(), view))
    texts = [text for text, _ in _texts(root)]
    assert f"intercontinental: Fall 1865 Movement (F1865M), {view.title}" in texts
    assert board_notice(board()) == "Provisional board, not the official map"
    assert board_notice(board()) in texts


def test_the_overview_writes_nothing_too_small_to_read() -> None:
    """No province names at 2.6 pixels: the frames' titles, the legend and
    the notice, each at least 11 pixels high."""
    root = _root(overview_svg(board(), played()))
    scale = _scale(root)
    texts = _texts(root)
    assert not [t for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "labels"
                for t in g]
    assert {v.title for v in views()} <= {text for text, _ in texts}
    assert board_notice(board()) in {text for text, _ in texts}
    assert not [(text, size * scale) for text, size in texts if size * scale < LEAST_NAME]


def test_a_results_mail_carries_the_pictures_under_a_megabyte_and_a_half() -> None:
    scene = played()
    assert scene.orders  # the arrows of a played turn are on the pictures
    files = attachments(board(), scene)
    stem = file_stem(scene)
    assert [name for name, _, _ in files] == [f"{stem}.png"] + [
        f"{stem}-{v.name}.png" for v in views()]
    total = sum(len(data) for _, _, data in files)
    assert total < MAIL_BYTES, total
    for _, kind, data in files:
        assert kind == "image/png"
        assert Image.open(io.BytesIO(data)).size[0] == MAIL_WIDTH


def test_map_adds_the_whole_board_as_svg() -> None:
    scene = played()
    *pictures, (name, kind, data) = attachments(board(), scene, full=True)
    assert (name, kind) == (f"{file_stem(scene)}.svg", "image/svg+xml")
    assert len(pictures) == len(views()) + 1
    root = _root(data.decode("utf-8"))
    assert root.attrib["width"] == str(board().tables["map_style"]["pixels"])
    assert root.attrib["viewBox"].split()[2] == "2400"


def _player_colours(game_map: GameMap) -> dict[str, list[str]]:
    """Each colour group's shades and its affiliates' pale colour; the
    named colour, the minors' and the undrawn majors', each a 'player'."""
    style = game_map.tables["map_style"]
    found: dict[str, list[str]] = {}
    for group, shades in style["groups"].items():
        rgb = [int(shades[1][i:i + 2], 16) for i in (1, 3, 5)]
        pale = "#" + "".join(f"{round(c + (255 - c) * PALE):02x}" for c in rgb)
        found[group] = [*shades, pale]
    for name, colour in style["named"].items():
        found[name] = [colour]
    found["minor"], found["undrawn"] = [style["minor"]], [style["undrawn"]]
    return found


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


def test_no_players_colour_passes_for_the_sea() -> None:
    """As a unit on the sea and as owned land beside it (the colour laid
    over the land), every colour a player may have is 12 ΔE00 or more from
    the sea's blue: the Blue group's shades were within 5 of it."""
    near = []
    for player, colours in _player_colours(board()).items():
        for colour in colours:
            land = _hex(blend(colour, LAND, board_for(board()).owner_opacity))
            near += [(player, colour, round(e, 1)) for e in (difference(colour, SEA),
                                                             difference(land, SEA)) if e < APART]
    assert not near


def test_two_players_units_differ_by_12_delta_e() -> None:
    """Units of different colour groups (affiliates, minors and undrawn
    majors included) never within 12 ΔE00 of each other."""
    near = []
    for (one, first), (two, second) in itertools.combinations(
            _player_colours(board()).items(), 2):
        near += [(one, a, two, b, round(difference(a, b), 1))
                 for a in first for b in second if difference(a, b) < APART]
    assert not near


def _owned(root: ET.Element) -> dict[str, str]:
    return {p.attrib["data-province"]: p.attrib["d"] for p in root.iter(f"{SVG}path")
            if p.attrib.get("class") == "owned"}


def test_the_owners_colours_leave_the_names_bare() -> None:
    """Owners are painted strong on this board (docs/maps.md, Colours), over
    the names drawn under them: the whole map leaves each name's ink on the
    land's own colour, and the overview, which writes no names, paints each
    province whole."""
    scene = played()
    whole = _root(render_svg(board(), scene))
    names = L.read(ET.tostring(whole, encoding="unicode")).labels
    areas = {code: L.area_shape(d) for code, d in _owned(whole).items()}
    assert len(names) == len(board().provinces) and len(areas) > 100
    covered = sorted({(label.text, code) for label in names for code, area in areas.items()
                      if label.ink.intersection(area).area > 0.01})
    assert not covered
    overview = _owned(_root(overview_svg(board(), scene)))
    assert overview == {code: board_for(board()).areas[code] for code in overview}


def test_each_picture_of_the_mail_is_its_svg_drawn() -> None:
    """The pictures are drawn from one drawing of the phase, each view
    seeing its part, and written with a palette: each must still look like
    its own SVG (view_svg, overview_svg) drawn whole."""
    game_map, scene = board(), played()
    files = attachments(game_map, scene)
    stem = file_stem(scene)
    documents = {f"{stem}.png": overview_svg(game_map, scene)} | {
        f"{stem}-{view.name}.png": view_svg(game_map, scene, view) for view in views()}
    assert sorted(documents) == sorted(name for name, _, _ in files)
    for name, _, data in files:
        png = np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), int)
        whole = np.asarray(Image.open(io.BytesIO(cairosvg.svg2png(
            bytestring=documents[name].encode("utf-8"), background_color="white"))).convert(
            "RGB"), int)
        assert png.shape == whole.shape, name
        off = np.abs(png - whole).max(axis=2)
        # the palette's 64 colours shift a colour by a few steps, an edge
        # more (the overview, with the most colours in the least room, by 3.1
        # steps on average; a view a pixel out of place has 3 % of its pixels off)
        assert off.mean() < 4 and (off > 48).mean() < 0.003, (name, off.mean())
