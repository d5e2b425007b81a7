"""The overview's frame titles (judge/maps/views.py): each on an edge of its
frame where no other title overlaps it, and drawn over everything (the
phase's colours and the other frames' dashed outlines, which overlap on
Intercontinental's board), so every region's name reads on the overview a
results mail attaches."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from engine.map import View
from judge.maps.board import PIXELS_WIDE
from judge.maps.render import board_for
from judge.maps.scene import Scene
from judge.maps.views import TEXT, _crosses_edge, _title_spots, overview_svg
from tests.judge.maps.test_intercontinental_map import POSITIONS, board, position
from tests.judge.maps.test_render import SVG


def _spots() -> list[tuple[View, tuple[float, float, float, float]]]:
    game_map = board()
    size = TEXT * board_for(game_map).width / PIXELS_WIDE
    views = game_map.drawing.views
    return list(zip(views, _title_spots(views, size), strict=True))


def test_titles_do_not_overlap() -> None:
    overlapping = [(one.name, two.name)
                   for (one, a), (two, b) in itertools.combinations(_spots(), 2)
                   if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    assert overlapping == []


def test_a_frame_crossing_a_title_is_seen() -> None:
    assert _crosses_edge((0, 0, 10, 2), (5, -5, 20, 20))  # the left edge runs through
    assert not _crosses_edge((6, 0, 10, 2), (5, -5, 20, 20))  # wholly inside
    assert not _crosses_edge((0, 0, 4, 2), (5, -5, 20, 20))  # wholly outside


@pytest.mark.slow
def test_titles_are_drawn_over_the_phase() -> None:
    svg = ET.fromstring(overview_svg(board(), Scene("g", position(POSITIONS["opening"]))))
    classes = [g.attrib.get("class") for g in svg if g.tag == f"{SVG}g"]
    assert classes.index("view-titles") > classes.index("units")
