"""A variant's map goes into a page as the judge drew it: well formed, no
script or event handler, no style the page's Content-Security-Policy would
block, nothing fetched from elsewhere, and text from players (here a game's
name) escaped.

One variant of each way the judge draws a board (drawing all forty takes a
minute, and the variant walk draws them all already): the hand-made standard
map, Dissolution's two boards, Intercontinental's views, DPJudge artwork with
rings and with seasonal terrain, and a schematic board."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from engine.variant_file import load_variant, offered_variants
from judge import maps
from judge.games import _opening
from judge.maps.scene import Scene
from judge.web.map_cache import inline

pytestmark = pytest.mark.slow

HOSTILE = "<script>alert('x')</script>&\"evil"
SVG = "{http://www.w3.org/2000/svg}"


def _check(markup: str) -> None:
    root = ET.fromstring(markup)
    assert root.tag == f"{SVG}svg" and root.get("viewBox"), "page.js zooms the viewBox"
    for element in root.iter():
        tag = element.tag.removeprefix(SVG)
        assert tag not in ("script", "foreignObject", "style", "iframe"), tag
        for name, value in element.attrib.items():
            assert not name.lower().startswith("on"), (tag, name)
            assert name != "style", (tag, value)
            if name.endswith("href"):
                assert not re.match(r"\s*(https?:|javascript:|//)", value), (tag, value)
    assert "<script" not in markup


KINDS = ["standard", "dissolution", "intercontinental", "modern", "loeb9", "chromatic"]


def test_each_kind_of_board_is_offered() -> None:
    assert set(KINDS) <= set(offered_variants())


@pytest.mark.parametrize("variant", KINDS)
def test_a_variant_s_map_is_fit_for_a_page(variant: str) -> None:
    game_map = load_variant(variant)
    scene = Scene(HOSTILE, _opening(variant, "{}", 1))
    board = inline(maps.render(game_map, scene, "svg"))
    assert not board.startswith("<?xml")
    _check(board)
    other = maps.render_other_board(game_map, scene, "svg")
    if other is not None:
        _check(inline(other))
