"""judge/maps/layers.py: a document drawn with its unchanging groups as
layers drawn once is the same picture as the document drawn whole."""

from __future__ import annotations

import io

import cairosvg
import numpy as np
from PIL import Image

from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for
from judge import maps
from judge.maps.layers import OVER, UNDER, layered_png
from judge.maps.scene import Scene


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)


def _whole(svg: str) -> np.ndarray:
    return _pixels(bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=1000,
                                          background_color="white")))


def test_the_favor_map_drawn_in_layers_is_the_same_picture() -> None:
    game_map = load_variant("dissolution")
    state = rules_for(game_map).opening(game_map, GameState.initial(game_map))
    drawn = maps._other_board_svg(game_map, Scene("g", state))
    assert drawn is not None
    svg = drawn[0]
    assert f'<g class="{UNDER}">' in svg and f'<g class="{OVER}">' in svg
    for _ in range(2):  # drawn, then from the layers kept
        assert np.abs(_pixels(layered_png(svg, 1000)) - _whole(svg)).max() <= 2


def test_a_document_without_marks_is_drawn_whole() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" '
           'viewBox="0 0 20 10"><rect x="0" y="0" width="10" height="10" fill="#ff0000"/></svg>')
    pixels = _pixels(layered_png(svg, 20))
    assert tuple(pixels[5, 2]) == (255, 0, 0) and tuple(pixels[5, 15]) == (255, 255, 255)


def test_the_over_group_is_drawn_over_the_phase() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10">'
           f'<g class="{UNDER}"><rect x="0" y="0" width="20" height="10" fill="#0000ff"/></g>'
           '<rect x="0" y="0" width="10" height="10" fill="#ff0000"/>'
           f'<g class="{OVER}"><rect x="5" y="0" width="2" height="10" fill="#00ff00"/></g>'
           '</svg>')
    pixels = _pixels(layered_png(svg, 20))
    assert tuple(pixels[5, 2]) == (255, 0, 0)  # the phase over the under layer
    assert tuple(pixels[5, 6]) == (0, 255, 0)  # the over layer over the phase
    assert tuple(pixels[5, 15]) == (0, 0, 255)  # the under layer where nothing covers it
