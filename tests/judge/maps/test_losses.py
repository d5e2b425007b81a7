"""Every unit a phase takes off the board is drawn on that phase's map as
lost: the cases of data/losses.toml (a position and orders in the engine's
case format, adjudicated), each map read back by its ``data-`` attributes
and the geometry of its marks. The same maps by mail: test_losses_by_mail.py
in tests/judge.
"""

from __future__ import annotations

import math
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from engine.game import Resolution, adjudicate
from engine.map import GameMap, UnitKind, province_of
from engine.state import GameState
from engine.variant_file import load_variant
from judge.maps.render import board_for, render_svg
from judge.maps.scene import Lost, Scene, losses, scene_after
from tests.engine.case_runner import read_orders, start_position

CASES = tomllib.loads((Path(__file__).parent / "data" / "losses.toml").read_text("utf-8"))["case"]
SVG = "{http://www.w3.org/2000/svg}"
LETTER = {kind.noun: kind.value for kind in UnitKind}


def adjudicated(case: dict[str, Any]) -> tuple[GameMap, Resolution]:
    """The case's phase adjudicated, its orders' outcomes as the case says."""
    game_map = load_variant(case["variant"])
    orders, expected = read_orders(game_map, case.get("orders", {}))
    resolution = adjudicate(game_map, start_position(game_map, case), orders)
    for power, wanted in expected.items():
        got = [r for r in resolution.results if r.power == power]
        for (text, outcome, *_), result in zip(wanted, got, strict=False):
            assert result.outcome.value == outcome, (text, result)
    return game_map, resolution


def lost_marks(root: ET.Element) -> list[tuple[str, ET.Element]]:
    """Each lost mark as 'POWER K LOC', with its element."""
    found = []
    for g in root.iter(f"{SVG}g"):
        kind = g.attrib.get("class", "").split()
        if kind[:1] == ["lost"]:
            found.append((f"{g.attrib['data-power']} {LETTER[kind[1]]} "
                          f"{g.attrib['data-location']}", g))
    return found


def centre(mark: ET.Element) -> tuple[float, float]:
    """Where a mark stands: the middle of its cross (its last path, two strokes)."""
    d = [e for e in mark.iter(f"{SVG}path")][-1].attrib["d"]
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    xs, ys = numbers[0::2], numbers[1::2]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES])
def test_every_unit_lost_is_drawn_lost_where_it_stood(case: dict[str, Any]) -> None:
    game_map, resolution = adjudicated(case)
    scene = scene_after("losses", resolution)
    root = ET.fromstring(render_svg(game_map, scene))
    marks = lost_marks(root)
    expect = case["expect"]
    drawn = [name for name, _ in marks]
    assert sorted(drawn) == sorted(expect["lost"])  # each once, and none other
    aside = {name for name, g in marks if "aside" in g.attrib["class"].split()}
    assert aside == set(expect["aside"])
    board = board_for(game_map)
    standing = {(u.power, u.location) for u in scene.position.units}
    for name, mark in marks:
        power, _, location = name.split()
        at = board.units.get(location) or board.units[province_of(location)]
        gap = math.dist(centre(mark), at)
        if name in aside:  # beside the unit that took its place, clear of its middle
            assert gap > board.unit_size * 0.5, name
        else:
            # at its place: within a tenth of a unit's size (a glyph's drawn
            # middle is a fraction of a board unit off its point on some boards)
            assert gap < board.unit_size * 0.1, name
        # lost, not standing: no unit of its own is drawn there
        assert (power, location) not in standing, name
        assert mark.find(f"{SVG}title") is not None, name  # why, on pointing at it
    keys = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "key lost"]
    if expect["lost"]:  # the legend says what the mark means, once
        assert len(keys) == 1
        words = "".join(keys[0].itertext())
        assert "crossed out" in words and "lost" in words, words
    else:
        assert keys == [] and root.find(f".//{SVG}g[@class='losses']") is None


def test_a_loss_the_section_and_a_result_row_both_tell_is_drawn_once() -> None:
    """Civil disorder's removal is in 'Units destroyed' and in the results;
    the section's words are the ones kept (the mark's title)."""
    case = next(c for c in CASES if "civil disorder" in c["id"])
    _, resolution = adjudicated(case)
    lost = scene_after("losses", resolution).lost
    assert [(str(x.unit), x.why) for x in lost] == [("F MAO", "removed by the civil disorder rule")]


def test_an_embassy_and_an_unreadable_line_are_not_drawn_as_lost() -> None:
    """An Embassy stands on the Favor map, not this one; a stored line that
    names no unit is skipped, not fatal."""
    from engine.reports import Destroyed
    opening = GameState.initial(load_variant("standard"))
    gone = losses(opening, [], [Destroyed("EGYPT", "E N1q", "kicked"),
                                Destroyed("FRANCE", "somewhere", "?"),
                                Destroyed("FRANCE", "A PAR", "destroyed")])
    assert [(x.unit.power, str(x.unit)) for x in gone] == [("FRANCE", "A PAR")]
    assert isinstance(gone[0], Lost)


def test_a_phase_without_losses_draws_as_before() -> None:
    """The opening: no losses group, no legend line (the standard map's
    golden files and Diplomap's byte-for-byte hashes keep their shape)."""
    game_map = load_variant("standard")
    svg = render_svg(game_map, Scene("x", GameState.initial(game_map)))
    assert 'class="losses"' not in svg and 'class="key lost"' not in svg


def test_on_a_changed_board_a_loss_is_drawn_in_its_part_or_beside_a_unit_near_it() -> None:
    """Diplomap: a unit removed from a part of a split province is drawn in
    that part; one named by the province before the split (a result of the
    phase that split it), beside the unit now standing in one of its parts."""
    from engine.units import Unit
    from judge.maps import attachments
    from tests.judge.maps.test_redrawn import CASES as BOARDS
    from tests.judge.maps.test_redrawn import position
    game_map = load_variant("standard")
    board = position(BOARDS["Galicia split from its Warsaw border to its Budapest border"
                            " (II.A.1)"], game_map)
    removed = next(u for u in board.units if u.location == "GAL-W")
    after = board.evolve(units=tuple(u for u in board.units if u != removed))
    scene = Scene("x", after, board, (), (Lost(removed, "removed"),
                                          Lost(Unit("RUSSIA", UnitKind.ARMY, "GAL"), "disbanded")))
    svg = attachments(game_map, scene)[1][2]
    drawn = {(name, "aside" in g.attrib["class"]) for name, g in lost_marks(ET.fromstring(svg))}
    assert drawn == {("AUSTRIA A GAL-W", False), ("RUSSIA A GAL", True)}
