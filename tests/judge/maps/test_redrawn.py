"""Diplomap boards drawn (judge/maps/redrawn.py): the cases of
data/redrawn.toml, each a position on a board changed by hand-made Split,
Merge and Rename records, drawn through the attachments a results mail
carries. The geometry is checked against the province shapes the rings
come from (judge/maps/rings.py), cut by the lines read back from the SVG:
every new name, unit and centre marker stands in its own piece.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import re
import tomllib
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import cairosvg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from shapely import LineString, Point, Polygon, affinity, unary_union
from shapely.geometry.base import BaseGeometry

from engine.diplomap.state import DiplomapState
from engine.diplomap.values import Anchor, MapChange, Merge, Rename, Split
from engine.map import Drawing, GameMap, UnitKind
from engine.state import Dislodged, GameState
from engine.units import Unit
from engine.variant_file import load_variant
from judge.maps import attachments
from judge.maps.postscript import ARTWORK, read_postscript
from judge.maps.render import PIXELS_WIDE, changed_board
from judge.maps.rings import shapes_for_rings
from judge.maps.room import roomiest
from judge.maps.scene import DrawnOrder, Scene
from parser.orders import OrderError, parse_order
from tests.examples import examples
from tests.judge.maps.random_boards import Drawn, random_changes
from tests.judge.maps.test_render import scenes

DATA = tomllib.loads((Path(__file__).parent / "data" / "redrawn.toml").read_text("utf-8"))
CASES = {case["name"]: case for case in DATA["case"]}
SVG = "{http://www.w3.org/2000/svg}"
SCALE = 5  # pixels a point, for looking at a border
DARK = 450  # a pixel darker than this (r + g + b) is ink: a border or a name


@cache
def standard() -> GameMap:
    return load_variant("standard")


@cache
def base_shapes() -> dict[str, BaseGeometry]:
    """The standard map's provinces in the SVG's coordinates (y down)."""
    art = read_postscript((ARTWORK / "standard.ps").read_text(encoding="latin-1"))
    x0, _, _, y1 = art.box
    return {code: affinity.affine_transform(shape, [1, 0, 0, -1, -x0, y1])
            for code, shape in shapes_for_rings().items()}


def changes_of(case: dict[str, Any]) -> tuple[MapChange, ...]:
    made: list[MapChange] = []
    for row in case["changes"]:
        if "split" in row:
            made.append(Split(row["split"], tuple(row["parts"]), tuple(row["parts"]), row["line"],
                              Anchor(*row["start"]), Anchor(*row["end"]), row["base"],
                              row.get("loop", False), row.get("centre")))
        elif "merge" in row:
            made.append(Merge(tuple(row["merge"]), row["into"], row["into"]))
        else:
            made.append(Rename(row["rename"], row["to"], row["to"]))
    return tuple(made)


def position(case: dict[str, Any], game_map: GameMap) -> GameState:
    opening = GameState.initial(game_map)
    gone = set(case["gone"])
    owners = dict((c, p) for c, p in opening.owners if c not in gone)
    owners.update(dict(case.get("owners", [])))
    units = tuple(Unit(power, UnitKind(kind), location) for power, kind, location in case["units"])
    return dataclasses.replace(
        opening, units=units, owners=tuple(sorted(owners.items())),
    ).with_part(DiplomapState(changes_of(case)))


def drawn(case: dict[str, Any], game_map: GameMap | None = None
          ) -> tuple[ET.Element, bytes, str]:
    """The case's map as the results mail carries it: the SVG's root, the PNG, the SVG."""
    game_map = game_map or standard()
    (_, _, png), (_, _, svg) = attachments(game_map, Scene("tester", position(case, game_map)))
    text = svg.decode("utf-8")
    return ET.fromstring(text), png, text


def polyline(d: str) -> BaseGeometry:
    """SVG path data of straight pieces (M and L only) as lines."""
    pieces = []
    for part in re.findall(r"M[^M]+", d):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", part)]
        pieces.append(LineString(list(zip(numbers[::2], numbers[1::2], strict=True))))
    return unary_union(pieces)


def lines_drawn(root: ET.Element) -> dict[int, BaseGeometry]:
    return {int(p.get("data-line", "0")): polyline(p.get("d", ""))
            for p in root.iter(f"{SVG}path") if p.get("class") == "drawn-border"}


def names(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Every province name written on the map, base board and patch alike."""
    found = {}
    for text in root.iter(f"{SVG}text"):
        if text.text and (text.get("class") in (None, "name")) and "x" in text.attrib:
            found[text.text] = (float(text.get("x", "0")), float(text.get("y", "0")))
    return found


def leader_ends(root: ET.Element) -> dict[str, tuple[float, float]]:
    """Where each leader ends: a name written beside its part stands for
    the spot its leader points at."""
    found = {}
    for path in root.iter(f"{SVG}path"):
        if path.get("class") == "leader":
            line = polyline(path.get("d", ""))
            x, y = line.coords[-1]
            found[path.get("data-province", "")] = (x, y)
    return found


def named_at(root: ET.Element, code: str) -> tuple[float, float]:
    """The spot a new province's name stands for: its leader's end if it
    is written beside its part, else its middle, a little above its baseline."""
    ends = leader_ends(root)
    if code in ends:
        return ends[code]
    x, y = names(root)[code]
    return x, y - 2


def pieces(root: ET.Element, bases: list[str]) -> list[BaseGeometry]:
    """The base provinces' shape cut by every line drawn across it."""
    whole = unary_union([base_shapes()[b] for b in bases])
    for line in lines_drawn(root).values():
        whole = whole.difference(line.buffer(0.2))  # a thin strip along the line
    return [piece for piece in getattr(whole, "geoms", [whole])
            if isinstance(piece, Polygon) and piece.area > 2.0]


def piece_of(spot: tuple[float, float], found: list[BaseGeometry]) -> int:
    point = Point(spot)
    return min(range(len(found)), key=lambda n: found[n].distance(point))


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_each_line_is_drawn_inside_its_province(name: str) -> None:
    case = CASES[name]
    root, _, _ = drawn(case)
    lines = lines_drawn(root)
    assert sorted(lines) == sorted(row["line"] for row in case.get("lines", []))
    for row in case.get("lines", []):
        line = lines[row["line"]]
        inside = unary_union([base_shapes()[b] for b in row["inside"]])
        assert inside.buffer(0.5).contains(line), (name, row)
        coords = [Point(c) for piece in getattr(line, "geoms", [line]) for c in piece.coords]
        ends = (coords[0], coords[-1])
        # each end on the province's outline, or on a line drawn before it
        edges = unary_union([inside.exterior, *(lines[n] for n in lines if n < row["line"])])
        assert all(edges.distance(end) < 0.6 for end in ends), (name, row)
        if "ends_on_line" in row:  # on an earlier line, this far along it from its start
            earlier, at = row["ends_on_line"]
            target = lines[earlier].interpolate(at, normalized=True)
            assert min(end.distance(target) for end in ends) < 1.0, (name, row)
        if "ends_on" in row:  # both ends on one border: a loop's
            a, b = (base_shapes()[c] for c in row["ends_on"])
            border = a.boundary.intersection(b.buffer(0.2))
            assert all(border.distance(end) < 0.6 for end in ends)
            assert ends[0].distance(ends[1]) > 2.0  # it encloses a piece of that border


@pytest.mark.parametrize("name", list(CASES))
def test_each_new_province_is_named_in_its_own_part_and_the_old_names_are_gone(
        name: str) -> None:
    case = CASES[name]
    root, _, _ = drawn(case)
    written = names(root)
    for gone in case["gone"]:
        assert gone not in written, (name, gone)
    for group in case["parts"]:
        found = pieces(root, group["base"])
        assert len(found) == len(group["codes"]), (name, len(found))
        assert all(code in written for code in group["codes"]), name
        where = {code: piece_of(named_at(root, code), found) for code in group["codes"]}
        assert len(set(where.values())) == len(group["codes"]), (name, where)
        for code, index in where.items():
            assert found[index].buffer(1.0).contains(Point(named_at(root, code))), (name, code)


@pytest.mark.parametrize("name", list(CASES))
def test_units_and_centres_stand_in_their_own_part(name: str) -> None:
    case = CASES[name]
    root, _, _ = drawn(case)
    for group in case["parts"]:
        found = pieces(root, group["base"])
        for unit in root.iter(f"{SVG}g"):
            location = unit.get("data-location")
            if location not in group["codes"]:
                continue
            shape = next(iter(unit))
            spot = (float(shape.get("cx", "nan")), float(shape.get("cy", "nan"))) \
                if shape.tag == f"{SVG}circle" else _path_start(shape.get("d", ""))
            assert piece_of(spot, found) == piece_of(named_at(root, location), found)
            assert found[piece_of(spot, found)].buffer(1.0).contains(Point(spot))
    markers = {c.get("data-province"): (float(c.get("cx", "0")), float(c.get("cy", "0")))
               for c in root.iter(f"{SVG}circle") if c.get("class") == "centre"}
    for row in case.get("centres", []):
        code = row["code"]
        assert row["base"] not in markers or row["base"] == code
        group = next(g for g in case["parts"] if code in g["codes"])
        found = pieces(root, group["base"])
        assert piece_of(markers[code], found) == piece_of(named_at(root, code), found)
    # no centre is lost or doubled by the changes
    assert len(markers) == sum(1 for p in standard().provinces.values() if p.is_centre)


def _path_start(d: str) -> tuple[float, float]:
    """A fleet's hull and sail: its own point lies between the hull's top corners."""
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    (x1, y1), (x2, _) = (numbers[0], numbers[1]), (numbers[2], numbers[3])
    return (x1 + x2) / 2, y1 + 1.0


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.get("erased")])
def test_an_erased_border_is_painted_over(name: str) -> None:
    case = CASES[name]
    root, _, _ = drawn(case)
    paint = [polyline(p.get("d", "")) for p in root.iter(f"{SVG}path")
             if p.get("class") == "erased"]
    assert len(paint) == len(case["erased"])
    # drawn without units or owners, so the border's pixels show (3 pixels a point)
    bare = {"units": [], "owners": [], "changes": case["changes"], "gone": case["gone"]}
    changed, before = (Image.open(io.BytesIO(cairosvg.svg2png(
        bytestring=drawn(c)[2].encode("utf-8"), output_width=SCALE * 628))).convert("RGB")
        for c in (bare, {"units": [], "changes": [], "gone": []}))
    for (a, b), stretch in zip(case["erased"], paint, strict=True):
        border = base_shapes()[a].boundary.intersection(base_shapes()[b].buffer(0.2))
        assert border.buffer(0.5).contains(stretch)  # along the border they shared
        assert stretch.length > border.length * 0.6  # most of it
        spots = [stretch.interpolate(k / 100, normalized=True) for k in range(10, 91)]
        pixels = [(round(p.x * SCALE), round(p.y * SCALE)) for p in spots]

        def dark(picture: Image.Image, pixels: list[tuple[int, int]] = pixels) -> int:
            return sum(1 for p in pixels if sum(picture.getpixel(p)) < DARK)

        # the base map's border (a dashed line) is dark along much of it; a name
        # written across the merged province may darken a few pixels
        assert dark(before) > len(pixels) / 4
        assert dark(changed) < dark(before) / 3, (dark(before), dark(changed))


@pytest.mark.slow
def test_the_png_renders_at_the_map_size() -> None:
    for case in CASES.values():
        _, png, _ = drawn(case)
        picture = Image.open(io.BytesIO(png))
        assert picture.size[0] == PIXELS_WIDE and picture.size[1] > 800


def test_a_board_without_changes_is_drawn_byte_for_byte_as_before() -> None:
    for phase, digest in DATA["unchanged"].items():
        svg = attachments(standard(), scenes()[phase])[1][2]
        assert hashlib.sha256(svg).hexdigest() == digest, phase


@pytest.mark.slow
def test_a_schematic_board_draws_new_provinces_near_their_base_province() -> None:
    bare = dataclasses.replace(standard(), drawing=Drawing())
    for case in CASES.values():
        root, png, _ = drawn(case, bare)
        assert Image.open(io.BytesIO(png)).size[0] == PIXELS_WIDE
        written = names(root)
        for group in case["parts"]:
            for code in group["codes"]:
                assert code in written, (case["name"], code)
        for gone in case["gone"]:
            assert gone not in written


def test_a_changed_board_is_worked_out_once_per_process() -> None:
    changes = changes_of(CASES[next(iter(CASES))])
    assert changed_board(standard(), changes) is changed_board(standard(), changes)


def test_orders_and_displaced_units_naming_provinces_that_are_gone_are_drawn() -> None:
    """The orders of the phase that split Burgundy were given on the board
    before it (A Mun - Bur, example E), and the unit displaced by the split
    still stands in Burgundy until it chooses its part (§III.B)."""
    case = CASES[next(n for n in CASES if "example E" in n)]
    game_map = standard()
    after = position({**case, "units": []}, game_map)
    unit = Unit("GERMANY", UnitKind.ARMY, "BUR")
    after = dataclasses.replace(after, dislodged=(
        Dislodged(unit, "BUR", retreats=("BUR-N", "BUR-S", "BUR-W")),))
    move = parse_order("A MUN - BUR", game_map)
    assert not isinstance(move, OrderError)
    scene = Scene("tester", after, GameState.initial(game_map),
                  (DrawnOrder("GERMANY", move, True),))
    root = ET.fromstring(attachments(game_map, scene)[1][2].decode("utf-8"))
    kinds = {(g.get("class"), g.get("data-location") or g.get("data-order"))
             for g in root.iter(f"{SVG}g")}
    assert ("order move", "A MUN - BUR") in kinds
    assert ("unit army dislodged", "BUR") in kinds


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.get("lines")])
def test_the_new_lines_show_on_the_png(name: str) -> None:
    """The PNG lays the phase's drawing over a picture of the base board
    made once: the lines must be in the phase's part of it."""
    case = CASES[name]
    bare = {"units": [], "owners": [], "changes": case["changes"], "gone": case["gone"]}
    root, png, _ = drawn(bare)
    _, base_png, _ = drawn({"units": [], "changes": [], "gone": []})
    changed = Image.open(io.BytesIO(png)).convert("RGB")
    before = Image.open(io.BytesIO(base_png)).convert("RGB")
    scale = PIXELS_WIDE / 628
    for line in lines_drawn(root).values():
        spots = [line.interpolate(k / 100, normalized=True) for k in range(15, 86, 2)]
        pixels = [(round(p.x * scale), round(p.y * scale)) for p in spots]
        # the board's picture and the phase's are scaled each to its own
        # rounded height: a line may fall a pixel off the spot worked out here
        now = sum(1 for p in pixels if _dark_near(changed, p))
        then = sum(1 for p in pixels if _dark_near(before, p))
        assert now > len(pixels) * 0.7 and then < len(pixels) * 0.3, (now, then)


@st.composite
def boards(draw: st.DrawFn) -> tuple[MapChange, ...]:
    """Random changes of the standard board (tests/judge/maps/random_boards.py)."""
    return random_changes(standard(), Drawn(draw))


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_any_changes_draw_with_every_province_named_and_placed_in_its_own_shape(
        changes: tuple[MapChange, ...]) -> None:
    game_map = standard()
    board = changed_board(game_map, changes)
    gone = {c.province for c in changes if isinstance(c, Split)} | {
        p for c in changes if isinstance(c, Merge) for p in c.provinces}
    new = {p for c in changes if isinstance(c, Split) for p in c.parts} | {
        c.into for c in changes if isinstance(c, Merge)}
    assert gone <= board.hidden and not (new & board.hidden)
    for code in new:
        assert f'data-province="{code}"' in board.patch  # its name is written
        part, unit = board.shapes[code], Point(board.board.units[code])
        assert part.buffer(1.0).contains(unit)
        if any(isinstance(c, Split) and code in c.parts for c in changes):
            # an army's disc off the part's borders, as far as the part has room
            room = roomiest(part)[1]
            assert part.exterior.distance(unit) >= min(LEGIBLE["unit_radius"], room) - 0.5, code
    for split_ in (c for c in changes if isinstance(c, Split)):
        line = LineString(board.lines[split_.line])
        assert base_shapes()[split_.province].buffer(0.5).contains(line)
    assert len(board.board.centres) == sum(1 for p in game_map.provinces.values()
                                           if p.is_centre)
    opening = GameState.initial(game_map)
    owners = tuple(sorted((board.centre_base.get(c, c), p) for c, p in opening.owners))
    assert len(owners) == len(opening.owners)
    scene = Scene("tester", dataclasses.replace(
        opening, units=()).with_part(DiplomapState(changes)))
    assert attachments(game_map, scene)[0][2].startswith(b"\x89PNG")


def _dark_near(picture: Image.Image, spot: tuple[int, int]) -> bool:
    x, y = spot
    return any(sum(picture.getpixel((x + dx, y + dy))) < DARK
               for dx in (-1, 0, 1) for dy in (-1, 0, 1))


LEGIBLE = tomllib.loads(
    (Path(__file__).parent / "data" / "redrawn_legible.toml").read_text("utf-8"))


@pytest.mark.parametrize("board", LEGIBLE["board"], ids=lambda b: b["name"])
def test_markers_and_names_stand_inside_their_part_clear_of_its_borders(
        board: dict[str, Any]) -> None:
    """Issue 24: after a split a marker on the new line shows no part."""
    changes = changes_of(board)
    drawn_board = changed_board(standard(), changes)
    units, centres = drawn_board.board.units, drawn_board.board.centres
    labels = drawn_board.board.labels
    new = {p for c in changes if isinstance(c, Split) for p in c.parts} | {
        c.into for c in changes if isinstance(c, Merge)}
    new &= set(drawn_board.shapes)
    merged = {c.into for c in changes if isinstance(c, Merge)}
    assert new
    for code in sorted(new):
        part = drawn_board.shapes[code]
        unit = Point(units[code])
        assert part.contains(unit), code
        # an army's disc off the part's borders, as far as the part has room
        room = roomiest(part)[1]
        assert part.exterior.distance(unit) >= min(LEGIBLE["unit_radius"], room) - 0.5, code
        if code in centres:
            centre = Point(centres[code])
            assert part.contains(centre), code
            # off the part's borders (it is always drawn, a unit not always),
            # and off its unit, unless the part is too small for both
            assert part.exterior.distance(centre) >= LEGIBLE["centre_radius"], code
            if code not in merged and part.area >= 400:  # a merged one keeps the artwork's
                assert centre.distance(unit) >= LEGIBLE["unit_radius"] + LEGIBLE["centre_radius"]
        # the name's middle, above its baseline, or the end of its leader
        x, y = labels[code]
        spot = drawn_board.leaders[code][1] if code in drawn_board.leaders else (x, y - 2)
        assert part.contains(Point(spot)), code


@pytest.mark.parametrize("board", LEGIBLE["board"], ids=lambda b: b["name"])
def test_new_lines_keep_near_the_straight_way_between_their_ends(board: dict[str, Any]) -> None:
    """Issue 24: St Petersburg's Bot-Mos line wandered far north-east."""
    changes = changes_of(board)
    drawn_board = changed_board(standard(), changes)
    for change in changes:
        if not isinstance(change, Split) or change.loop:
            continue
        line = LineString(drawn_board.lines[change.line])
        chord = LineString([line.coords[0], line.coords[-1]])
        if not base_shapes()[change.base].buffer(0.5).contains(chord):
            continue  # the straight way leaves the province (Sevastopol round the Black Sea)
        allowed = LEGIBLE["route"] * chord.length + LEGIBLE["bend"]
        assert line.hausdorff_distance(chord) <= allowed, change.province
