"""Intercontinental's schematic map at 419 provinces: the positions of
data/intercontinental_maps.toml drawn as the judge draws them, and checked
for size, for each major power in a shade of its colour group (the Dutch
East Indies orange, §6.12), for minors and affiliates told apart from the
majors, for Suez split or a canal by the phase, and for names clear of units."""

from __future__ import annotations

import io
import tomllib
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from engine.map import GameMap, UnitKind, province_of
from engine.phase import Phase
from engine.state import GameState, Seat
from engine.units import Unit
from engine.variant_file import load_variant
from engine.variants import rules_for
from engine.variants.intercontinental import assignment
from engine.variants.intercontinental.facts import THEATRES, load_facts
from engine.variants.intercontinental.map_key import PALE
from judge.maps import attachments
from judge.maps.render import board_for, render_png, render_svg
from judge.maps.scene import Scene
from tests.judge.maps.test_label_clearance import (
    _overlap,
    centre_boxes,
    label_boxes,
    unit_boxes,
)
from tests.judge.maps.test_render import SVG

pytestmark = pytest.mark.slow

DATA = tomllib.loads((Path(__file__).parent / "data" / "intercontinental_maps.toml")
                     .read_text(encoding="utf-8"))
KINDS = {"A": UnitKind.ARMY, "F": UnitKind.FLEET}
Colour = tuple[int, ...]


@cache
def board() -> GameMap:
    return load_variant("intercontinental")


def _rgb(text: str) -> Colour:
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def _far(a: Colour, b: Colour) -> int:
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def position(entry: dict[str, Any]) -> GameState:
    game_map = board()
    state = GameState.initial(game_map)
    if entry.get("drawn", True):
        seats = assignment.seats(game_map, assignment.draw(DATA["seed"]))
        state = state.evolve(seats=tuple(Seat(group, powers) for group, powers in seats))
    state = rules_for(game_map).opening(game_map, state)
    units = list(state.units)
    for power, old, new in entry.get("moves", []):
        gone = next(u for u in units if u.power == power and u.location == old.split()[1])
        units.remove(gone)
        units.append(Unit(power, KINDS[new.split()[0]], new.split()[1]))
    return state.evolve(phase=Phase.parse(entry["phase"]), units=tuple(units))


POSITIONS = {entry["name"]: entry for entry in DATA["positions"]}


@cache
def drawn(name: str) -> tuple[GameState, Image.Image, ET.Element]:
    state = position(POSITIONS[name])
    scene = Scene("intercontinental", state)
    png = Image.open(io.BytesIO(render_png(board(), scene))).convert("RGB")
    return state, png, ET.fromstring(render_svg(board(), scene))


def groups(state: GameState) -> dict[str, str]:
    """Each major's colour group: its seat's, once the groups are drawn;
    before, only §3.1's preassigned powers have one."""
    facts = load_facts()
    found = {p: seat.player for seat in state.seats for p in seat.powers
             if seat.player in facts.groups}
    if not found:
        found = {name: facts.powers[p.letter].groups[0] for name, p in board().powers.items()
                 if p.letter in facts.powers and facts.powers[p.letter].fixed}
    return found


def expected_colours(state: GameState) -> dict[str, Colour]:
    """Each major's shade: its group's, at its theatre's place; the Dutch
    East Indies the named colour it keeps; a major of no group yet, undrawn."""
    style = board().tables["map_style"]
    facts = load_facts()
    group = groups(state)
    found = {}
    for name, power in board().powers.items():
        if power.ordered_by_bids:
            continue
        fact = facts.powers[power.letter]
        shade = (style["named"][fact.map_colour] if fact.map_colour
                 else style["groups"][group[name]][THEATRES.index(fact.theatre)]
                 if name in group else style["undrawn"])
        found[name] = _rgb(shade)
    assert len(found) == 32
    return found


def group_of_shade(colour: Colour) -> str:
    """The colour group (or named colour) whose shade is nearest."""
    style = board().tables["map_style"]
    shades: list[tuple[str, Colour]] = [(str(group), _rgb(s))
                                        for group, ss in style["groups"].items() for s in ss]
    shades += [(str(name), _rgb(s)) for name, s in style["named"].items()]
    return min(shades, key=lambda gs: sum((a - b) ** 2 for a, b in zip(
        gs[1], colour, strict=True)))[0]


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_png_decodes_at_the_map_styles_width(name: str) -> None:
    _, png, root = drawn(name)
    assert png.size == (board().tables["map_style"]["pixels"], int(root.attrib["height"]))
    assert png.size[1] > png.size[0]  # the legend below the map


@pytest.mark.parametrize("name", list(POSITIONS))
def test_each_major_is_drawn_in_its_groups_shade(name: str) -> None:
    state, png, _ = drawn(name)
    geometry = board_for(board())
    scale = png.size[0] / geometry.width
    want = expected_colours(state)
    group = groups(state)
    dutch = next(p for p in want if board().powers[p].letter == "DU")
    checked = 0
    for unit in state.units:
        if unit.power not in want:
            continue
        x, y = geometry.units.get(unit.location) or geometry.units[province_of(unit.location)]
        pixel = png.getpixel((round(x * scale), round(y * scale)))
        assert isinstance(pixel, tuple)
        assert _far(pixel[:3], want[unit.power]) <= DATA["tolerance"], (unit, pixel)
        if unit.power == dutch or unit.power in group:
            family = group_of_shade(pixel[:3])
            assert family == ("Orange" if unit.power == dutch else group[unit.power]), unit
        checked += 1
    for centre, owner in state.owners:
        if owner in want and centre in geometry.centres:
            x, y = geometry.centres[centre]
            pixel = png.getpixel((round(x * scale), round(y * scale)))
            assert isinstance(pixel, tuple)
            assert _far(pixel[:3], want[owner]) <= DATA["tolerance"], (centre, pixel)
    assert checked >= 32 * 2


@pytest.mark.parametrize("name", list(POSITIONS))
def test_minors_and_affiliates_are_marked_and_unlike_any_major(name: str) -> None:
    state, _, root = drawn(name)
    majors = set(expected_colours(state).values())
    majors.add(_rgb(board().tables["map_style"]["undrawn"]))
    neutral = {p for p, power in board().powers.items() if power.ordered_by_bids}
    seen: dict[str, int] = {}
    for g in root.iter(f"{SVG}g"):
        classes = g.attrib.get("class", "").split()
        if "unit" not in classes or g.attrib["data-power"] not in neutral:
            continue
        kind = "affiliate" if "affiliate" in classes else "minor"
        assert kind in classes, g.attrib
        markers = [e for e in g if f"marker {kind}" == e.attrib.get("class")]
        assert len(markers) == 1, g.attrib
        fill = _rgb(next(e for e in g if "class" not in e.attrib).attrib["fill"])
        assert min(_far(fill, m) for m in majors) > DATA["apart"], (g.attrib, fill)
        seen[kind] = seen.get(kind, 0) + 1
    assert seen == {"minor": 48, "affiliate": 58}


def _pale(colour: str) -> str:
    return "#" + "".join(f"{round(c + (255 - c) * PALE):02x}" for c in _rgb(colour))


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_dutch_affiliates_keep_orange(name: str) -> None:
    """§8.9: Amsterdam, Boma, Elmina and Paramaribo are drawn in orange (pale,
    as affiliates are) whichever group sponsors them; §8.10's special
    affiliates take their sponsor's colour."""
    state, _, root = drawn(name)
    fills = {g.attrib["data-power"]: next(e for e in g if "class" not in e.attrib).attrib["fill"]
             for g in root.iter(f"{SVG}g") if "affiliate" in g.attrib.get("class", "").split()
             and "unit" in g.attrib.get("class", "").split()}
    facts = load_facts()
    by_home = {power.home: p for p, power in board().powers.items() if power.ordered_by_bids}
    dutch = [by_home[(facts.abbreviations[a.centre].upper(),)] for a in facts.affiliates
             if a.colour == "Orange"]
    assert len(dutch) == 4
    orange = _pale(board().tables["map_style"]["named"]["Orange"])
    east_indies = next(p for p in board().powers if board().powers[p].letter == "DU")
    if east_indies in groups(state):
        assert {fills[p] for p in dutch} == {orange}
    else:  # no sponsor yet: drawn as minors
        assert orange not in fills.values()


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_document_lists_each_groups_colours(name: str) -> None:
    """What the legibility checks take a player's colours from (docs/maps.md,
    Colours): each group's majors' shades (the Dutch East Indies' orange in
    its group) and the pale its affiliates are drawn in, every group
    sponsoring some (§8.1-8.8); no colour in two groups."""
    state, _, root = drawn(name)
    listed = {g.attrib["data-group"]: g.attrib["data-colours"].split()
              for g in root.iter(f"{SVG}g") if "data-group" in g.attrib}
    shades = {p: "#" + "".join(f"{c:02x}" for c in rgb)
              for p, rgb in expected_colours(state).items()}
    style = board().tables["map_style"]
    dutch = next(p for p in board().powers if board().powers[p].letter == "DU")
    for group, colours in style["groups"].items():
        members = {p for p, g in groups(state).items() if g == group}
        pales = {_pale(colours[1])}
        if dutch in members:  # §8.9: the Dutch affiliates keep orange, pale
            pales.add(_pale(style["named"]["Orange"]))
        assert set(listed[group]) == {shades[p] for p in members} | pales, group
    every = [c for colours in listed.values() for c in colours]
    assert len(every) == len(set(every))


@pytest.mark.parametrize("name", list(POSITIONS))
def test_suez_is_split_before_the_canal_and_a_canal_after(name: str) -> None:
    _, _, root = drawn(name)
    drawn_as = {e.attrib["class"] for e in root.iter(f"{SVG}path")
                if e.attrib.get("data-province") == "SUEZ"} & {"split", "canal"}
    assert drawn_as == {POSITIONS[name]["suez"]}


@pytest.mark.parametrize("name", list(POSITIONS))
def test_no_unit_or_centre_marker_covers_a_name(name: str) -> None:
    _, _, root = drawn(name)
    labels = label_boxes(root)
    things = unit_boxes(root) + centre_boxes(root)
    assert len(labels) == len(board().provinces)
    covered = [(where, label) for where, box in things
               for label, text_box in labels.items() if _overlap(box, text_box)]
    assert not covered, covered


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_legend_has_a_line_per_colour_group(name: str) -> None:
    state, _, root = drawn(name)
    lines = [" ".join(t.itertext()) for g in root.iter(f"{SVG}g")
             if g.attrib.get("class") == "power" for t in g.iter(f"{SVG}text")]
    heads = [line.split(":")[0] for line in lines]
    undrawn = [] if len(groups(state)) == 32 else ["Not yet drawn"]
    assert heads == [*board().tables["map_style"]["groups"], *undrawn,
                     "Minor powers (48, marked)", "Affiliates (58, marked)"]
    for group in board().tables["map_style"]["groups"]:
        powers = [p for p, g in groups(state).items() if g == group]
        line = next(t for t in lines if t.startswith(f"{group}:"))
        assert all(p.replace("_", " ").title() in line for p in powers), line


def test_map_carries_the_whole_map_as_svg() -> None:
    """Beside the pictures at mail size (test_intercontinental_views.py),
    MAP attaches the whole map as SVG, at the map style's width."""
    state = position(POSITIONS["1870"])
    scene = Scene("intercontinental", state)
    files = attachments(board(), scene, full=True)
    svg_name, _, svg = files[-1]
    assert (files[0][0], svg_name) == ("intercontinental-S1870M.png",
                                       "intercontinental-S1870M.svg")
    root = ET.fromstring(svg)
    assert root.attrib["width"] == str(board().tables["map_style"]["pixels"])
    assert any(e.attrib.get("class") == "canal" for e in root.iter(f"{SVG}path"))
