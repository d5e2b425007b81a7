"""Drawing the SVG the maps write, for their PNG, straight with cairo.

cairosvg reads any SVG and pays for it on every element: each copies
every attribute its ancestors have, is searched for transforms, masks,
clips, filters and markers, measured for a bounding box, and a text is set
letter by letter with a measure of each letter. That was most of a
phase's PNG (about 0.1 ms an element; a Dissolution phase has 500). The
documents the maps write use a few elements and attributes (the sets
below); this draws those with the cairo calls cairosvg makes for them, so
that the picture is the same, and leaves anything else to cairosvg: a
document with an element, attribute or path command not listed here is
drawn by cairosvg whole.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Protocol

import cairocffi
from cairocffi.context import _encode_path
from cairosvg.colors import COLORS, color
from cairosvg.parser import Tree, handle_white_spaces
from cairosvg.surface import PNGSurface

from judge.maps.svg_path import Unknown, path_items

_SVG = "{http://www.w3.org/2000/svg}"
# what a child takes from its parent, as cairosvg passes it on (the
# presentation attributes the maps use; cairosvg passes on nearly all)
INHERITED = frozenset((
    "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity",
    "stroke-dasharray", "stroke-linecap", "stroke-linejoin", "font-family", "font-size",
    "font-weight", "font-style", "text-anchor"))
# an element's own attributes, read where its kind uses them
OWN = frozenset(("x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "d", "points",
                 "x1", "y1", "x2", "y2", "opacity", "class", "viewBox"))
SHAPES = frozenset(("path", "circle", "rect", "polygon", "polyline", "line"))
NOT_DRAWN = frozenset(("title", "metadata", "desc"))  # cairosvg draws nothing of these
DEFAULT_FONT_SIZE = 16.0  # cairosvg's 12pt at 96 dpi
MITER_LIMIT = 4.0  # cairosvg's (SVG's) default; cairo's own is 10
_ARC_TO_BEZIER = 4 * (2 ** .5 - 1) / 3  # a rounded corner as cairosvg draws it


class Drawing(Protocol):
    """A document ready to be drawn: its size in pixels, and the drawing."""

    width: int
    height: int

    def draw_on(self, context: cairocffi.Context) -> None:
        """Draw the document over what ``context`` has."""


def prepare(svg: str, width: int | None = None) -> Drawing:
    """The document at its own size or ``width`` pixels wide: this module's
    plan of it, or what cairosvg draws of a document with something else."""
    try:
        return Plan(ElementTree.fromstring(svg), width)
    except (Unknown, ValueError):  # ValueError: a number this module does not read
        return Layer(PNGSurface(Tree(bytestring=svg.encode("utf-8")), None, 96,
                                output_width=width).cairo)


def draw(svg: str, width: int | None = None) -> cairocffi.ImageSurface:
    """The document drawn in memory, transparent where it paints nothing."""
    drawing = prepare(svg, width)
    if isinstance(drawing, Layer):
        return drawing.surface
    surface = cairocffi.ImageSurface(cairocffi.FORMAT_ARGB32, drawing.width, drawing.height)
    drawing.draw_on(cairocffi.Context(surface))
    return surface


class Layer:
    """A picture already drawn (a board's, or what cairosvg drew), to lay
    over another."""

    def __init__(self, surface: cairocffi.ImageSurface) -> None:
        self.surface = surface
        self.width, self.height = surface.get_width(), surface.get_height()

    def draw_on(self, context: cairocffi.Context) -> None:
        context.set_source_surface(self.surface)
        context.paint()


Step = Callable[[cairocffi.Context], None]
Box = tuple[float, float, float, float]  # left, top, right, bottom, in the document's units
Placed = tuple[Step, Box]  # a step, and a box it draws nothing outside of
# a font (family, slant, weight) at a size -> each letter's advance in it
Advances = dict[tuple[tuple[str, int, int], float], dict[str, float]]


class Plan:
    """A document this module draws: its size, and its cairo calls in order."""

    def __init__(self, root: ElementTree.Element, width: int | None) -> None:
        if root.tag != f"{_SVG}svg":
            raise Unknown(root.tag)
        given_width, given_height = _length(root.get("width")), _length(root.get("height"))
        box = [float(v) for v in (root.get("viewBox") or "").replace(",", " ").split()]
        if len(box) != 4 or not (given_width and given_height):
            raise Unknown("the root's size")
        if width:
            given_height *= width / given_width
            given_width = width
        self.width, self.height = round(given_width), round(given_height)
        self.box = (box[0], box[1], box[0] + box[2], box[1] + box[3])
        self.fit = _fit(self.box, given_width, given_height)
        self.steps: list[Placed] = []
        # each letter's advance in each font, measured once: it depends on
        # the scale, the same for the whole document
        self.advances: Advances = {}
        style = {"font-family": "sans-serif"}
        for name, value in root.attrib.items():
            if name in INHERITED:
                style[name] = value
            elif name not in ("width", "height", "viewBox") and not name.startswith("data-"):
                raise Unknown(f"svg {name}")
        self._children(root, style, self.steps)

    def draw_on(self, context: cairocffi.Context) -> None:
        _draw_steps(context, self.fit, [step for step, _ in self.steps])

    def through(self, box: Box, width: int, height: int) -> Drawing:
        """The same document seen through another viewBox, ``box``, at
        ``width`` by ``height`` pixels: what it draws there, the rest
        left out (a view of a large board draws a fifth of its pieces)."""
        return _Seen(width, height, _fit(box, width, height),
                     [step for step, (left, top, right, bottom) in self.steps
                      if left <= box[2] and right >= box[0] and top <= box[3]
                      and bottom >= box[1]])

    def _children(self, element: ElementTree.Element, inherited: Mapping[str, str],
                  steps: list[Placed]) -> None:
        for child in element:
            self._element(child, inherited, steps)

    def _element(self, element: ElementTree.Element, inherited: Mapping[str, str],
                 steps: list[Placed]) -> None:
        tag = element.tag[len(_SVG):] if element.tag.startswith(_SVG) else element.tag
        if tag in NOT_DRAWN:
            return
        attributes = element.attrib
        style = dict(inherited)
        for name, value in attributes.items():
            if name in INHERITED:
                style[name] = value
            elif name not in OWN and not name.startswith("data-"):
                raise Unknown(f"{tag} {name}")
        opacity = float(attributes.get("opacity", 1))
        if tag == "g":
            inner: list[Placed] = []
            self._children(element, style, inner)
            if opacity < 1 and inner:
                steps.append(_group(inner, opacity))
            else:
                steps.extend(inner)
            return
        if len(element):
            raise Unknown(f"{tag} with children")
        if tag == "text":
            steps.append(_text(element, style, opacity, self.advances))
        elif tag in SHAPES:
            outline = _outline(tag, attributes)
            if outline is not None:
                steps.append(_shape(*outline, style, opacity))
        else:
            raise Unknown(tag)


Fit = tuple[float, float, float, float, float]  # scale, and the translations round it


def _fit(box: Box, width: float, height: float) -> Fit:
    """How a viewBox is laid on a picture: cairosvg's (SVG's default)
    xMidYMid meet, one scale and the box centred, in cairosvg's steps."""
    box_width, box_height = box[2] - box[0], box[3] - box[1]
    scale = min(width / box_width, height / box_height)
    return (scale, -box[0] * scale, -box[1] * scale,
            (width / scale - box_width) / 2, (height / scale - box_height) / 2)


def _draw_steps(context: cairocffi.Context, fit: Fit, steps: list[Step]) -> None:
    scale, x, y, tx, ty = fit
    context.save()
    context.translate(x, y)
    context.scale(scale, scale)
    context.translate(tx, ty)
    context.set_miter_limit(MITER_LIMIT)
    for step in steps:
        step(context)
    context.restore()


class _Seen:
    """A plan's steps seen through another box (:meth:`Plan.through`)."""

    def __init__(self, width: int, height: int, fit: Fit, steps: list[Step]) -> None:
        self.width, self.height = width, height
        self.fit, self.steps = fit, steps

    def draw_on(self, context: cairocffi.Context) -> None:
        _draw_steps(context, self.fit, self.steps)


def _group(placed: list[Placed], opacity: float) -> Placed:
    steps = [step for step, _ in placed]

    def paint(context: cairocffi.Context) -> None:
        context.push_group()
        for step in steps:
            step(context)
        context.pop_group_to_source()
        context.paint_with_alpha(opacity)
    return paint, _around([box for _, box in placed])


def _around(boxes: list[Box], margin: float = 0.0) -> Box:
    return (min(b[0] for b in boxes) - margin, min(b[1] for b in boxes) - margin,
            max(b[2] for b in boxes) + margin, max(b[3] for b in boxes) + margin)


def _length(value: str | None) -> float:
    """A number, read as cairosvg reads one first; a length with a unit, or
    a list, raises ValueError (and the document goes to cairosvg)."""
    if value is None:
        raise Unknown("a length missing")
    return float(value)


def _optional(attributes: Mapping[str, str], name: str) -> float:
    value = attributes.get(name)
    return 0.0 if not value else _length(value)


_LINE_CAPS = {"round": cairocffi.LINE_CAP_ROUND, "square": cairocffi.LINE_CAP_SQUARE}
_LINE_JOINS = {"round": cairocffi.LINE_JOIN_ROUND, "bevel": cairocffi.LINE_JOIN_BEVEL}


@lru_cache(maxsize=512)
def _colour(value: str | None, opacity: float) -> tuple[float, float, float, float]:
    if value and not (value.startswith("#") or value.strip().lower() in COLORS):
        raise Unknown(f"colour {value}")
    rgba = color(value, opacity)
    return (float(rgba[0]), float(rgba[1]), float(rgba[2]), float(rgba[3]))


def _shape(outline: Step, box: Box, style: Mapping[str, str], opacity: float) -> Placed:
    fill_opacity = float(style.get("fill-opacity", 1)) * opacity
    stroke_opacity = float(style.get("stroke-opacity", 1)) * opacity
    fill = _colour(style.get("fill", "black"), fill_opacity)
    stroke = _colour(style.get("stroke"), stroke_opacity)
    even_odd = style.get("fill-rule") == "evenodd"
    line_width = _length(style.get("stroke-width", "1"))
    cap = _LINE_CAPS.get(style.get("stroke-linecap", ""))
    join = _LINE_JOINS.get(style.get("stroke-linejoin", ""))
    dashes = [_length(v) for v in style.get("stroke-dasharray", "").replace(",", " ").split()]
    if not sum(dashes):
        dashes = []
    filled, stroked = fill[3] > 0, stroke[3] > 0 and line_width > 0

    def paint(context: cairocffi.Context) -> None:
        if not (filled or stroked):
            return
        outline(context)
        if filled:
            if even_odd:
                context.set_fill_rule(cairocffi.FILL_RULE_EVEN_ODD)
            context.set_source_rgba(*fill)
            if stroked:
                context.fill_preserve()
            else:
                context.fill()
            if even_odd:
                context.set_fill_rule(cairocffi.FILL_RULE_WINDING)
        if stroked:
            context.save()
            if cap is not None:
                context.set_line_cap(cap)
            if join is not None:
                context.set_line_join(join)
            if dashes:
                context.set_dash(dashes, 0)
            context.set_line_width(line_width)
            context.set_source_rgba(*stroke)
            context.stroke()
            context.restore()
    # a stroke reaches half its width out, a mitred corner (at most the
    # miter limit) further; a pixel more for the edge's smoothing
    margin = line_width * MITER_LIMIT / 2 + 1 if stroked else 1
    return paint, _around([box], margin)


def _outline(tag: str, attributes: Mapping[str, str]) -> tuple[Step, Box] | None:
    """The calls that lay the shape's outline as the current path, and the
    outline's box; None for a shape cairosvg draws nothing of."""
    if tag == "circle":
        r = _optional(attributes, "r")
        if not r:
            return None
        cx, cy = _optional(attributes, "cx"), _optional(attributes, "cy")

        def circle(context: cairocffi.Context) -> None:
            context.new_sub_path()
            context.arc(cx, cy, r, 0, 2 * math.pi)
            context.close_path()
        return circle, (cx - r, cy - r, cx + r, cy + r)
    if tag == "rect":
        return _rect(attributes)
    if tag == "line":
        x1, y1 = _optional(attributes, "x1"), _optional(attributes, "y1")
        x2, y2 = _optional(attributes, "x2"), _optional(attributes, "y2")

        def line(context: cairocffi.Context) -> None:
            context.move_to(x1, y1)
            context.line_to(x2, y2)
        return line, (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
    if tag in ("polygon", "polyline"):
        numbers = [_length(v) for v in attributes.get("points", "").replace(",", " ").split()]
        if len(numbers) % 2:
            raise Unknown("points")
        points = list(zip(numbers[0::2], numbers[1::2], strict=True))
        if not points:
            raise Unknown("a polygon without points")
        closed = tag == "polygon"

        def polygon(context: cairocffi.Context) -> None:
            context.move_to(*points[0])
            for point in points[1:]:
                context.line_to(*point)
            if closed:
                context.close_path()
        return polygon, _around([(x, y, x, y) for x, y in points])
    return _path(attributes.get("d", ""))


def _rect(attributes: Mapping[str, str]) -> tuple[Step, Box] | None:
    width, height = _optional(attributes, "width"), _optional(attributes, "height")
    if not width or not height:
        return None
    x, y = _optional(attributes, "x"), _optional(attributes, "y")
    box = (x, y, x + width, y + height)
    rx, ry = attributes.get("rx"), attributes.get("ry")
    rx, ry = (rx, rx) if ry is None else (ry, ry) if rx is None else (rx, ry)
    round_x = min(_length(rx), width / 2) if rx else 0.0
    round_y = min(_length(ry), height / 2) if ry else 0.0
    if not round_x or not round_y:
        def rect(context: cairocffi.Context) -> None:
            context.rectangle(x, y, width, height)
        return rect, box
    c1, c2 = _ARC_TO_BEZIER * round_x, _ARC_TO_BEZIER * round_y

    def rounded(context: cairocffi.Context) -> None:
        context.new_path()
        context.move_to(x + round_x, y)
        context.rel_line_to(width - 2 * round_x, 0)
        context.rel_curve_to(c1, 0, round_x, c2, round_x, round_y)
        context.rel_line_to(0, height - 2 * round_y)
        context.rel_curve_to(0, c2, c1 - round_x, round_y, -round_x, round_y)
        context.rel_line_to(-width + 2 * round_x, 0)
        context.rel_curve_to(-c1, 0, -round_x, -c2, -round_x, -round_y)
        context.rel_line_to(0, -height + 2 * round_y)
        context.rel_curve_to(0, -c2, round_x - c1, -round_y, round_x, -round_y)
        context.close_path()
    return rounded, box


@lru_cache(maxsize=4096)  # as path_items: an owned area is the same path every phase
def _path(d: str) -> tuple[Step, Box] | None:
    read = path_items(d)
    if read is None:
        return None
    items, box = read
    # cairocffi's append_path copies the points into cairo's form one by one
    # in Python on every call, a tenth of a view's drawing: copied once here
    # (with its own, private, helper), the path is handed to cairo as it is.
    # The pair is kept whole: the path points into the second's memory
    encoded = _encode_path(items)

    def path(context: cairocffi.Context) -> None:
        cairocffi.cairo.cairo_append_path(context._pointer, encoded[0])
        context._check_status()
    return path, box


_SLANTS = {"italic": cairocffi.FONT_SLANT_ITALIC, "oblique": cairocffi.FONT_SLANT_OBLIQUE}


def _text(element: ElementTree.Element, style: Mapping[str, str], opacity: float,
          advances: Advances) -> Placed:
    if style.get("stroke", "none") != "none":
        raise Unknown("a text with a stroke")
    words = handle_white_spaces(element.text, False).lstrip(" ")
    x, y = _optional(element.attrib, "x"), _optional(element.attrib, "y")
    if " " in element.get("x", "").strip() or " " in element.get("y", "").strip():
        raise Unknown("a position per letter")
    family = (style.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    slant = _SLANTS.get(style.get("font-style", ""), cairocffi.FONT_SLANT_NORMAL)
    weight = style.get("font-weight", "")
    bold = weight == "bold" or (weight.isdigit() and int(weight) >= 550)
    size = _length(style["font-size"]) if "font-size" in style else DEFAULT_FONT_SIZE
    fill = _colour(style.get("fill", "black"), float(style.get("fill-opacity", 1)) * opacity)
    anchor = style.get("text-anchor")
    face = (family, slant, cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL)

    def paint(context: cairocffi.Context) -> None:
        if not words or fill[3] <= 0:
            return
        context.select_font_face(*face)
        context.set_font_size(size)
        left = x
        if anchor in ("middle", "end"):
            x_bearing, _, width, *_ = context.text_extents(words)
            left -= width / 2 + x_bearing if anchor == "middle" else width + x_bearing
        context.set_source_rgba(*fill)
        # letter by letter, as cairosvg sets it: a glyph lies on a pixel's
        # edge often enough that one set whole can fall a pixel over
        measured = advances.setdefault((face, size), {})
        for letter in words:
            if not letter.isspace():
                context.move_to(left, y)
                context.show_text(letter)
            advance = measured.get(letter)
            if advance is None:
                advance = measured[letter] = context.text_extents(letter)[4]
            left += advance
    # no letter is wider than 1.2 of its size, nor reaches further up or down
    reach = len(words) * size * 1.2
    start = x - reach if anchor == "end" else x - reach / 2 if anchor == "middle" else x
    return paint, (start - 1, y - size * 1.2, start + reach + 1, y + size * 0.6)
