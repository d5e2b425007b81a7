"""A board too large to read at mail size (Intercontinental's 419
provinces: 2400 map units, names 6 units high) drawn as a mail client
shows pictures, about 1000 pixels wide: an overview of the whole board
with the players' colours, the legend and a frame round each region, and
a picture of each region (the variant file's [[map.views]]) at a scale
where every name is at least 11 pixels high.

Each picture is the same phase drawing (render.py) seen through another
viewBox, with a caption saying what it shows and the variant's notice
about its board ('Provisional board, not the official map'), so that a
picture forwarded alone still says so. The pictures' PNGs are written
with a palette: the board's flat colours lose nothing, and a results mail
with ten pictures stays well under the 1.5 MB a mail should carry.
"""

from __future__ import annotations

import html
import re
import sys
import threading
from collections.abc import Callable, Sequence

import cairocffi
from PIL import Image

from engine.diplomap.state import map_changes
from engine.map import GameMap, View
from judge.maps import paint
from judge.maps.board import PIXELS_WIDE
from judge.maps.board import number as _n
from judge.maps.png import palette_png
from judge.maps.render import (
    FONTS,
    STATIC_AT,
    _draw,
    _prepared,
    board_notice,
    changed_board,
    opaque,
    phase_title,
    picture,
    render_svg,
    with_board,
)
from judge.maps.scene import Scene

CAPTION = 40  # pixels: the strip under a view's map with its title and the notice
NOTICE_LINE = 20  # pixels: the caption's second line, for the notice
TEXT = 15  # pixels: the caption's and the overview's frame titles' letters
FRAME = "#3b3224"
# a palette this size keeps every colour the board draws (about sixty, and
# their anti-aliased edges) and makes the PNG a quarter of its RGB size
PALETTE = 64
SAMPLED = 4  # one pixel in SAMPLED of each row and column chooses the palette

# the first element's size and viewBox, as templates/map.svg.j2 writes them
_ROOT = re.compile(r'width="[^"]*" height="[^"]*" viewBox="[^"]*"')


def has_views(game_map: GameMap) -> bool:
    return bool(game_map.drawing.views)


def _scale(view: View) -> float:
    """Pixels per map unit: the view's width shown at PIXELS_WIDE."""
    left, _, right, _ = view.box
    return PIXELS_WIDE / (right - left)


def _map_pixels(view: View) -> int:
    _, top, _, bottom = view.box
    return round((bottom - top) * _scale(view))


def view_svg_of(drawn: str, view: View, title: str, notice: str) -> str:
    """A phase's drawing (with or without its board) seen through ``view``'s
    box, PIXELS_WIDE wide, with a caption strip under the map: the title,
    and the notice on a line of its own (beside it, a long title ran into it)."""
    document = _ROOT.sub(_view_root(view, notice), drawn, count=1)
    at = document.rindex("</svg>")
    return document[:at] + _caption(view, title, notice) + document[at:]


def _view_root(view: View, notice: str) -> str:
    """The size and viewBox of a view's picture: its box, and the caption
    strip under it."""
    width, height, (left, top, right, bottom) = _view_frame(view, notice)
    return (f'width="{width}" height="{height}" '
            f'viewBox="{_n(left)} {_n(top)} {_n(right - left)} {_n(bottom - top)}"')


def _view_frame(view: View, notice: str) -> tuple[int, int, Box4]:
    """A view's picture's size in pixels and its box in map units, caption
    included, as its document's root writes them (to a tenth of a unit)."""
    left, top, right, bottom = view.box
    strip_pixels = CAPTION + (NOTICE_LINE if notice else 0)
    left, top = float(_n(left)), float(_n(top))
    width = float(_n(right - left))
    height = float(_n(bottom - top + strip_pixels / _scale(view)))
    return PIXELS_WIDE, _map_pixels(view) + strip_pixels, (left, top, left + width, top + height)


def _caption(view: View, title: str, notice: str) -> str:
    """The caption strip under a view's map, in its map units."""
    left, _, right, bottom = view.box
    scale = _scale(view)
    caption = (CAPTION + (NOTICE_LINE if notice else 0)) / scale
    size, pad = TEXT / scale, 12 / scale
    baseline = bottom + CAPTION / scale / 2 + size * 0.35
    notice_text = (f'<text x="{_n(left + pad)}" y="{_n(baseline + NOTICE_LINE / scale)}" '
                   f'font-style="italic" class="notice">{html.escape(notice)}</text>'
                   if notice else "")
    return (f'<g class="caption" font-size="{_n(size)}" font-family="{FONTS}">'
            f'<rect x="{_n(left)}" y="{_n(bottom)}" width="{_n(right - left)}" '
            f'height="{_n(caption)}" fill="#fbfaf6" stroke="{FRAME}" '
            f'stroke-width="{_n(1 / scale)}"/>'
            f'<text x="{_n(left + pad)}" y="{_n(baseline)}" font-weight="bold" '
            f'class="title">{html.escape(title)}</text>{notice_text}</g>')


def _caption_title(scene: Scene, view: View) -> str:
    return f"{scene.game}: {phase_title(scene.position.phase)}, {view.title}"


def view_svg(game_map: GameMap, scene: Scene, view: View) -> str:
    """The whole SVG document of one view's picture, board included."""
    drawn = render_svg(game_map, scene, static=False, pixels=PIXELS_WIDE, within=view.box)
    whole = with_board(game_map, drawn, map_changes(scene.position))
    return view_svg_of(whole, view, _caption_title(scene, view), board_notice(game_map))


def overview_svg(game_map: GameMap, scene: Scene) -> str:
    """The whole SVG document of the overview: the board without names,
    which could not be read at this size, and a frame round each view."""
    drawn = render_svg(game_map, scene, static=False, pixels=PIXELS_WIDE, names=False)
    changes = map_changes(scene.position)
    patch = changed_board(game_map, changes).patch if changes else ""
    drawn = drawn.replace(STATIC_AT, _bare_board(game_map) + patch, 1)
    at = drawn.rindex("</svg>")
    return drawn[:at] + _view_titles(game_map) + drawn[at:]


def pictures(game_map: GameMap, scene: Scene) -> list[tuple[str, bytes]]:
    """(file name suffix, PNG): the overview ('') and each view ('-europe')."""
    drawn = render_svg(game_map, scene, static=False, pixels=PIXELS_WIDE, names=False)
    changes = map_changes(scene.position)
    patch = changed_board(game_map, changes).patch if changes else ""
    notice = board_notice(game_map)
    out = [("", _overview_png(game_map, drawn, patch))]
    views = game_map.drawing.views
    # the pieces of every view drawn once, each view drawing those in its box
    shown = render_svg(game_map, scene, static=False, pixels=PIXELS_WIDE,
                       within=_around(views))
    plan = paint.prepare(shown)
    for view in views:
        title = _caption_title(scene, view)
        seen: list[paint.Drawing]
        if isinstance(plan, paint.Plan):
            width, height, box = _view_frame(view, notice)
            seen = [plan.through(box, width, height), paint.prepare(
                f'<svg xmlns="http://www.w3.org/2000/svg" {_view_root(view, notice)}>'
                f'{_caption(view, title, notice)}</svg>')]
        else:  # drawn by cairosvg (judge/maps/paint.py): each view whole
            seen = [paint.prepare(view_svg_of(shown, view, title, notice))]
        out.append((f"-{view.name}", _view_png(game_map, view, seen, patch)))
    return out


def _around(views: Sequence[View]) -> Box4:
    return (min(v.box[0] for v in views), min(v.box[1] for v in views),
            max(v.box[2] for v in views), max(v.box[3] for v in views))


# -- the pictures ----------------------------------------------------------------

Box4 = tuple[float, float, float, float]


def _crosses_edge(title: Box4, frame: Box4) -> bool:
    """Whether a frame's dashed outline runs through a title's box."""
    x0, y0, x1, y1 = title
    left, top, right, bottom = frame
    across = x0 < right and left < x1 and y0 < bottom and top < y1
    inside = left < x0 and x1 < right and top < y0 and y1 < bottom
    return across and not inside


def _title_spots(views: Sequence[View], size: float) -> list[Box4]:
    """Each view's title box: on its frame's top or bottom edge, where it
    overlaps no title placed before it and the fewest other frames' outlines
    run through it (the frames overlap; a title over another frame's line
    hides that stretch of it, and reads as that frame's)."""
    taken: list[Box4] = []
    for view in views:
        left, top, right, bottom = view.box
        width, high = len(view.title) * size * 0.62 + size, size * 1.4
        # along the frame's top edge, then its bottom edge, from the left corner
        along = [left + (right - width - left) * k / 8 for k in range(9)]
        spots = [(x, top) for x in along] + [(x, bottom - high) for x in along]
        boxes = [(x, y, x + width, y + high) for x, y in spots]
        free = [b for b in boxes if not any(b[0] < t[2] and t[0] < b[2] and b[1] < t[3]
                                            and t[1] < b[3] for t in taken)] or boxes
        others = [v.box for v in views if v is not view]
        taken.append(min(free, key=lambda b: sum(_crosses_edge(b, o) for o in others)))
    return taken


def _bare_board(game_map: GameMap) -> str:
    """The board without its names, and the views' frames."""
    board = _prepared(game_map).board
    line = 1.6 * board.width / PIXELS_WIDE
    frames = []
    for view in game_map.drawing.views:
        left, top, right, bottom = view.box
        frames.append(
            f'<rect class="view" data-view="{view.name}" x="{_n(left)}" y="{_n(top)}" '
            f'width="{_n(right - left)}" height="{_n(bottom - top)}" fill="none" '
            f'stroke="{FRAME}" stroke-width="{_n(line)}" '
            f'stroke-dasharray="{_n(line * 5)} {_n(line * 3)}"/>')
    return (f'<g class="board">{board.under}</g><g class="borders">{board.over}</g>'
            f'<g class="views">{"".join(frames)}</g>')


def _view_titles(game_map: GameMap) -> str:
    """The views' titles, drawn over everything (the phase's colours too)."""
    board = _prepared(game_map).board
    scale = PIXELS_WIDE / board.width
    size, line = TEXT / scale, 1.6 / scale
    views = game_map.drawing.views
    titles = []
    for view, (x, y, x1, y1) in zip(views, _title_spots(views, size), strict=True):
        titles.append(
            f'<g class="view-title" data-view="{view.name}">'
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(x1 - x)}" '
            f'height="{_n(y1 - y)}" fill="#fbfaf6" stroke="{FRAME}" '
            f'stroke-width="{_n(line * 0.6)}"/>'
            f'<text x="{_n(x + size * 0.5)}" y="{_n(y + size * 1.05)}" '
            f'font-size="{_n(size)}" font-weight="bold" fill="{FRAME}">'
            f'{html.escape(view.title)}</text></g>')
    return f'<g class="view-titles">{"".join(titles)}</g>'


_LAYERS: dict[tuple[int, str], tuple[object, cairocffi.ImageSurface]] = {}
_LOCK = threading.Lock()


def _layer(game_map: GameMap, name: str,
           build: Callable[[], cairocffi.ImageSurface]) -> cairocffi.ImageSurface:
    """A board's picture for one view (or the overview), drawn once per process."""
    key = (id(game_map.drawing), name)
    with _LOCK:
        found = _LAYERS.get(key)
        if found is not None and found[0] is game_map.drawing:
            return found[1]
    layer = build()
    with _LOCK:
        _LAYERS[key] = (game_map.drawing, layer)
    return layer


def _overview_png(game_map: GameMap, drawn: str, patch: str) -> bytes:
    board = _prepared(game_map).board
    height = round(PIXELS_WIDE * board.height / board.width)
    box = f'viewBox="0 0 {_n(board.width)} {_n(board.height)}"'
    layer = _layer(game_map, "", lambda: opaque(_draw(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PIXELS_WIDE}" height="{height}" '
        f'{box} font-family="{FONTS}">{_bare_board(game_map)}</svg>')))
    titles = _layer(game_map, "-titles", lambda: _draw(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PIXELS_WIDE}" height="{height}" '
        f'{box} font-family="{FONTS}">{_view_titles(game_map)}</svg>'))
    return _composed(layer, [paint.prepare(drawn), paint.Layer(titles)], patch, box, height)


def _view_png(game_map: GameMap, view: View, seen: Sequence[paint.Drawing],
              patch: str) -> bytes:
    left, top, right, bottom = view.box
    height = _map_pixels(view)
    box = f'viewBox="{_n(left)} {_n(top)} {_n(right - left)} {_n(bottom - top)}"'
    layer = _layer(game_map, view.name, lambda: opaque(_draw(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PIXELS_WIDE}" height="{height}" '
        f'{box} font-family="{FONTS}">{_prepared(game_map).svg}</svg>')))
    return _composed(layer, seen, patch, box, height)


def _composed(layer: cairocffi.ImageSurface, drawn: Sequence[paint.Drawing], patch: str,
              box: str, height: int) -> bytes:
    """The board's picture, a Diplomap patch if any, then the phase's
    drawing and what goes over it (a view's caption, the overview's titles)."""
    layers: list[paint.Drawing] = [paint.Layer(layer)]
    if patch:
        layers.append(paint.Layer(_draw(
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{PIXELS_WIDE}" '
            f'height="{height}" {box} font-family="{FONTS}">{patch}</svg>')))
    size = drawn[0]
    return _palette_png(picture(size.width, size.height, [*layers, *drawn]))


def _palette_png(surface: cairocffi.ImageSurface) -> bytes:
    """A picture as a PNG of PALETTE colours: the palette from a sixteenth
    of its pixels (every fourth one of every fourth row: the same colours,
    a board's flat colours being larger than four pixels, for a sixteenth
    of the work), each pixel then given the nearest of them."""
    surface.flush()
    width, height = surface.get_width(), surface.get_height()
    # cairo keeps a pixel as one native-endian 32-bit word, xRGB
    order = "BGRX" if sys.byteorder == "little" else "XRGB"
    image = Image.frombuffer("RGB", (width, height), surface.get_data(), "raw", order,
                             surface.get_stride(), 1)
    sample = image.resize((max(1, width // SAMPLED), max(1, height // SAMPLED)),
                          Image.Resampling.NEAREST)
    palette = sample.quantize(PALETTE, method=Image.Quantize.FASTOCTREE)
    quantized = image.quantize(palette=palette, dither=Image.Dither.NONE)
    return palette_png(quantized)
