"""Province names stay readable where a unit stands: on the standard map,
in every phase of the end-to-end game, no unit symbol (dislodged ones
included) and no supply-centre marker covers a province's name, its own or
a neighbour's. The boxes are read from the drawn SVG: each unit's and
marker's from its circle or path, each name's from its position, font size
and length."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from engine.map import province_of
from judge.maps.render import render_svg
from tests.judge.maps.test_render import SVG, scenes, standard

Box = tuple[float, float, float, float]  # left, top, right, bottom
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# a generous text box: glyphs of a sans-serif capital are at most this wide
# (in font sizes), from this far above the baseline to this far below
_GLYPH_WIDTH, _ASCENT, _DESCENT = 0.72, 0.78, 0.12


def _shape_box(element: ET.Element) -> Box:
    if element.tag == f"{SVG}circle":
        x, y, r = (float(element.attrib[k]) for k in ("cx", "cy", "r"))
        return x - r, y - r, x + r, y + r
    numbers = [float(n) for n in _NUMBER.findall(element.attrib["d"])]
    xs, ys = numbers[0::2], numbers[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def _union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes))


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def label_boxes(root: ET.Element) -> dict[str, Box]:
    group = next(g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "labels")
    size = float(group.attrib["font-size"])
    boxes = {}
    for text in group.iter(f"{SVG}text"):
        name = (text.text or "").strip()
        x, y = float(text.attrib["x"]), float(text.attrib["y"])
        half = len(name) * size * _GLYPH_WIDTH / 2
        boxes[name] = (x - half, y - size * _ASCENT, x + half, y + size * _DESCENT)
    return boxes


def unit_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    found = []
    for g in root.iter(f"{SVG}g"):
        if g.attrib.get("class", "").startswith("unit "):
            shapes = [e for e in g if e.tag in (f"{SVG}circle", f"{SVG}path")]
            found.append((g.attrib["data-location"], _union([_shape_box(e) for e in shapes])))
    return found


def centre_boxes(root: ET.Element) -> list[tuple[str, Box]]:
    return [(c.attrib["data-province"], _shape_box(c)) for c in root.iter(f"{SVG}circle")
            if c.attrib.get("class", "").startswith("centre")]


@pytest.mark.parametrize("phase", list(scenes()))
def test_no_unit_covers_its_provinces_name(phase: str) -> None:
    root = ET.fromstring(render_svg(standard(), scenes()[phase]))
    labels = label_boxes(root)
    units = unit_boxes(root)
    assert units
    covered = [(where, labels[province_of(where)]) for where, box in units
               if _overlap(box, labels[province_of(where)])]
    assert not covered, covered


@pytest.mark.parametrize("phase", list(scenes()))
def test_no_unit_or_centre_marker_covers_any_name(phase: str) -> None:
    root = ET.fromstring(render_svg(standard(), scenes()[phase]))
    labels = label_boxes(root)
    things = unit_boxes(root) + centre_boxes(root)
    covered = [(where, name) for where, box in things
               for name, label in labels.items() if _overlap(box, label)]
    assert not covered, covered


def test_the_check_finds_a_covered_name() -> None:
    """A unit drawn right on a name is caught."""
    root = ET.fromstring(render_svg(standard(), scenes()["S1901M"]))
    left, top, right, bottom = label_boxes(root)["PAR"]
    assert _overlap(((left + right) / 2 - 5, (top + bottom) / 2 - 5,
                     (left + right) / 2 + 5, (top + bottom) / 2 + 5), (left, top, right, bottom))
