"""Drawing a scene (judge/maps/scene.py) on its variant's board as SVG,
and from the SVG as PNG for mail clients, or PDF.

The pieces (units and order arrows, judge/maps/pieces.py) are laid on the
board here; templates/map.svg.j2 writes the document. Every piece
that stands for something in the game carries a class and ``data-``
attributes (power, location, order), so tests and tools can read a map
without looking at its pixels.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, cached_property

import cairocffi
import cairosvg
import jinja2
from markupsafe import Markup

from engine.adjustments import centre_counts
from engine.diplomap.state import map_changes
from engine.diplomap.values import MapChange
from engine.map import GameMap, Point, UnitKind
from engine.phase import Phase
from engine.state import GameState
from engine.variant_file import variant_notice
from engine.variants import rules_for
from judge.mail import TEMPLATES
from judge.maps import paint
from judge.maps.bare_names import bare_names
from judge.maps.board import FONTS as FONTS  # the maps' fonts, for the pictures drawn from them
from judge.maps.board import OWNER_OPACITY as OWNER_OPACITY  # the default, for readers of maps
from judge.maps.board import PIXELS_WIDE, MapDrawing, artwork_board
from judge.maps.board import number as _n  # short: it is in every coordinate written
from judge.maps.geographic import geographic_board
from judge.maps.glyphs import CENTRE_RADIUS, VALUE_RING
from judge.maps.key import coasts_drawn, colour_groups, legend_texts, map_key
from judge.maps.labels import circle_box, clear_labels, unit_box
from judge.maps.pieces import (
    UNOWNED,
    Geometry,
    OrderPieces,
    Piece,
    lost_glyph,
    lost_pieces,
    power_colours,
    unit_pieces,
)
from judge.maps.png import rgb_png as rgb_png  # for the pictures drawn from them
from judge.maps.redrawn import Redrawn, redraw
from judge.maps.scene import Scene
from judge.maps.schematic import schematic_board

# -- the document --------------------------------------------------------------

@dataclass(frozen=True)
class LegendRow:
    power: str
    colour: str
    text: str
    x: float
    y: float


def _centre_value(game_map: GameMap, code: str) -> int:
    centre = game_map.provinces[code].centre
    return centre.value if centre is not None else 0


def _legend(game_map: GameMap, state: GameState, colours: Mapping[str, str],
            width: float, top: float, line: float,
            given: list[tuple[str, str, str]] | None = None) -> tuple[list[LegendRow], float]:
    if given is not None:  # the variant's map key: a line per colour group
        return _legend_rows({power: text for power, _, text in given},
                            {power: colour for power, colour, _ in given}, width, top, line)
    counts = centre_counts(game_map, state)
    # centres of several values (Dissolution's victory points) are counted as points
    unit_word = "point" if any((p.centre.value if p.centre else 1) > 1
                               for p in game_map.provinces.values()) else "centre"
    texts = {}
    # the neutrals the rules set apart (Dissolution's nuclear powers) have
    # lines of their own; the rest are minor powers
    marked = rules_for(game_map).marked_territories(game_map)
    # in the variant's order: bid_powers is a set, and the minors' row is named by its first
    minors = [p for p in game_map.powers if p in game_map.bid_powers and p not in marked]
    for power in game_map.powers:
        if power in minors:
            continue  # the many neutral minor powers share one line
        units = len(state.units_of(power))
        centres = counts.get(power, 0)
        neutral = " (neutral)" if power in state.unplayed else ""
        name = game_map.powers[power].name_in_prose
        texts[power] = (f"{name}{neutral}: {centres} {unit_word}{'s' * (centres != 1)}, "
                        f"{units} unit{'s' * (units != 1)}")
        if marked.get(power):  # the dashes round its territory (judge/maps/schematic.py)
            texts[power] += ", territory dashed"
    if minors:
        units = sum(len(state.units_of(p)) for p in minors)
        centres = sum(1 for _, p in state.owners if p in minors)
        texts[minors[0]] = (f"Minor powers ({len(minors)}): {centres} centres, "
                            f"{units} units")
    return _legend_rows(texts, colours, width, top, line)


def _legend_rows(texts: Mapping[str, str], colours: Mapping[str, str], width: float,
                 top: float, line: float) -> tuple[list[LegendRow], float]:
    # a character of the legend's font is about half a line wide
    needed = max(len(t) for t in texts.values()) * line * 0.5 + line * 2.2
    columns = max(1, min(len(texts), int(width // needed)))
    column_width = width / columns
    rows = []
    for index, (power, text) in enumerate(texts.items()):
        row, column = divmod(index, columns)
        rows.append(LegendRow(power, colours[power], text, column * column_width + line * 0.6,
                              top + line * (1.9 + row * 1.3)))
    height = line * (2.6 + 1.3 * math.ceil(len(texts) / columns))
    return rows, height


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True)


@cache
def _template() -> jinja2.Template:
    return _environment().get_template("map.svg.j2")


def phase_title(phase: Phase) -> str:
    return f"{phase.name} ({phase})"


STATIC_AT = "<!-- the board -->"  # where the unchanging parts go in the document


def render_svg(game_map: GameMap, scene: Scene, *, static: bool = True,
               pixels: int = 0, within: Box | None = None, names: bool = True) -> str:
    """The map as an SVG document. Without ``static`` the parts that never
    change (sea, land, borders, names) are left out, for laying over a
    picture of them made once (:func:`render_png`). ``pixels``: the width
    the picture is shown at (the legend is sized for it), if not the
    variant's own (judge/maps/views.py draws a large board at mail size);
    ``within``: a box of the board, the only part whose pieces are drawn;
    without ``names``, for a board drawn without its names (views.py's
    overview), owned land is painted whole, not round them."""
    drawn = _render_phase(game_map, scene, pixels, within, names)
    return with_board(game_map, drawn, map_changes(scene.position)) if static else drawn


def with_board(game_map: GameMap, drawn: str, changes: tuple[MapChange, ...] = ()) -> str:
    """A phase's drawing (``render_svg(..., static=False)``) with the board
    put under it: the whole map. ``changes``: the position's Diplomap
    changes (Diplomap's part of the position): the board is then the variant's
    without the names of provinces that are gone, with the changes drawn
    over it (judge/maps/redrawn.py)."""
    svg = _prepared(game_map).svg
    if changes:
        redrawn = changed_board(game_map, changes)
        svg = _without_names(svg, redrawn.hidden) + redrawn.patch
    return drawn.replace(STATIC_AT, svg, 1)


def _without_names(svg: str, codes: frozenset[str]) -> str:
    lines = svg.split("\n")
    return "\n".join(line for line in lines
                     if not (line.startswith("<text ") and line.endswith("</text>")
                             and line[line.rfind(">", 0, -7) + 1:-7] in codes))


_PATCHES: dict[tuple[int, tuple[MapChange, ...], int],
               tuple[object, cairocffi.ImageSurface]] = {}
_PATCHES_KEPT = 32  # a game's phases share their board's until its next change


def _patch_layer(game_map: GameMap, changes: tuple[MapChange, ...],
                 pixels: int) -> cairocffi.ImageSurface:
    """A changed board's patch drawn at the PNG's scale, transparent
    elsewhere; kept per board and width, as the board's own picture is."""
    key = (id(game_map.drawing), changes, pixels)
    with _LOCK:
        found = _PATCHES.get(key)
        if found is not None and found[0] is game_map.drawing:
            return found[1]
    board = _prepared(game_map).board
    height = round(pixels * board.height / board.width)
    layer = _draw(f'<svg xmlns="http://www.w3.org/2000/svg" width="{pixels}" '
                  f'height="{height}" viewBox="0 0 {_n(board.width)} {_n(board.height)}" '
                  f'font-family="{FONTS}">{changed_board(game_map, changes).patch}</svg>')
    with _LOCK:
        if len(_PATCHES) >= _PATCHES_KEPT:
            _PATCHES.pop(next(iter(_PATCHES)))
        _PATCHES[key] = (game_map.drawing, layer)
    return layer


def changed_board(game_map: GameMap, changes: tuple[MapChange, ...]) -> Redrawn:
    """The variant's board after the Diplomap ``changes`` (judge/maps/redrawn.py)."""
    prepared = _prepared(game_map)
    return redraw(game_map, prepared.board, prepared.labels, changes)


def _scored(state: GameState, redrawn: Redrawn) -> GameState:
    """The position with each centre named by the base province it came
    from, so the variant's rules can score it on the base map."""
    base = redrawn.centre_base
    return replace(state, owners=tuple(sorted((base.get(c, c), p) for c, p in state.owners)))


Box = tuple[float, float, float, float]  # left, top, right, bottom, in map units


def _render_phase(game_map: GameMap, scene: Scene, shown_at: int = 0,
                  within: Box | None = None, names: bool = True) -> str:
    state = scene.position
    changes = map_changes(state)
    redrawn = changed_board(game_map, changes) if changes else None
    board = redrawn.board if redrawn is not None else board_for(game_map)
    centre_base = redrawn.centre_base if redrawn is not None else {}
    geo = Geometry(game_map, board, redrawn.former if redrawn is not None else None)
    key = map_key(game_map, state)
    colours = power_colours(game_map) | (dict(key.colours) if key else {})
    pixels = (shown_at or (key.pixels if key is not None and key.pixels else 0)
              or board.pixels or PIXELS_WIDE)
    owners = dict(state.owners)
    owned = (_prepared(game_map).owned_areas if redrawn is None and names
             else board.areas)
    areas = [(code, owned[code], colours[power])
             for code, power in sorted(owners.items()) if code in owned]
    centres = [(code, x, y, colours.get(owners.get(code, ""), UNOWNED),
                _centre_value(game_map, centre_base.get(code, code)))
               for code, (x, y) in sorted(board.centres.items())]
    lines, marks = OrderPieces(geo, scene, colours).pieces() if scene.orders else ([], [])
    units = unit_pieces(geo, state, colours, key.kinds if key else {})
    if within is not None:  # a view of a large board: what it cannot show is not drawn
        areas = [a for a in areas if _path_meets(a[1], within)]
        centres = [c for c in centres if _point_near(c[1], c[2], within, geo.size * 2)]
        units = [u for u in units if _point_near(*geo.at(u.where), within, geo.size * 3)]
    coasts = coasts_drawn(game_map, state, board) if board.schematic else ""
    if coasts:  # artwork draws its coasts; a schematic shows them split or joined
        lines.insert(0, Piece("coasts", "", "", coasts))
    # the legend's line height, in map units: the same in pixels on a wider PNG
    line = board.width / 48 * PIXELS_WIDE / pixels
    texts = legend_texts(game_map, state, key) if key is not None and key.groups else None
    scored = _scored(state, redrawn) if redrawn is not None else state
    notice = board_notice(game_map)
    # the notice has a line of its own under the title: beside it, a long title ran into it
    notice_line = line if notice else 0.0
    legend, legend_height = _legend(game_map, scored, colours, board.width,
                                    board.height + notice_line, line, texts)
    legend_height += notice_line
    lost = lost_pieces(geo, scene, colours)
    loss_key = _loss_key(board.height + legend_height, line) if lost else None
    if loss_key is not None:
        legend_height += line * 1.3
    height = board.height + legend_height
    if within is not None:
        legend = []  # below the map, out of the view's box: its letters cost the most
    after = f", after {scene.before.phase.name}" if scene.before and scene.orders else ""
    return _template().render(
        board_at=Markup(STATIC_AT),
        fonts=FONTS,
        pixel_width=pixels,
        pixel_height=round(pixels * height / board.width),
        width=_n(board.width), height=_n(height), map_height=_n(board.height),
        title=f"{scene.game}: {phase_title(state.phase)}{after}",
        game=scene.game, phase=str(state.phase), variant=game_map.name,
        areas=areas, owner_opacity=board.owner_opacity, centres=centres,
        centre_radius=_n(board.unit_size * CENTRE_RADIUS),
        lines=[_markup(p) for p in lines], units=[_markup(p) for p in units],
        marks=[_markup(p) for p in marks], losses=[_markup(p) for p in lost],
        loss_key=loss_key,
        legend=legend, line=line, n=_n, notice=notice,
        colour_groups=colour_groups(key) if key is not None else [],
    )


def _point_near(x: float, y: float, box: Box, margin: float) -> bool:
    return box[0] - margin <= x <= box[2] + margin and box[1] - margin <= y <= box[3] + margin


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _path_meets(d: str, box: Box) -> bool:
    """Whether an area's path (absolute M and L points, as board.py and the
    schematic write them) reaches into the box; any other path is kept."""
    if any(c in d for c in "aAcCqQhHvVlmsStT"):
        return True
    numbers = [float(n) for n in _NUMBER.findall(d)]
    xs, ys = numbers[0::2], numbers[1::2]
    return bool(xs) and min(xs) <= box[2] and max(xs) >= box[0] and \
        min(ys) <= box[3] and max(ys) >= box[1]


@dataclass(frozen=True)
class LegendKey:
    """A line of the legend saying what a mark means: the mark, and words."""

    markup: Markup
    text: str
    x: float  # where the words start
    y: float  # their baseline


LOSS_KEY = "Faded and crossed out: a unit lost this phase (destroyed, disbanded or removed)"


def _loss_key(legend_bottom: float, line: float) -> LegendKey:
    """The legend's line for the lost units' mark, below its other lines."""
    y = legend_bottom - line * 0.7  # where a next row of powers would stand
    mark = lost_glyph(UnitKind.ARMY, line, y - line * 0.3, line * 0.8, "#8c8c8c")
    return LegendKey(Markup(mark), LOSS_KEY, line * 1.7, y)


def board_notice(game_map: GameMap) -> str:
    """The variant's notice about its board, as the picture's caption
    ('Provisional board, not the official map' for Intercontinental): a
    map forwarded without its mail must still say so. None for a map not
    shipped with the engine (a GM's file for judge adjudicate)."""
    try:
        notice = variant_notice(game_map.name)
    except KeyError:
        notice = None
    notice = notice or game_map.drawing.notice  # the board's own (Dissolution's reconstruction)
    return notice[:1].upper() + notice[1:] if notice else ""


def _markup(piece: Piece) -> Piece:
    return Piece(piece.kind, piece.power, piece.where, Markup(piece.markup))


def _draw(svg: str, width: int | None = None) -> cairocffi.ImageSurface:
    """An SVG drawn in memory, at its own size or ``width`` pixels wide
    (judge/maps/paint.py, or cairosvg for what it does not draw)."""
    return paint.draw(svg, width)


def render_png(game_map: GameMap, scene: Scene) -> bytes:
    """The map as PNG: the board's unchanging parts, drawn once per
    process, with this phase's drawing laid over them. The same picture as
    ``svg_to_png(render_svg(...))`` at about half the cost, which counts
    when hundreds of games reach their deadline together."""
    return phase_png(game_map, render_svg(game_map, scene, static=False),
                     map_changes(scene.position))


def phase_png(game_map: GameMap, phase_svg: str,
              changes: tuple[MapChange, ...] = ()) -> bytes:
    """A phase's drawing (``render_svg(..., static=False)``) as PNG, laid
    over the board's picture; with Diplomap's ``changes``, the changed
    board's (its patch drawn once per board, like the board itself)."""
    drawing = paint.prepare(phase_svg)
    layers = [paint.Layer(_prepared(game_map).layer(drawing.width))]
    if changes:
        layers.append(paint.Layer(_patch_layer(game_map, changes, drawing.width)))
    return rgb_png(picture(drawing.width, drawing.height, [*layers, drawing]))


def picture(width: int, height: int,
            drawings: Sequence[paint.Drawing]) -> cairocffi.ImageSurface:
    """The ``drawings`` one over another, in order, on white: opaque
    everywhere (the PNG needs no alpha), each drawn straight onto it."""
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, width, height)
    context = cairocffi.Context(surface)
    context.set_source_rgb(1, 1, 1)
    context.paint()
    for drawing in drawings:
        drawing.draw_on(context)
    return surface


def opaque(layer: cairocffi.ImageSurface) -> cairocffi.ImageSurface:
    """A bottom layer on white, once: laying it under a phase is then a copy."""
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_RGB24, layer.get_width(),
                                     layer.get_height())
    context = cairocffi.Context(surface)
    context.set_source_rgb(1, 1, 1)
    context.paint()
    context.set_source_surface(layer)
    context.paint()
    return surface


def svg_to_png(svg: str) -> bytes:
    return bytes(cairosvg.svg2png(bytestring=svg.encode("utf-8")))


def svg_to_pdf(svg: str) -> bytes:
    return bytes(cairosvg.svg2pdf(bytestring=svg.encode("utf-8")))


# -- boards, once per variant ----------------------------------------------------

class _Prepared:
    """A variant's board and what is made from it once per process: the
    board's SVG and its picture at the PNG's scale. Built on first use."""

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        drawing = game_map.drawing
        self.board = (artwork_board(game_map) if drawing.artwork is not None
                      else geographic_board(game_map) if drawing.spread
                      else schematic_board(game_map))
        self.layers: dict[int, cairocffi.ImageSurface] = {}

    @cached_property
    def svg(self) -> str:
        """The sea, land, borders and names, for the top of every map."""
        board = self.board
        labels = [(code, _n(x), _n(y), self.map.provinces[code].is_centre)
                  for code, (x, y) in sorted(self.labels.items())]
        return _environment().get_template("map-board.svg.j2").render(
            under=Markup(board.under), over=Markup(board.over), labels=labels,
            label_size=_n(board.label_size))

    @cached_property
    def labels(self) -> dict[str, Point]:
        """The names, moved off the units, dislodged units and centre markers
        drawn over them."""
        board = self.board
        size = board.unit_size
        obstacles = [box for location, unit in board.units.items()
                     for box in (unit_box(*unit, size), board.aside(location, unit).box(size))]
        marker = board.unit_size * CENTRE_RADIUS  # as the phase's template draws it
        obstacles.extend(circle_box(x, y, marker * (VALUE_RING if _centre_value(
            self.map, code) > 1 else 1.0) + 0.4) for code, (x, y) in board.centres.items())
        return clear_labels(board.labels, obstacles, board.label_size)

    @cached_property
    def owned_areas(self) -> Mapping[str, str]:
        """Each province's area as its owner's colour covers it: the board's,
        less the names written on it where the board paints owners strong."""
        board = self.board
        if not board.bare_names:
            return board.areas
        bold = {code for code in self.labels if self.map.provinces[code].is_centre}
        return bare_names(board.areas, self.labels, board.label_size, bold)

    def layer(self, pixels: int) -> cairocffi.ImageSurface:
        """The same, drawn on white at the PNG's scale (``pixels`` wide); kept per width."""
        found = self.layers.get(pixels)
        if found is None:
            found = self.layers[pixels] = self._layer(pixels)
        return found

    def _layer(self, pixels: int) -> cairocffi.ImageSurface:
        board = self.board
        height = round(pixels * board.height / board.width)
        return opaque(_draw(f'<svg xmlns="http://www.w3.org/2000/svg" width="{pixels}" '
                     f'height="{height}" viewBox="0 0 {_n(board.width)} {_n(board.height)}" '
                     f'font-family="{FONTS}">{self.svg}</svg>'))


_PREPARED: dict[int, tuple[object, _Prepared]] = {}
_LOCK = threading.Lock()


def _prepared(game_map: GameMap) -> _Prepared:
    """Keyed by the map's drawing, which every copy of a variant's map (one
    per canal opening) shares; the drawing is kept alongside so that its
    id cannot pass to another."""
    key = id(game_map.drawing)
    with _LOCK:
        found = _PREPARED.get(key)
        if found is None:
            found = _PREPARED[key] = (game_map.drawing, _Prepared(game_map))
        return found[1]


def board_for(game_map: GameMap) -> MapDrawing:
    """The variant's board, built on first use and kept for the process."""
    return _prepared(game_map).board
