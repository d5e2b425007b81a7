"""Measured legibility of the maps the judge draws (issue 24): checks run on
the SVG a results mail carries, at the width a mail client shows it.

``read(svg)`` takes a map document (templates/map.svg.j2's, or a variant's
other board, judge/maps/hexboard.py's) apart into what a reader looks at:
the province names, the markers (units, dislodged units, supply-centre
markers, the Favor map's pieces), the colours of the players and the areas
of the provinces where the document draws them. Each check is a function
returning its violations, each with a message naming what fails and by how
much, so a map's author can run one check while drawing:

- ``small_labels``: every name at least ``MIN_LABEL_PX`` high on screen;
- ``overlaps``: no marker over another marker or a name, no two names over
  each other;
- ``border_contacts``: no marker within ``BORDER_CLEARANCE_PX`` of a border of
  its own province (or Diplomap part);
- ``markers_outside`` / ``labels_outside``: each marker, and each name, in the
  province it stands for; ``labels_on_borders``: names clear of their
  province's borders (the standard map's artwork writes some names across
  coasts and borders by design: these two are for boards the judge lays
  out itself, Diplomap's new names);
- ``colour_clashes``: the players' colours (as units, as owned land, and
  against the sea), and the Favor map's slices, at least
  ``MIN_COLOUR_DIFFERENCE`` apart in CIEDE2000; the shades of one colour
  group (one player's powers, as the document's ``colour-groups`` metadata
  lists them) at least ``MIN_SHADE_DIFFERENCE`` apart.

The thresholds, and why:

- A name's *rendered height* is the height of its text box as SVG lays it
  out (``getBBox()`` in a browser): the font's ascent plus descent, times
  the font size, times the document's scale to the display width. 11 px is
  the smallest such box that reads at 1:1 in a mail client; DejaVu Sans'
  box is 1.164 font sizes, so it asks for a font size of 9.45 px on screen.
  The standard map (DPJudge's artwork, which reads well) writes its names
  at 6 units on a 628-unit board: 9.55 px of font, an 11.1 px box.
- Colours must differ by ``MIN_COLOUR_DIFFERENCE`` = 12 ΔE00. A ΔE00 of
  1-2 is a just-noticeable difference side by side; a reader matching a
  unit across the map to a legend swatch needs categories, not shades, and
  palettes for categorical data are built some 10-20 ΔE00 apart. The
  standard map's nearest pairs are 13.8 (France's blue fleet on the sea),
  17.3 (England and Russia as owned land) and 19.0 (the same as units);
  the defects the issue names are far below: NATO and the US Navy 3.8, the
  Favor map's NATO and US slices 1.2. 12 keeps a margin under the first
  and flags the others.
- The shades of one colour group (Intercontinental's player: four powers,
  one per theatre, and the pale of the affiliates it sponsors) are meant
  to read as one family, so they are held apart by less:
  ``MIN_SHADE_DIFFERENCE`` = 6 ΔE00. They are compared side by side,
  where two theatres' powers meet, not matched across the map to a
  legend, and 6 is some three to six just-noticeable differences: seen at
  a glance next to each other, half the distance that tells players apart.
- A marker touches a border when its outline comes within
  ``BORDER_CLEARANCE_PX`` = 1 px of the border's middle line: borders are
  drawn 1-2 px wide at the display width, so closer than that the two
  strokes meet.
- Two things overlap when they share more than ``OVERLAP_PX2`` of screen
  (a quarter of a pixel): less is the rounding of coordinates to a tenth
  of a unit, not a drawing on top of another.

What counts as a name: the texts of ``<g class="labels">``, any text with a
``data-province`` or ``data-space`` attribute or a ``label``/``name`` class,
and any text whose content is the ``data-space`` of one of the document's
polygons (the Favor map's hexes). A marker: a ``<g class="unit ...">``
group (units; ``dislodged`` in its class for a dislodged one), a
``circle.centre`` (with the ``centre-value`` ring drawn around it), and a
circle with ``data-power`` outside those (the Favor map's pieces).
``transform`` attributes (translate, scale, matrix) are followed, so an
inset drawn at another scale is measured at its own.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from itertools import combinations

import cairocffi
import cairosvg
from shapely import LineString, Point, Polygon, STRtree, box, unary_union
from shapely.affinity import affine_transform
from shapely.geometry.base import BaseGeometry

from engine.diplomap.state import map_changes
from engine.map import GameMap, province_of
from engine.state import GameState
from judge.maps.board import LAND, SEA
from judge.maps.render import OWNER_OPACITY, board_for, changed_board
from tests.judge.maps.ciede2000 import blend, difference

DISPLAY_WIDTH = 1000.0  # px: what a mail client shows of a results mail's map
MIN_LABEL_PX = 11.0
MIN_COLOUR_DIFFERENCE = 12.0  # ΔE00
MIN_SHADE_DIFFERENCE = 6.0  # ΔE00, between the shades of one colour group
BORDER_CLEARANCE_PX = 1.0
OVERLAP_PX2 = 0.25
LEADER_START_PX = 2.5  # a leader line starts this near the name it leads from, at most

SVG = "{http://www.w3.org/2000/svg}"
Matrix = tuple[float, float, float, float, float, float]  # SVG's a b c d e f
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True)
class Violation:
    check: str  # "label size", "overlap", "border", "outside", "colour"
    message: str
    value: float  # the measurement: px, px², ΔE00
    at: tuple[float, float, float, float] | None = None  # where, in document units

    def __str__(self) -> str:
        return f"{self.check}: {self.message}"


@dataclass(frozen=True)
class Label:
    text: str
    ink: BaseGeometry  # the glyphs' ink box, in document units
    font_px: float  # the font size on screen
    height_px: float  # the text box's height on screen (ascent + descent)


@dataclass(frozen=True)
class Marker:
    kind: str  # "unit", "dislodged", "centre", "piece"
    where: str  # the location or province it stands for
    power: str
    shape: BaseGeometry  # what it covers, stroke included, in document units
    fill: BaseGeometry  # the same without its outline's outer half

    @property
    def name(self) -> str:
        return f"{self.kind} {self.where}" + (f" ({self.power})" if self.power else "")


@dataclass(frozen=True)
class Drawn:
    """A map document as a reader sees it."""

    scale: float  # screen px per document unit
    labels: tuple[Label, ...]
    markers: tuple[Marker, ...]
    areas: Mapping[str, BaseGeometry]  # province -> area, where the document draws it
    legend: tuple[tuple[str, str], ...]  # (power, colour) per legend row
    unit_colours: Mapping[str, str]  # power -> its units' fill
    owner_opacity: float | None  # owned land's tint, None if no land is drawn owned
    slices: Mapping[str, str] = field(default_factory=dict)  # Favor map: space -> fill
    has_sea: bool = True
    groups: Mapping[str, str] = field(default_factory=dict)  # colour -> its colour group's name
    # a name written beside its province: its leader line, drawn from the name into the province
    leaders: Mapping[str, LineString] = field(default_factory=dict)


# -- reading the document --------------------------------------------------------

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2,
            a * e2 + c * f2 + e, b * e2 + d * f2 + f)


def _transform(text: str | None) -> Matrix:
    matrix = IDENTITY
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        v = [float(x) for x in _NUMBER.findall(args)]
        if name == "translate":
            step: Matrix = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale":
            step = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        elif name == "matrix":
            step = (v[0], v[1], v[2], v[3], v[4], v[5])
        elif name == "rotate":
            r = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) > 2 else (0.0, 0.0)
            step = _multiply(_multiply((1, 0, 0, 1, cx, cy), (math.cos(r), math.sin(r),
                             -math.sin(r), math.cos(r), 0, 0)), (1, 0, 0, 1, -cx, -cy))
        else:
            raise ValueError(f"transform {name}() is not measured")
        matrix = _multiply(matrix, step)
    return matrix


def _moved(shape: BaseGeometry, m: Matrix) -> BaseGeometry:
    if m == IDENTITY:
        return shape
    a, b, c, d, e, f = m
    return affine_transform(shape, [a, c, b, d, e, f])


def _subpaths(d: str) -> list[tuple[list[tuple[float, float]], bool]]:
    """Path data as (points, closed) per subpath; curves by their control
    points (a curve lies inside their hull), arcs by their end points."""
    found: list[tuple[list[tuple[float, float]], bool]] = []
    points: list[tuple[float, float]] = []
    x = y = 0.0
    command = ""
    tokens = _PATH_TOKEN.findall(d)
    i = 0
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command in "Zz":
                if points:
                    found.append((points, True))
                    x, y = points[0]
                points = []
                continue
        upper = command.upper()
        args = [float(t) for t in tokens[i:i + _ARGS[upper]]]
        i += _ARGS[upper]
        relative = command.islower()
        if upper == "M" and points:
            found.append((points, False))
            points = []
        if upper == "H":
            x = args[0] + (x if relative else 0)
            points.append((x, y))
        elif upper == "V":
            y = args[0] + (y if relative else 0)
            points.append((x, y))
        elif upper == "A":
            x, y = (args[5] + x, args[6] + y) if relative else (args[5], args[6])
            points.append((x, y))
        else:
            pairs = list(zip(args[0::2], args[1::2], strict=True))
            if relative:
                pairs = [(px + x, py + y) for px, py in pairs]
            points.extend(pairs)
            x, y = pairs[-1]
        if upper == "M":
            command = "l" if relative else "L"  # further pairs after M are lines
    if points:
        found.append((points, False))
    return found


@lru_cache(maxsize=8192)
def area_shape(d: str) -> BaseGeometry:
    """Closed path data as an area, its rings combined even-odd (as the
    board's areas are filled). Kept by its path data: every picture of a
    board (each phase, each view) draws the same provinces, and making
    their areas again was most of reading a picture (shapes are immutable,
    so one may be shared)."""
    shape: BaseGeometry = Polygon()
    for points, _ in _subpaths(d):
        if len(points) >= 3:
            ring = Polygon(points).buffer(0)
            shape = shape.symmetric_difference(ring)
    return shape


def _float(value: str | None, default: float = 0.0) -> float:
    found = _NUMBER.search(value or "")
    return float(found.group()) if found else default


def _element_shape(element: ET.Element, style: Mapping[str, str],
                   outline: bool = True) -> BaseGeometry | None:
    """What an element covers, half its stroke included (or, without
    ``outline``, the stroke's inner half only); None for other elements."""
    tag = element.tag.removeprefix(SVG)
    stroked = style.get("stroke", "none") != "none" and outline
    half = _float(style.get("stroke-width"), 1.0) / 2 if stroked else 0.0
    a = element.attrib
    if tag == "circle":
        return Point(_float(a.get("cx")), _float(a.get("cy"))).buffer(_float(a.get("r")) + half)
    if tag == "ellipse":
        shape = Point(0, 0).buffer(1.0)
        rx, ry = _float(a.get("rx")) + half, _float(a.get("ry")) + half
        return affine_transform(shape, [rx, 0, 0, ry, _float(a.get("cx")), _float(a.get("cy"))])
    if tag == "rect":
        x, y = _float(a.get("x")), _float(a.get("y"))
        return box(x - half, y - half, x + _float(a.get("width")) + half,
                   y + _float(a.get("height")) + half)
    if tag in ("polygon", "path"):
        return _outline_shape(tag, a.get("points" if tag == "polygon" else "d", ""),
                              style.get("fill", "black") != "none", half)
    return None


@lru_cache(maxsize=8192)
def _outline_shape(tag: str, data: str, filled: bool, half: float) -> BaseGeometry | None:
    """A polygon's or a path's cover, kept by its data as area_shape is:
    coasts and borders recur in every picture of a board."""
    if tag == "polygon":
        numbers = [float(n) for n in _NUMBER.findall(data)]
        subpaths = [(list(zip(numbers[0::2], numbers[1::2], strict=True)), True)]
    else:
        subpaths = _subpaths(data)
    parts = []
    for points, closed in subpaths:
        if (closed or filled) and len(points) >= 3:
            parts.append(Polygon(points).buffer(half if half else 0))
        elif len(points) >= 2:
            parts.append(LineString(points).buffer(max(half, 0.05)))
    return unary_union(parts) if parts else None


_INHERITED = ("font-size", "font-weight", "font-family", "text-anchor", "fill", "stroke",
              "stroke-width", "class")


@dataclass(frozen=True)
class _Context:
    style: Mapping[str, str]
    matrix: Matrix
    within: tuple[str, ...]  # the classes of the groups around


def _walk(element: ET.Element, context: _Context) -> Iterable[tuple[ET.Element, _Context]]:
    style = dict(context.style)
    for key in _INHERITED:
        if key in element.attrib:
            style[key] = element.attrib[key]
    matrix = _multiply(context.matrix, _transform(element.attrib.get("transform")))
    here = _Context(style, matrix, (*context.within, element.attrib.get("class", "")))
    yield element, here
    for child in element:
        yield from _walk(child, here)


@cache
def _font_metrics(family: str, bold: bool, text: str) -> tuple[float, float, float, float,
                                                               float, float, float]:
    """(x bearing, y bearing, ink width, ink height, advance, ascent, descent)
    of ``text`` at font size 1, as cairo (and so cairosvg's PNG) sets it."""
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_A8, 1, 1)
    context = cairocffi.Context(surface)
    options = cairocffi.FontOptions()
    options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
    options.set_hint_style(cairocffi.HINT_STYLE_NONE)
    context.set_font_options(options)
    context.select_font_face(family, cairocffi.FONT_SLANT_NORMAL,
                             cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL)
    size = 100.0
    context.set_font_size(size)
    xb, yb, w, h, advance, _ = context.text_extents(text)
    ascent, descent, *_ = context.font_extents()
    return (xb / size, yb / size, w / size, h / size, advance / size, ascent / size,
            descent / size)


def _label(element: ET.Element, context: _Context, scale: float) -> Label:
    style = context.style
    text = "".join(element.itertext()).strip()
    size = _float(style.get("font-size"), 16.0)
    family = style.get("font-family", "DejaVu Sans").split(",")[0].strip().strip("'\"")
    bold = style.get("font-weight", "normal") in ("bold", "bolder", "600", "700", "800", "900")
    xb, yb, w, h, advance, ascent, descent = _font_metrics(family, bold, text)
    x, y = _float(element.attrib.get("x")), _float(element.attrib.get("y"))
    anchor = style.get("text-anchor", "start")
    start = x - advance * size * {"middle": 0.5, "end": 1.0}.get(anchor, 0.0)
    stroked = style.get("stroke", "none") != "none"
    half = _float(style.get("stroke-width"), 1.0) / 2 if stroked else 0.0
    ink = box(start + xb * size - half, y + yb * size - half,
              start + (xb + w) * size + half, y + (yb + h) * size + half)
    a, b, c, d, _, _ = context.matrix
    zoom = math.sqrt(abs(a * d - b * c)) * scale
    return Label(text, _moved(ink, context.matrix), size * zoom,
                 (ascent + descent) * size * zoom)


def read(svg: str, display_width: float = DISPLAY_WIDTH) -> Drawn:
    """The document measured as shown ``display_width`` px wide."""
    root = ET.fromstring(svg)
    view = [float(n) for n in _NUMBER.findall(root.attrib.get("viewBox", ""))]
    width = view[2] if len(view) == 4 else _float(root.attrib.get("width"), display_width)
    scale = display_width / width
    spaces = {e.attrib["data-space"] for e in root.iter() if "data-space" in e.attrib}
    labels: list[Label] = []
    markers: list[Marker] = []
    areas: dict[str, BaseGeometry] = {}
    legend: list[tuple[str, str]] = []
    unit_colours: dict[str, str] = {}
    slices: dict[str, str] = {}
    groups: dict[str, str] = {}
    leaders: dict[str, BaseGeometry] = {}
    opacity: float | None = None
    start = _Context({"font-family": root.attrib.get("font-family", "DejaVu Sans")},
                     IDENTITY, ())
    in_unit: set[int] = set()  # elements inside a unit's group, measured with it
    for element, context in _walk(root, start):
        tag = element.tag.removeprefix(SVG)
        classes = element.attrib.get("class", "").split()
        a = element.attrib
        if id(element) in in_unit:
            continue
        if any("colour-groups" in c.split() for c in context.within):
            groups.update((colour.lower(), a["data-group"])
                          for colour in a.get("data-colours", "").split() if "data-group" in a)
            continue
        if any("legend" in c.split() for c in context.within):
            if tag == "g" and "power" in classes and "data-power" in a:
                swatch = next((e for e in element if e.tag.removeprefix(SVG) == "rect"), None)
                if swatch is not None:
                    legend.append((a["data-power"], swatch.attrib.get("fill", "")))
            continue
        if tag == "g" and classes[:1] == ["unit"]:
            shapes, fills = [], []
            for child, inner in _walk(element, context):
                in_unit.add(id(child))
                shape = _element_shape(child, inner.style)
                if shape is not None:
                    shapes.append(_moved(shape, inner.matrix))
                    fills.append(_moved(_element_shape(child, inner.style, False) or shape,
                                        inner.matrix))
                    paint = inner.style.get("fill", "none")
                    if child.attrib.get("fill") and paint != "none" and \
                            "marker" not in child.attrib.get("class", ""):
                        unit_colours.setdefault(a.get("data-power", ""), paint)
            kind = "dislodged" if "dislodged" in classes else "unit"
            markers.append(Marker(kind, a.get("data-location", ""), a.get("data-power", ""),
                                  unary_union(shapes), unary_union(fills)))
        elif tag == "circle" and ("centre" in classes or "centre-value" in classes):
            shape, fill = _circle(element, context)
            if "centre-value" in classes and markers and markers[-1].kind == "centre":
                last = markers.pop()
                markers.append(Marker("centre", last.where, "", last.shape.union(shape),
                                      last.fill.union(fill)))
            else:
                markers.append(Marker("centre", a.get("data-province", ""), "", shape, fill))
        elif tag == "circle" and "data-power" in a:
            shape, fill = _circle(element, context)
            markers.append(Marker("piece", "", a["data-power"], shape, fill))
            unit_colours.setdefault(a["data-power"], a.get("fill", ""))
        elif tag == "text":
            text = "".join(element.itertext()).strip()
            if text and (any("labels" in c.split() for c in context.within)
                         or "data-province" in a or "data-space" in a
                         or {"label", "name"} & set(classes) or text in spaces):
                labels.append(_label(element, context, scale))
        elif "data-space" in a and tag in ("polygon", "path"):
            shape = _element_shape(element, {"fill": "black"})
            if shape is not None:
                areas[a["data-space"]] = _moved(shape, context.matrix)
                slices[a["data-space"]] = a.get("fill", "")
        elif tag == "path" and "region" in classes and "data-province" in a:
            areas[a["data-province"]] = _moved(area_shape(a.get("d", "")), context.matrix)
        elif tag == "path" and "owned" in classes and opacity is None:
            opacity = _float(a.get("fill-opacity"), 1.0)
        elif tag == "path" and "leader" in classes and "data-province" in a:
            points = [p for piece, _ in _subpaths(a.get("d", "")) for p in piece]
            if len(points) >= 2:
                leaders[a["data-province"]] = _moved(LineString(points), context.matrix)
    has_sea = not slices  # the Favor map's hexes lie on white, not on a sea
    if not has_sea:  # a piece stands for the space it stands on
        markers = [replace(m, where=m.where or _space_of(m.shape, areas))
                   if m.kind == "piece" else m for m in markers]
    return Drawn(scale, tuple(labels), tuple(markers), areas, tuple(legend), unit_colours,
                 opacity if opacity is not None else (OWNER_OPACITY if has_sea else None),
                 slices, has_sea, groups, leaders)


def _circle(element: ET.Element, context: _Context) -> tuple[BaseGeometry, BaseGeometry]:
    style = {**context.style, **element.attrib}
    return (_moved(_element_shape(element, style) or Point(), context.matrix),
            _moved(_element_shape(element, style, False) or Point(), context.matrix))


def _space_of(shape: BaseGeometry, areas: Mapping[str, BaseGeometry]) -> str:
    middle = shape.centroid
    return next((code for code, area in areas.items() if area.contains(middle)), "")


def board_areas(game_map: GameMap, position: GameState) -> dict[str, BaseGeometry]:
    """The area of each province the board in force knows (Diplomap's
    changed board's parts included), in the map document's units. An
    artwork board knows its land provinces' areas, not the seas'."""
    changes = map_changes(position)
    board = changed_board(game_map, changes).board if changes else board_for(game_map)
    found = _BOARD_AREAS.get(id(board))
    if found is None or found[0] is not board:  # kept with its board, so its id stays its own
        if len(_BOARD_AREAS) > 16:
            _BOARD_AREAS.pop(next(iter(_BOARD_AREAS)))
        found = _BOARD_AREAS[id(board)] = (board, {code: area_shape(d)
                                                   for code, d in board.areas.items()})
    return found[1]


_BOARD_AREAS: dict[int, tuple[object, dict[str, BaseGeometry]]] = {}


# -- the checks ------------------------------------------------------------------

def small_labels(drawn: Drawn, least: float = MIN_LABEL_PX) -> list[Violation]:
    return [Violation("label size", f"{label.text!r} is {label.height_px:.1f} px high "
                      f"(font {label.font_px:.1f} px), under {least:g} px", label.height_px,
                      label.ink.bounds)
            for label in drawn.labels if label.height_px < least]


def _area_px(one: BaseGeometry, two: BaseGeometry, scale: float) -> float:
    return float(one.intersection(two).area) * scale * scale


def overlaps(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None,
             least: float = OVERLAP_PX2) -> list[Violation]:
    """Markers over markers, markers over names, names over each other, and
    leader lines over any of them but their own name and the markers
    standing in their province (where its area is known, ``areas`` or the
    document's): a leader ending under its province's unit points at the
    province all the same. A marker by its fill (two outlines may graze;
    what one covers of another counts), a name by its ink, a leader by a
    line a pixel wide."""
    known = {code: area for code, area in _known(drawn, areas).items()
             if code in drawn.leaders} if drawn.leaders else {}
    things: list[tuple[str, BaseGeometry, str, str]] = (
        [(m.name, m.fill, "marker", _standing_in(m, known)) for m in drawn.markers]
        + [(f"name {label.text!r}", label.ink, "name", label.text) for label in drawn.labels]
        + [(f"the leader of {code!r}", line.buffer(0.5 / drawn.scale), "leader", code)
           for code, line in sorted(drawn.leaders.items())])
    tree = STRtree([shape for _, shape, _, _ in things])
    found = []
    for i, (name, shape, kind, owner) in enumerate(things):
        for j in sorted(int(k) for k in tree.query(shape)):
            if j <= i:
                continue
            other, other_shape, other_kind, other_owner = things[j]
            if "leader" in (kind, other_kind) and owner == other_owner:
                continue  # its own name, or a marker in its province
            shared = _area_px(shape, other_shape, drawn.scale)
            if shared > least:
                kinds = {kind, other_kind}
                what = ("marker on marker" if kinds == {"marker"} else
                        "names over each other" if kinds == {"name"} else
                        "a leader over a marker or a name" if "leader" in kinds
                        else "marker on a name")
                found.append(Violation("overlap", f"{what}: {name} and {other} share "
                                       f"{shared:.1f} px²", shared,
                                       shape.intersection(other_shape).bounds))
    return found


def _standing_in(marker: Marker, areas: Mapping[str, BaseGeometry]) -> str:
    """The province a marker stands in, of ``areas`` (those with a leader)."""
    middle = marker.fill.centroid
    return next((code for code, area in areas.items() if area.contains(middle)), "")


def _borders(areas: Mapping[str, BaseGeometry]) -> Mapping[str, BaseGeometry]:
    """Each province's borders: where its outline meets another known area.
    A coast is one where the sea's provinces have areas (a schematic
    board); an artwork board knows only the land's, and draws a coastal
    province's fleet on its coast, where it sails from. Kept per areas
    (a board's, for every phase drawn on it)."""
    found = _BORDERS.get(id(areas))
    if found is None or found[0] is not areas:
        if len(_BORDERS) > 16:
            _BORDERS.pop(next(iter(_BORDERS)))
        found = _BORDERS[id(areas)] = (areas, _borders_of(areas))
    return found[1]


_BORDERS: dict[int, tuple[object, Mapping[str, BaseGeometry]]] = {}


def _borders_of(areas: Mapping[str, BaseGeometry]) -> dict[str, BaseGeometry]:
    codes = sorted(c for c, a in areas.items() if not a.is_empty)
    shapes = [areas[c] for c in codes]
    tree = STRtree(shapes)
    found = {}
    for code, shape in zip(codes, shapes, strict=True):
        others = [shapes[int(k)] for k in tree.query(shape.buffer(0.5)) if codes[int(k)] != code]
        found[code] = (shape.boundary.intersection(unary_union(others).buffer(0.5))
                       if others else Polygon())
    return found


def _known(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None
           ) -> Mapping[str, BaseGeometry]:
    """The areas given, and the document's; the same object for the same
    areas given (a board's), so that what is worked out from them is kept."""
    if areas is not None and drawn.areas.keys() <= areas.keys():
        return areas  # a schematic board's document draws the board's own areas
    if not areas:
        return drawn.areas
    extra = tuple(sorted(drawn.areas.keys() - areas.keys()))
    key = (id(areas), extra)
    found = _MERGED.get(key)
    if found is None or found[0] is not areas:  # the document's own areas of one board
        if len(_MERGED) > 16:
            _MERGED.pop(next(iter(_MERGED)))
        found = _MERGED[key] = (areas, {**{c: drawn.areas[c] for c in extra}, **areas})
    return found[1]


_MERGED: dict[tuple[int, tuple[str, ...]], tuple[object, Mapping[str, BaseGeometry]]] = {}


def border_contacts(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None,
                    least: float = BORDER_CLEARANCE_PX) -> list[Violation]:
    """Markers within ``least`` px of a border of their own province, for
    those whose province's area is known (``areas``, else the document's)."""
    known = _known(drawn, areas)
    borders = _borders(known)
    found = []
    for marker in drawn.markers:
        code = _code_for(marker.where, known)
        if code is None or borders.get(code, Polygon()).is_empty:
            continue
        gap = float(marker.shape.distance(borders[code])) * drawn.scale
        if gap < least:
            found.append(Violation("border", f"{marker.name} is {gap:.1f} px from a border "
                                   f"of {code}, under {least:g} px", gap,
                                   marker.shape.bounds))
    return found


def _code_for(where: str, areas: Mapping[str, BaseGeometry]) -> str | None:
    for code in (where, province_of(where) if where else ""):
        if code in areas:
            return code
    return None


def markers_outside(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None
                    ) -> list[Violation]:
    """Markers that do not stand in the province (or part) they stand for:
    a marker stands in the area that holds its middle, or, where no known
    area does (the sea of an artwork board), in the nearest."""
    known = _known(drawn, areas)
    codes = sorted(known)
    tree = STRtree([known[c] for c in codes])
    found = []
    for marker in drawn.markers:
        code = _code_for(marker.where, known)
        if code is None:
            continue
        middle = marker.shape.centroid
        holding = [codes[int(k)] for k in tree.query(middle, predicate="within")]
        if not holding:
            holding = [codes[int(tree.nearest(middle))]]
        if code not in holding:
            off = float(known[code].distance(middle)) * drawn.scale
            found.append(Violation("outside", f"{marker.name} stands in {holding[0]}, "
                                   f"{off:.1f} px from {code}", off, marker.shape.bounds))
    return found


def _leader_ends(label: Label, leader: BaseGeometry) -> tuple[Point, Point]:
    """A leader's two ends: the one at its name, and the one in its province."""
    one, two = Point(leader.coords[0]), Point(leader.coords[-1])
    return (one, two) if label.ink.distance(one) <= label.ink.distance(two) else (two, one)


def labels_outside(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None,
                   names: Collection[str] | None = None) -> list[Violation]:
    """Names (of ``names``, else all) written with their middle outside the
    province they name, where its area is known; a name written beside its
    province, with a leader line, whose leader does not end in it."""
    known = _known(drawn, areas)
    found = []
    for label in drawn.labels:
        area = known.get(label.text)
        if (names is not None and label.text not in names) or area is None:
            continue
        leader = drawn.leaders.get(label.text)
        spot = label.ink.centroid if leader is None else _leader_ends(label, leader)[1]
        if not area.contains(spot):
            off = float(area.distance(spot)) * drawn.scale
            what = "is written" if leader is None else "has its leader end"
            found.append(Violation("outside", f"name {label.text!r} {what} {off:.1f} px "
                                   f"outside its province", off, label.ink.bounds))
    return found


def labels_on_borders(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None,
                      names: Collection[str] | None = None,
                      least: float = BORDER_CLEARANCE_PX) -> list[Violation]:
    """Names (of ``names``, else all) whose ink comes within ``least`` px of
    a border of the province they name: a name across a border reads as
    the neighbour's. A name written beside its province is held to its
    leader: the leader starts at the name (within ``LEADER_START_PX``) and
    ends inside the province, ``least`` px off its borders, and the name
    itself keeps ``least`` px off every border, so that it reads as no
    other province's."""
    known = _known(drawn, areas)
    borders = _borders(known)
    found = []
    for label in drawn.labels:
        border = borders.get(label.text)
        if (names is not None and label.text not in names) or border is None or border.is_empty:
            continue
        leader = drawn.leaders.get(label.text)
        if leader is None:
            gap = float(label.ink.distance(border)) * drawn.scale
            if gap < least:
                found.append(Violation("border", f"name {label.text!r} is {gap:.1f} px from a "
                                       f"border of its province, under {least:g} px", gap,
                                       label.ink.bounds))
            continue
        start, end = _leader_ends(label, leader)
        measures = [
            ("'s leader ends {:.1f} px from a border of its province",
             float(end.distance(border)) * drawn.scale, least),
            (" is written {:.1f} px from a border, beside its province",
             min(float(label.ink.distance(b)) for b in borders.values() if not b.is_empty)
             * drawn.scale, least)]
        for text, gap, wanted in measures:
            if gap < wanted:
                found.append(Violation("border", f"name {label.text!r}" + text.format(gap)
                                       + f", under {wanted:g} px", gap, label.ink.bounds))
        off = float(label.ink.distance(start)) * drawn.scale
        if off > LEADER_START_PX:
            found.append(Violation("border", f"name {label.text!r}'s leader starts {off:.1f} px "
                                   f"from the name, over {LEADER_START_PX:g} px", off,
                                   label.ink.bounds))
    return found


def unchecked_markers(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None
                      ) -> list[Marker]:
    """The markers whose province's area neither the board nor the document gives."""
    known = _known(drawn, areas)
    return [m for m in drawn.markers if _code_for(m.where, known) is None]


def colour_clashes(drawn: Drawn, least: float = MIN_COLOUR_DIFFERENCE,
                   least_in_group: float = MIN_SHADE_DIFFERENCE) -> list[Violation]:
    """Players' colours too close: as units and legend swatches, as owned
    land (the colour laid over the land at the owners' opacity), and, for
    a map with a sea, against the sea (a fleet on it). A player is a colour
    group where the document lists its colours (``colour-groups``): its
    shades are one player's, held ``least_in_group`` apart, and ``least``
    from every other group's; any other colour is a player of its own.
    Powers painted in one colour share it on purpose; two legend rows of
    one colour do not. On the Favor map, each slice's colour against the
    others."""
    found = []
    rows: dict[str, str] = {}
    for power, colour in drawn.legend:
        same = rows.get(colour.lower())
        if same is not None:
            found.append(Violation("colour", f"legend rows {same} and {power} are both "
                                   f"{colour}", 0.0))
        rows.setdefault(colour.lower(), power)
    by_colour: dict[str, str] = {}  # colour -> what it is first seen as
    for power, colour in drawn.legend:
        by_colour.setdefault(colour.lower(), power)
    for power, colour in sorted(drawn.unit_colours.items()):
        if colour and colour != "none":
            by_colour.setdefault(colour.lower(), f"{power}'s units")
    for (one, p1), (two, p2) in combinations(sorted(by_colour.items()), 2):
        group = drawn.groups.get(one)
        kin = group is not None and group == drawn.groups.get(two)
        apart, of = (least_in_group, f", shades of {group}") if kin else (least, "")
        e = difference(one, two)
        if e < apart:
            found.append(Violation("colour", f"{p1} {one} and {p2} {two}{of}: ΔE00 {e:.1f}", e))
        if drawn.owner_opacity is not None:
            t1, t2 = (blend(c, LAND, drawn.owner_opacity) for c in (one, two))
            e = difference(t1, t2)
            if e < apart:
                found.append(Violation("colour", f"{p1} and {p2} as owned land "
                                       f"({_hex(t1)}, {_hex(t2)}){of}: ΔE00 {e:.1f}", e))
    if drawn.has_sea:
        for colour, power in sorted(by_colour.items()):
            e = difference(colour, SEA)
            if e < least:
                found.append(Violation("colour", f"{power} {colour} on the sea {SEA}: "
                                       f"ΔE00 {e:.1f}", e))
    tints = sorted({c.lower() for c in drawn.slices.values() if c})
    for one, two in combinations(tints, 2):
        e = difference(one, two)
        if e < least:
            spaces = [", ".join(sorted(s for s, c in drawn.slices.items() if c.lower() == t))[:40]
                      for t in (one, two)]
            found.append(Violation("colour", f"slices {one} ({spaces[0]}) and {two} "
                                   f"({spaces[1]}): ΔE00 {e:.1f}", e))
    return found


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


# -- all of them -----------------------------------------------------------------

@dataclass(frozen=True)
class Measurements:
    """A map's distance from legibility, for a report's table."""

    least_label_px: float
    overlaps: int
    least_colour: float  # the closest pair's ΔE00 (inf without two colours)
    closest_pair: str
    outside: int  # markers outside their province
    border: int  # markers touching a border of their own province
    unchecked: int  # markers whose province's area is not known
    violations: tuple[Violation, ...]


def measure(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None) -> Measurements:
    # every pair of players' colours (not a group's own shades), to find the closest
    colours = colour_clashes(drawn, least=math.inf, least_in_group=-math.inf)
    closest = min(colours, key=lambda v: v.value, default=None)
    found = (small_labels(drawn) + overlaps(drawn, areas) + border_contacts(drawn, areas)
             + markers_outside(drawn, areas) + colour_clashes(drawn))
    return Measurements(
        least_label_px=min((label.height_px for label in drawn.labels), default=math.inf),
        overlaps=sum(1 for v in found if v.check == "overlap"),
        least_colour=closest.value if closest is not None else math.inf,
        closest_pair=closest.message if closest is not None else "",
        outside=sum(1 for v in found if v.check == "outside"),
        border=sum(1 for v in found if v.check == "border"),
        unchecked=len(unchecked_markers(drawn, areas)),
        violations=tuple(found))


def marked_png(svg: str, found: Iterable[Violation], width: float = DISPLAY_WIDTH) -> bytes:
    """The document as a PNG ``width`` px wide with each violation that has
    a place ringed in red: what a map's author looks at to see what fails."""
    root = ET.fromstring(svg)
    view = [float(n) for n in _NUMBER.findall(root.attrib.get("viewBox", ""))]
    scale = width / view[2]
    rings = "".join(
        f'<rect x="{v.at[0] - 2 / scale:.1f}" y="{v.at[1] - 2 / scale:.1f}" '
        f'width="{v.at[2] - v.at[0] + 4 / scale:.1f}" height="{v.at[3] - v.at[1] + 4 / scale:.1f}" '
        f'fill="none" stroke="#ff0000" stroke-width="{1.5 / scale:.2f}"/>'
        for v in found if v.at is not None)
    marked = svg[:svg.rindex("</svg>")] + f"<g class=\"violations\">{rings}</g></svg>"
    return bytes(cairosvg.svg2png(bytestring=marked.encode("utf-8"), output_width=width))


def unreadable(drawn: Drawn, areas: Mapping[str, BaseGeometry] | None = None) -> list[str]:
    """Every violation of every check, as messages (empty: the map passes)."""
    return [str(v) for v in measure(drawn, areas).violations]


__all__ = ["BORDER_CLEARANCE_PX", "DISPLAY_WIDTH", "MIN_COLOUR_DIFFERENCE", "MIN_LABEL_PX",
           "MIN_SHADE_DIFFERENCE", "OVERLAP_PX2", "Drawn", "Label", "Marker", "Measurements",
           "Violation", "area_shape", "board_areas", "border_contacts", "colour_clashes",
           "labels_on_borders", "labels_outside", "marked_png", "markers_outside", "measure",
           "overlaps", "read", "small_labels", "unchecked_markers", "unreadable"]
