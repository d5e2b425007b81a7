"""A variant's notice about its board (Intercontinental's "provisional
board, not the official map") is drawn on the map itself, on a line of its
own under the legend's title (beside it, a long title ran into it), legible
at the PNG's width; a map of a variant without a notice (the standard game)
has none."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PIL import Image

from engine.state import GameState
from engine.variant_file import load_variant, variant_notice
from engine.variants import rules_for
from judge.maps.render import render_png, render_svg
from judge.maps.scene import Scene
from tests.judge.maps.test_render import SVG

pytestmark = pytest.mark.slow

LEAST_PIXELS = 11  # a caption smaller than this is not read on a 1000 px map


def _drawn(variant: str) -> tuple[ET.Element, Image.Image]:
    game_map = load_variant(variant)
    state = rules_for(game_map).opening(game_map, GameState.initial(game_map))
    scene = Scene(variant, state)
    svg = ET.fromstring(render_svg(game_map, scene))
    png = Image.open(io.BytesIO(render_png(game_map, scene))).convert("L")
    return svg, png


def _caption_box(svg: ET.Element, what: str = "title") -> tuple[float, float, float]:
    """The PNG's pixels per map unit, and the top and bottom in pixels of
    the legend's line holding the text of class ``what``."""
    title = next(t for t in svg.iter(f"{SVG}text") if t.attrib.get("class") == what)
    scale = float(svg.attrib["width"]) / float(svg.attrib["viewBox"].split()[2])
    font = float(next(g for g in svg.iter(f"{SVG}g")
                      if g.attrib.get("class") == "legend").attrib["font-size"])
    baseline = float(title.attrib["y"]) * scale
    return scale, baseline - font * scale, baseline + font * scale * 0.3


def _ink_right_of_title(svg: ET.Element, png: Image.Image) -> int:
    """Dark pixels in the right third of the legend's title line."""
    _, top, bottom = _caption_box(svg)
    box = png.crop((png.width * 2 // 3, int(top), png.width - 2, int(bottom)))
    return int((np.asarray(box) < 100).sum())


def _ink_on_notice_line(svg: ET.Element, png: Image.Image) -> int:
    """Dark pixels in the left half of the notice's line."""
    _, top, bottom = _caption_box(svg, "notice")
    box = png.crop((2, int(top), png.width // 2, int(bottom)))
    return int((np.asarray(box) < 100).sum())


def test_intercontinental_map_carries_its_provisional_notice() -> None:
    svg, png = _drawn("intercontinental")
    notices = [t for t in svg.iter(f"{SVG}text") if t.attrib.get("class") == "notice"]
    assert [t.text for t in notices] == ["Provisional board, not the official map"]
    notice = variant_notice("intercontinental")
    assert notice is not None and notices[0].text.lower() == notice.lower()
    scale, _, _ = _caption_box(svg)
    assert float(notices[0].attrib["font-size"]) * scale >= LEAST_PIXELS
    assert _ink_on_notice_line(svg, png) > 200  # drawn, not only written in the SVG
    title = next(t for t in svg.iter(f"{SVG}text") if t.attrib.get("class") == "title")
    line = float(next(g for g in svg.iter(f"{SVG}g")
                      if g.attrib.get("class") == "legend").attrib["font-size"])
    assert float(notices[0].attrib["y"]) - float(title.attrib["y"]) >= line  # not beside it


def test_standard_map_has_no_caption() -> None:
    svg, png = _drawn("standard")
    assert not [t for t in svg.iter(f"{SVG}text") if t.attrib.get("class") == "notice"]
    assert _ink_right_of_title(svg, png) == 0
