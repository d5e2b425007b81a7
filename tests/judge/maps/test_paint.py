"""judge/maps/paint.py: the maps' SVG drawn straight with cairo is the
picture cairosvg draws of it; what paint.py does not know goes to cairosvg."""

from __future__ import annotations

import io
from functools import cache

import cairocffi
import numpy as np
import pytest
from cairosvg.parser import Tree
from cairosvg.surface import PNGSurface
from PIL import Image

from engine.state import GameState
from engine.variant_file import load_variant
from engine.variants import rules_for
from judge import maps
from judge.maps import paint
from judge.maps.render import picture, render_svg, rgb_png
from judge.maps.scene import Scene
from judge.maps.views import overview_svg, view_svg
from tests.judge.maps.test_render import scenes, standard


def _pixels(surface: cairocffi.ImageSurface) -> np.ndarray:
    surface.flush()
    data = np.frombuffer(bytes(surface.get_data()), np.uint8)
    rows = data.reshape(surface.get_height(), surface.get_stride())
    return rows[:, :surface.get_width() * 4].astype(int)


def _by_cairosvg(svg: str, width: int | None = None) -> np.ndarray:
    return _pixels(PNGSurface(Tree(bytestring=svg.encode("utf-8")), None, 96,
                              output_width=width).cairo)


@cache
def documents() -> dict[str, str]:
    """A document of each kind the maps draw, with orders, dislodged units,
    losses and the board where they have them."""
    out = {}
    for phase in ("F1901R", "W1901A", "S1902M"):
        out[f"standard {phase}"] = render_svg(standard(), scenes()[phase], static=False)
    out["standard with its board"] = render_svg(standard(), scenes()["F1901R"])
    dissolution = load_variant("dissolution")
    opening = Scene("g", rules_for(dissolution).opening(dissolution,
                                                        GameState.initial(dissolution)))
    out["dissolution"] = render_svg(dissolution, opening, static=False)
    favor = maps._other_board_svg(dissolution, opening)
    assert favor is not None
    out["favor map"] = favor[0]
    intercontinental = load_variant("intercontinental")
    start = Scene("g", rules_for(intercontinental).opening(
        intercontinental, GameState.initial(intercontinental)))
    out["intercontinental overview"] = overview_svg(intercontinental, start)
    out["intercontinental view"] = view_svg(intercontinental, start,
                                            intercontinental.drawing.views[0])
    return out


@pytest.mark.parametrize("name", ["standard F1901R", "standard W1901A", "standard S1902M",
                                  "standard with its board", "dissolution", "favor map",
                                  "intercontinental overview", "intercontinental view"])
def test_the_maps_documents_are_drawn_as_cairosvg_draws_them(name: str) -> None:
    svg = documents()[name]
    # drawn here, not handed on to cairosvg: that would be the slow way again
    assert isinstance(paint.prepare(svg), paint.Plan)
    assert np.abs(_pixels(paint.draw(svg)) - _by_cairosvg(svg)).max() <= 2


def test_a_document_drawn_at_another_width_is_cairosvg_s_at_that_width() -> None:
    svg = documents()["favor map"]
    assert np.abs(_pixels(paint.draw(svg, 1000)) - _by_cairosvg(svg, 1000)).max() <= 2


SQUARE = ('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" '
          'viewBox="0 0 20 20">{}</svg>')


@pytest.mark.parametrize("inside", [
    '<ellipse cx="10" cy="10" rx="8" ry="4" fill="#ff0000"/>',
    '<rect x="2" y="2" width="8" height="8" transform="rotate(20)" fill="#00ff00"/>',
    '<path d="M2 10 A8 8 0 0 1 18 10" stroke="#0000ff" fill="none"/>',
    '<path d="M2 2L18 18" style="stroke:#000000"/>',
    '<text x="2" y="12" font-size="1em">Rome</text>',
    '<circle cx="10" cy="10" r="6" fill="rgb(10,200,10)"/>',
    '<text x="2 6 10" y="12" font-size="6">ABC</text>',
])
def test_what_paint_does_not_draw_goes_to_cairosvg(inside: str) -> None:
    svg = SQUARE.format(inside)
    drawing = paint.prepare(svg)
    assert isinstance(drawing, paint.Layer)
    assert np.array_equal(_pixels(paint.draw(svg)), _by_cairosvg(svg))
    assert _pixels(paint.draw(svg)).any()  # something was drawn


@pytest.mark.parametrize("inside", [
    '<g opacity="0.5"><rect x="2" y="2" width="10" height="10" fill="#ff0000"/>'
    '<rect x="6" y="6" width="10" height="10" fill="#0000ff"/></g>',
    '<rect x="2" y="2" width="16" height="10" rx="3" fill="#ffcc00" stroke="#222222" '
    'stroke-width="0.8"/>',
    '<polygon points="2,2 18,4 10,18" fill="#00aa00" fill-opacity="0.5" stroke="#000000" '
    'stroke-dasharray="2 1" stroke-linejoin="round"/>',
    '<path d="M2 2h10v10H2zM5 5l4 0l0 4z" fill="#aa00aa" fill-rule="evenodd"/>',
    '<g font-size="5" fill="#333333"><text x="10" y="8" text-anchor="middle" '
    'font-weight="bold">Mid</text><text x="18" y="16" text-anchor="end" '
    'font-style="italic">  end  </text></g>',
    '<line x1="1" y1="1" x2="19" y2="12" stroke="#000000" stroke-width="2" '
    'stroke-linecap="round" opacity="0.4"/>',
])
def test_each_thing_paint_draws_is_what_cairosvg_draws(inside: str) -> None:
    svg = SQUARE.format(inside)
    assert isinstance(paint.prepare(svg), paint.Plan)
    assert np.abs(_pixels(paint.draw(svg)) - _by_cairosvg(svg)).max() <= 2
    assert _pixels(paint.draw(svg)).any()


def test_a_plan_seen_through_a_box_is_the_document_with_that_box() -> None:
    svg = documents()["standard S1902M"]
    plan = paint.prepare(svg)
    assert isinstance(plan, paint.Plan)
    box = (300.0, 200.0, 500.0, 350.0)
    seen = plan.through(box, 400, 300)
    document = svg.replace(svg[svg.index('width="'):svg.index(' font-family')],
                           'width="400" height="300" viewBox="300 200 200 150"', 1)
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, 400, 300)
    seen.draw_on(cairocffi.Context(surface))
    assert np.abs(_pixels(surface) - _by_cairosvg(document)).max() <= 2
    assert 0 < len(seen.steps) < len(plan.steps)  # what lies outside is left out


def test_the_png_is_the_picture() -> None:
    svg = SQUARE.format('<rect x="0" y="0" width="10" height="20" fill="#ff8000"/>'
                        '<circle cx="15" cy="10" r="4" fill="#0080ff"/>')
    drawing = paint.prepare(svg)
    surface = picture(drawing.width, drawing.height, [drawing])
    png = np.asarray(Image.open(io.BytesIO(rgb_png(surface))).convert("RGB"), int)
    assert png.shape == (40, 40, 3)
    assert tuple(png[20, 5]) == (255, 128, 0) and tuple(png[20, 30]) == (0, 128, 255)
    assert tuple(png[2, 38]) == (255, 255, 255)  # white where nothing is drawn
    # the same bytes as cairo's own pixels: B, G, R in memory, reversed
    assert np.array_equal(png, _pixels(surface).reshape(40, 40, 4)[:, :, 2::-1])
