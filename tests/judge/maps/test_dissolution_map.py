"""Dissolution's geographic board reads in a mail client (issue 24): read
from the SVG the judge draws, at the width a results mail shows it.

The worst position a board can meet is drawn besides the opening: a unit
on every province, the wings on land, and a dislodged unit beside each,
so that every marker the board has room for is on it at once."""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as ET
from functools import cache
from itertools import combinations

import pytest
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from engine.map import GameMap, Terrain, UnitKind
from engine.state import Dislodged, GameState
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants import rules_for
from judge.maps.board import PIXELS_WIDE
from judge.maps.geographic import OPAQUE, PALE_LAND, geographic_layout
from judge.maps.pieces import power_colours
from judge.maps.render import board_for, render_svg
from judge.maps.scene import Scene
from tests.judge.maps.ciede2000 import blend
from tests.judge.maps.ciede2000 import difference as ciede2000
from tests.judge.maps.test_label_clearance import (
    SVG,
    Box,
    _overlap,
    _shape_box,
    _union,
    label_boxes,
)

SMALLEST_NAME = 11.0  # pixels, at the mail's width: what a reader needs at 1:1
# CIEDE2000 between any two powers' fills, and a fill and the sea or land: about
# 1 is a just-noticeable difference side by side; 13 lets a reader tell two
# small regions apart at a glance, and match a unit to the legend
COLOURS_APART = 13.0
SEA = "#9cc3e0"


@cache
def dissolution() -> GameMap:
    return load_variant("dissolution")


def crowded() -> GameState:
    """Every province held, by each power in turn, with a dislodged unit
    beside every land unit (a wing where the unit is a fleet, to show each
    glyph): every place a marker can go, filled."""
    game_map = dissolution()
    powers = [p for p in game_map.powers if game_map.powers[p].colour][:15]
    units, dislodged = [], []
    for n, code in enumerate(sorted(game_map.provinces)):
        terrain = game_map.provinces[code].terrain
        kind = (UnitKind.FLEET if terrain is Terrain.WATER else
                (UnitKind.ARMY, UnitKind.WING, UnitKind.FLEET)[n % 3]
                if terrain is Terrain.COASTAL else (UnitKind.ARMY, UnitKind.WING)[n % 2])
        power = powers[n % len(powers)]
        units.append(Unit(power, kind, code))
        other = UnitKind.WING if kind is UnitKind.FLEET and terrain is not Terrain.WATER \
            else kind
        dislodged.append(Dislodged(Unit(powers[(n + 1) % len(powers)], other, code), code))
    opening = GameState.initial(game_map)
    return dataclasses.replace(opening, units=tuple(units), dislodged=tuple(dislodged))


POSITIONS = {"opening": lambda: GameState.initial(dissolution()), "crowded": crowded}


@cache
def drawn(position: str) -> ET.Element:
    return ET.fromstring(render_svg(dissolution(), Scene("d", POSITIONS[position]())))


def scale(root: ET.Element) -> float:
    """Pixels per map unit at the PNG's width."""
    return float(root.attrib["width"]) / float(root.attrib["viewBox"].split()[2])


def unit_marks(root: ET.Element) -> list[tuple[str, str, Box]]:
    """(location, unit or dislodged, box) of each unit, its edge included."""
    found = []
    for g in root.iter(f"{SVG}g"):
        kind = g.attrib.get("class", "")
        if not kind.startswith("unit "):
            continue
        shapes = [e for e in g if e.tag in (f"{SVG}circle", f"{SVG}path")]
        left, top, right, bottom = _union([_shape_box(e) for e in shapes])
        edge = max(float(e.attrib.get("stroke-width", "0")) for e in shapes) / 2
        found.append((g.attrib["data-location"], "dislodged" if "dislodged" in kind else "unit",
                      (left - edge, top - edge, right + edge, bottom + edge)))
    return found


def centre_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    """Each centre marker, with the ring a 2-point centre has round it."""
    found: list[tuple[str, Box]] = []
    for c in root.iter(f"{SVG}circle"):
        kind = c.attrib.get("class", "")
        if kind == "centre":
            found.append((c.attrib["data-province"], _shape_box(c)))
        elif kind == "centre-value":
            found[-1] = (found[-1][0], _union([found[-1][1], _shape_box(c)]))
    edge = 0.35  # half the template's stroke
    return [(w, (a - edge, b - edge, c + edge, d + edge)) for w, (a, b, c, d) in found]


def unit_groups(root: ET.Element) -> list[tuple[str, ET.Element]]:
    return [(g.attrib["data-location"], g) for g in root.iter(f"{SVG}g")
            if g.attrib.get("class", "").startswith("unit ")]


def outline(group: ET.Element) -> BaseGeometry:
    """What a unit covers: its rings as discs, its glyph's box, edges included."""
    parts = []
    for e in group:
        edge = float(e.attrib.get("stroke-width", "0")) / 2
        if e.tag == f"{SVG}circle":
            x, y, r = (float(e.attrib[k]) for k in ("cx", "cy", "r"))
            parts.append(ShapelyPoint(x, y).buffer(r + edge))
        elif e.tag == f"{SVG}path":
            left, top, right, bottom = _shape_box(e)
            parts.append(box(left - edge, top - edge, right + edge, bottom + edge))
    return unary_union(parts)


def test_the_mail_shows_the_board_1000_pixels_wide() -> None:
    assert drawn("opening").attrib["width"] == str(PIXELS_WIDE)


@pytest.mark.parametrize("position", list(POSITIONS))
def test_every_name_is_at_least_11_pixels_high_in_the_mail(position: str) -> None:
    root = drawn(position)
    group = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "labels")
    assert float(group.attrib["font-size"]) * scale(root) >= SMALLEST_NAME
    assert len(label_boxes(root)) == len(dissolution().provinces)


@pytest.mark.parametrize("position", list(POSITIONS))
def test_no_marker_covers_another_or_a_name(position: str) -> None:
    root = drawn(position)
    things = [(f"{kind} {where}", b) for where, kind, b in unit_marks(root)]
    things += [(f"centre {where}", b) for where, b in centre_boxes(root)]
    # a 2-point centre's ring and its marker are one thing
    merged: dict[str, Box] = {}
    for name, b in things:
        merged[name] = _union([merged[name], b]) if name in merged else b
    items = list(merged.items())
    clashes = [(a, b) for (a, ba), (b, bb) in combinations(items, 2) if _overlap(ba, bb)]
    assert not clashes, clashes[:5]
    names = label_boxes(root)
    covered = [(a, n) for a, ba in items for n, bn in names.items() if _overlap(ba, bn)]
    assert not covered, covered[:5]


@pytest.mark.parametrize("position", list(POSITIONS))
def test_every_marker_and_name_lies_inside_its_province_clear_of_its_border(
        position: str) -> None:
    root = drawn(position)
    board = board_for(dissolution())
    shapes, _, _ = geographic_layout(dissolution(), board.width)
    margin = 1.0 / scale(root)  # a pixel between a marker and its border, at least
    things = [(where, outline(g)) for where, g in unit_groups(root)]
    things += [(where, box(*b)) for where, b in centre_boxes(root)]
    things += [(where, box(*b)) for where, b in label_boxes(root).items()]
    outside = []
    for where, shape in things:
        region: Polygon = shapes[where.split("/")[0]]
        if not region.buffer(-margin).contains(shape):
            outside.append(where)
    assert not outside, outside


def test_a_dislodged_unit_stands_clear_of_the_unit_that_dislodged_it() -> None:
    marks = unit_marks(drawn("crowded"))
    standing = {where: b for where, kind, b in marks if kind == "unit"}
    for where, kind, b in marks:
        if kind == "dislodged":
            assert not _overlap(b, standing[where]), where


def fills() -> dict[str, tuple[int, int, int]]:
    """Each colour a region can be filled with, as drawn over the board's land."""
    colours = set(power_colours(dissolution()).values())
    return {colour: blend(colour, PALE_LAND, OPAQUE) for colour in colours}


def test_any_two_powers_fills_differ_clearly_and_from_the_sea_and_land() -> None:
    game_map = dissolution()
    named = {game_map.powers[p].colour for p in game_map.powers
             if game_map.powers[p].colour}
    assert len(named) == len(fills())  # every power's colour is its group's
    drawn_fills = fills()
    alike = [(a, b, round(ciede2000(fa, fb), 1))
             for (a, fa), (b, fb) in combinations(drawn_fills.items(), 2)
             if ciede2000(fa, fb) < COLOURS_APART or ciede2000(a, b) < COLOURS_APART]
    alike += [(a, ground, round(ciede2000(fa, ground), 1)) for a, fa in drawn_fills.items()
              for ground in (SEA, PALE_LAND) if ciede2000(fa, ground) < COLOURS_APART]
    assert not alike, alike


def test_the_fifteen_powers_colours_include_nato_and_the_us_navy_apart() -> None:
    powers = dissolution().powers
    assert ciede2000(powers["NATO"].colour or "", powers["US_NAVY"].colour or "") \
        >= COLOURS_APART
    players_and_nuclear = [p for p in powers.values() if p.colour and not p.colour.startswith(
        ("#d2b48c", "#a97142", "#5c3317"))]
    assert len({p.colour for p in players_and_nuclear}) == 15


def test_the_check_finds_colours_alike() -> None:
    """The difference the checks use tells the issue's NATO and US Navy apart by little."""
    assert ciede2000("#1b2a4a", "#22335c") < COLOURS_APART
    assert ciede2000("#bfc3cc", "#c1c6d1") < 2


def test_the_picture_says_it_is_a_reconstruction_and_explains_the_territories() -> None:
    text = render_svg(dissolution(), Scene("d", GameState.initial(dissolution())))
    assert re.search(r'class="notice"[^>]*>Reconstructed board, not the official map<', text)
    root = drawn("opening")
    legend = [t.text or "" for t in root.iter(f"{SVG}text")]
    for power in ("NATO", "Russia", "India", "Israel"):
        assert any(line.startswith(power) and "territory dashed" in line for line in legend)
    territories = [p for p in root.iter(f"{SVG}path") if p.attrib.get("class") == "territory"]
    marked = rules_for(dissolution()).marked_territories(dissolution())
    assert len(territories) == sum(len(provinces) for provinces in marked.values())


def test_each_unit_kind_has_its_own_glyph() -> None:
    shapes = {}
    for g in drawn("crowded").iter(f"{SVG}g"):
        kind = g.attrib.get("class", "")
        if kind.startswith("unit ") and "dislodged" not in kind:
            last = [e for e in g if e.tag in (f"{SVG}circle", f"{SVG}path")][-1]
            shapes.setdefault(kind.split()[1], set()).add(
                last.tag.split("}")[1] + str(len(re.findall("[ML]", last.attrib.get("d", "")))))
    assert len(shapes) == 3
    assert all(len(s) == 1 for s in shapes.values())
    assert len({next(iter(s)) for s in shapes.values()}) == 3


def test_every_unit_is_edged_in_pale_land_so_it_shows_on_its_own_colour() -> None:
    """A unit is its power's colour, on a region of its power's colour: the
    pale edge round it differs from every fill (checked above), and from
    Egypt's black most of all."""
    for _, group in unit_groups(drawn("opening")):
        edge, shape = [e for e in group if e.tag in (f"{SVG}circle", f"{SVG}path")][:2]
        assert edge.attrib["stroke"] == PALE_LAND and edge.attrib["fill"] == "none"
        assert float(edge.attrib["stroke-width"]) > 2 * float(shape.attrib["stroke-width"])
