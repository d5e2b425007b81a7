"""A whole SVG drawn as PNG with the parts that are the same in every
phase drawn once per process: a document marks them with two groups,
UNDER (drawn first, under everything) and OVER (drawn last, over
everything); what is left, the phase's own drawing, is drawn each time
and laid between them. The Favor map's hexes and their names are most of
its cost, and they never change (judge/maps/hexboard.py)."""

from __future__ import annotations

import re
import threading

import cairocffi

from judge.maps import paint
from judge.maps.render import _draw, opaque, picture, rgb_png

UNDER, OVER = "unchanging-under", "unchanging-over"
_GROUP = {name: re.compile(rf'<g class="{name}">.*?</g>', re.S) for name in (UNDER, OVER)}
_ROOT = re.compile(r"<svg\b[^>]*>")
_KEPT = 16  # layers kept: one board at a few legend heights

_LOCK = threading.Lock()
_LAYERS: dict[str, cairocffi.ImageSurface] = {}


def _layer(root: str, part: str, width: int, bottom: bool = False) -> cairocffi.ImageSurface:
    """``part`` alone in the document ``root`` opens, drawn once per process
    (the ``bottom`` one on white)."""
    key = f"{width}\n{root}\n{part}"
    with _LOCK:
        found = _LAYERS.get(key)
    if found is not None:
        return found
    layer = _draw(f"{root}{part}</svg>", width)
    if bottom:
        layer = opaque(layer)
    with _LOCK:
        if len(_LAYERS) >= _KEPT:
            _LAYERS.pop(next(iter(_LAYERS)))
        _LAYERS[key] = layer
    return layer


def layered_png(svg: str, width: int) -> bytes:
    """The document drawn ``width`` pixels wide on white; the same picture
    as drawing it whole, its marked groups drawn once per process."""
    root = _ROOT.search(svg)
    under, over = _GROUP[UNDER].search(svg), _GROUP[OVER].search(svg)
    if root is None or under is None or over is None:
        whole = paint.prepare(svg, width)
        return rgb_png(picture(whole.width, whole.height, [whole]))
    phase = _GROUP[OVER].sub("", _GROUP[UNDER].sub("", svg, count=1), count=1)
    drawing = paint.prepare(phase, width)
    return rgb_png(picture(drawing.width, drawing.height, [
        paint.Layer(_layer(root.group(0), under.group(0), width, bottom=True)), drawing,
        paint.Layer(_layer(root.group(0), over.group(0), width))]))
